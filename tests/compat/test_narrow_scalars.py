"""Scalar parameters of the types narrower than the launch ABI's (``i8``, ``i16``, ``u8``,
``u16``, ``fp16``, ``bf16``) in a ``triton.compile`` signature: every backend takes them
(the GPU backends refused to load such a kernel: "not part of the ABI"), with the value
Triton's launcher packs: an integer's low bits, an f16 rounded once from the Python float, a
bf16 as the upper half of the float's f32 bits (Triton truncates the f32)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton.language as tl
from mytriton import jit
from mytriton.compiler import ASTSource
from mytriton.compiler import compile as triton_compile
from mytriton.runtime.driver import GPUTarget
from tests.gpu_required import require_gpu


@jit
def store_scalars(o0, o1, o2, o3, o4, o5, v0, v1, v2, v3, v4, v5):
    tl.store(o0, v0)
    tl.store(o1, v1)
    tl.store(o2, v2)
    tl.store(o3, v3)
    tl.store(o4, v4)
    tl.store(o5, v5)


TYPES = ("i8", "i16", "u8", "u16", "fp16", "bf16")
SIGNATURE = {
    **{f"o{i}": f"*{ty}" for i, ty in enumerate(TYPES)},
    **{f"v{i}": ty for i, ty in enumerate(TYPES)},
}
DTYPES = (np.int8, np.int16, np.uint8, np.uint16, np.float16, ml_dtypes.bfloat16)

# (i8, i16, u8, u16, f16, bf16) values, and what Triton's launcher makes of the two floats: one
# rounding to f16 (1 + 2^-11 + 2^-40 is above the tie: up, where rounding through f32 would give
# 1.0); bf16 the f32's upper half (toward zero: 1 + 3 * 2^-9 gives 1.0, not 1 + 2^-7)
CASES = [
    ((-3, -30000, 200, 60000, 1 + 2**-11 + 2**-40, 1 + 3 * 2**-9), (1 + 2**-10, 1.0)),
    ((127, 32767, 255, 65535, 1 / 3, -1 - 3 * 2**-9), (float(np.float16(1 / 3)), -1.0)),
    ((-128, -32768, 0, 0, 65504.0, 3.0), (65504.0, 3.0)),
]


def check(outputs: list[np.ndarray], values: tuple[Any, ...], floats: tuple[float, float]) -> None:
    got = [float(o.reshape(-1)[0]) for o in outputs]
    assert got[:4] == [float(v) for v in values[:4]]
    assert got[4:] == list(floats)


@pytest.mark.parametrize("cpu_backend", ["interpreter", "gpusim"])
@pytest.mark.parametrize(("values", "floats"), CASES)
def test_narrow_scalars_on_the_cpu(
    cpu_backend: str,
    values: tuple[Any, ...],
    floats: tuple[float, float],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MYTRITON_CPU_BACKEND", cpu_backend)
    kernel = triton_compile(
        ASTSource(store_scalars, SIGNATURE, {}), target=GPUTarget("cpu", "x86_64", 1)
    )
    outputs = [np.zeros(1, d) for d in DTYPES]
    kernel.run(1, 1, 1, 0, kernel.function, None, None, None, None, *outputs, *values)
    check(outputs, values, floats)


@pytest.mark.parametrize("gpu_backend", ["cuda", "mlir"])
def test_narrow_scalars_on_the_gpu(gpu_backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    torch = require_gpu("torch")
    cupy = require_gpu("cupy")
    monkeypatch.setenv("MYTRITON_BACKEND", gpu_backend)
    capability = int(cupy.cuda.Device().compute_capability)
    kernel = triton_compile(
        ASTSource(store_scalars, SIGNATURE, {}), target=GPUTarget("cuda", capability, 32)
    )
    to_torch: Callable[[np.dtype[Any]], Any] = {
        np.dtype(np.int8): torch.int8,
        np.dtype(np.int16): torch.int16,
        np.dtype(np.uint8): torch.uint8,
        np.dtype(np.uint16): torch.uint16,
        np.dtype(np.float16): torch.float16,
        np.dtype(ml_dtypes.bfloat16): torch.bfloat16,
    }.__getitem__
    stream = torch.cuda.current_stream().cuda_stream
    for values, floats in CASES:
        outputs = [torch.zeros(1, dtype=to_torch(np.dtype(d)), device="cuda") for d in DTYPES]
        kernel.run(1, 1, 1, stream, kernel.function, None, None, None, None, *outputs, *values)
        torch.cuda.synchronize()
        check([o.float().cpu().numpy() for o in outputs], values, floats)
