"""TMA stores: on sm_90 (gpusim's default target) a tensor descriptor's block store is written
into a swizzled shared tile and stored by the copy engine (``ttg-tma-stores``), host and
in-kernel descriptors alike; every backend gives the interpreter's answer: partial edge tiles
written only inside the tensor, several tiles a program (the tile rewritten only after the last
store read it), 4 and 8 warps, f16/bf16/f32."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.tools.tensor_descriptor import TensorDescriptor

pytestmark = pytest.mark.execution

SENTINEL = 7.0


@triton.jit
def scale_tiles(x_desc, y_desc, M, N, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """y = 2 x + 1, tile by tile; program p handles tiles p, p + PROGRAMS, ... (persistent)."""
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for t in range(pid, tiles, PROGRAMS):
        rm = (t // tiles_n) * BM
        rn = (t % tiles_n) * BN
        x = x_desc.load([rm, rn])
        y_desc.store([rm, rn], x * 2 + 1)


@triton.jit
def scale_tiles_device(
    x_ptr, y_ptr, M, N, P, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr
):
    """``scale_tiles`` through descriptors the kernel makes (rows ``P`` elements apart)."""
    x_desc = tl.make_tensor_descriptor(x_ptr, [M, N], [P, 1], [BM, BN])
    y_desc = tl.make_tensor_descriptor(y_ptr, [M, N], [P, 1], [BM, BN])
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for t in range(pid, tiles, PROGRAMS):
        rm = (t // tiles_n) * BM
        rn = (t % tiles_n) * BN
        x = x_desc.load([rm, rn])
        y_desc.store([rm, rn], x * 2 + 1)


DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
# (M, N, BM, BN, programs, num_warps): whole tiles; partial edge tiles in M and N; several
# tiles a program; 8 warps; 256-row tiles
SHAPES = [
    (64, 64, 32, 64, 2, 4),
    (100, 90, 32, 64, 2, 4),
    (72, 200, 16, 64, 3, 8),
    (300, 64, 256, 64, 1, 8),
]


def _tma_stored(compiled: Any) -> bool:
    return "ttg.async_tma_copy_local_to_global" in compiled.asm["ttg"]


def _check(run: Any, kernel: Any, dtype: str, shape: tuple[int, ...], host: bool) -> None:
    m, n, bm, bn, programs, warps = shape
    if dtype == "f32" and bn * 4 % 64:
        pytest.skip("(the case is the same)")
    rng = np.random.default_rng(m * n)
    pitch = -(-n // 16) * 16 + 16  # rows 16-byte aligned, with columns past the tensor
    x = rng.standard_normal((m, pitch)).astype(DTYPES[dtype])[:, :n]
    whole = np.full((m + 3, pitch), SENTINEL, x.dtype)  # rows past the tensor too
    y = whole[:m, :n]
    if host:
        args: tuple[Any, ...] = (
            TensorDescriptor.from_tensor(x, [bm, bn]),
            TensorDescriptor.from_tensor(y, [bm, bn]),
            m,
            n,
        )
    else:
        args = (x, y, m, n, pitch)
    compiled = run(kernel, (programs,), *args, PROGRAMS=programs, BM=bm, BN=bn, num_warps=warps)
    if run.backend != "interpreter":
        assert _tma_stored(compiled), "the block was not stored by TMA"
        assert "nvvm.cp.async.bulk.tensor.global.shared.cta" in compiled.asm["gpu"]
    expected = np.full_like(whole, SENTINEL)
    expected[:m, :n] = (x.astype(np.float32) * 2 + 1).astype(x.dtype)
    np.testing.assert_array_equal(whole.astype(np.float32), expected.astype(np.float32))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_host_descriptor_store(run: Any, shape: tuple[int, ...], dtype: str) -> None:
    _check(run, scale_tiles, dtype, shape, host=True)


@pytest.mark.parametrize("dtype", ["f16", "f32"])
@pytest.mark.parametrize("shape", SHAPES[1:3], ids=lambda s: "x".join(map(str, s)))
def test_device_descriptor_store(run: Any, shape: tuple[int, ...], dtype: str) -> None:
    _check(run, scale_tiles_device, dtype, shape, host=False)
