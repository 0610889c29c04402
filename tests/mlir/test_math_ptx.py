"""Every math function (``tests/math_kernels.py``) goes through the MLIR pipeline to PTX with
libdevice linked (no ``__nv_`` call left), in f16, f32 and f64."""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

from mytriton.backends.mlir.backend import MlirBackend
from tests.execution.test_division_approx import PTX_DIVISION, warmup_one_division
from tests.execution.test_math_approx import (
    PTX_LOG2E_PATTERN,
    PTX_MATH,
    PTX_MATH_IDS,
    PTX_MATH_PATTERN,
    warmup_one_function,
)
from tests.math_kernels import all_math_kernel
from tests.mlir.conftest import requires_provider


@requires_provider
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=str)
def test_math_kernel_lowers_to_ptx(mlir_backend: MlirBackend, dtype: Any) -> None:
    x, y = np.ones(64, dtype), np.ones(64, dtype)
    all_math_kernel.clear_cache()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = all_math_kernel.warmup(
            x, y, np.zeros(64, dtype), np.zeros(64, np.int32), grid=(1,), BLOCK=64
        )
    ptx = kernel.asm["ptx"]
    assert ".visible .entry all_math_kernel(" in ptx
    assert ".extern" not in ptx and "__nv_" not in ptx, "libdevice was not linked"


@requires_provider
@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=str)
def test_exp2_is_ex2_approx_ftz(mlir_backend: MlirBackend, dtype: Any) -> None:
    """``tl.exp2`` is one ``ex2.approx.ftz.f32`` an element, as in Triton's PTX (libdevice's
    ``exp2f`` would be ``ex2.approx.f32``, which ptxas rescales for subnormal results)."""
    from tests.execution.test_exp2_approx import exp2_kernel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = exp2_kernel.warmup(np.ones(128, dtype), np.ones(128, dtype), grid=(1,), BLOCK=128)
    ptx = kernel.asm["ptx"]
    assert ptx.count("ex2.approx.ftz.f32") == 1  # 128 elements, 128 threads
    assert "ex2.approx.f32" not in ptx and "__nv_exp2" not in ptx


@requires_provider
@pytest.mark.parametrize(
    "dtype",
    [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64],
    ids=lambda d: np.dtype(d).name,
)
def test_integer_abs_is_one_abs_instruction(mlir_backend: MlirBackend, dtype: Any) -> None:
    """``tl.abs`` of a signed integer is PTX ``abs.sN`` (an i8 in a 16-bit register), as
    ``llvm.intr.abs`` makes it; unsigned integers have none."""
    from tests.execution.test_int_abs import abs_kernel

    x = np.zeros(64, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = abs_kernel.warmup(x, np.zeros(129, dtype), grid=(1,), BLOCK=64)
    ptx = kernel.asm["ptx"]
    bits = np.dtype(dtype).itemsize * 8
    if np.issubdtype(dtype, np.signedinteger):
        assert f"abs.s{max(bits, 16)}" in ptx
    else:
        assert "abs." not in ptx


@requires_provider
@pytest.mark.parametrize(
    ("how", "dtype"), list(PTX_DIVISION), ids=[f"{h}-{d}" for h, d in PTX_DIVISION]
)
def test_division_instruction(mlir_backend: MlirBackend, how: str, dtype: str) -> None:
    """``/`` and ``tl.fdiv`` of f32 (of f16 too, in f32) are one ``div.full.f32`` an element,
    as in Triton's PTX; ``tl.div_rn``, ``fdiv(ieee_rounding=True)`` and f64 keep ``div.rn``."""
    ptx = warmup_one_division(how, dtype).asm["ptx"]
    want = PTX_DIVISION[(how, dtype)]
    divisions = re.findall(r"\bdiv\.[\w.]+", ptx)
    assert divisions == [want], divisions


@requires_provider
@pytest.mark.parametrize(("fn", "dtype", "ftz"), list(PTX_MATH), ids=PTX_MATH_IDS)
def test_math_instructions(mlir_backend: MlirBackend, fn: str, dtype: str, ftz: bool) -> None:
    """``tl.exp``/``exp2``/``sqrt``/``rsqrt`` of f32 (f16 in f32) are Triton's approximate PTX
    instructions (exp after one ``mul.f32`` by log2(e)), not libdevice's ``expf`` (an fma
    sequence) or ``sqrtf``; ``sqrt_rn`` is ``sqrt.rn.f32`` (libdevice's ``sqrtf`` here is
    ``sqrt.approx``); f64 stays libdevice's (``sqrt.rn.f64``, ``rsqrt.approx.f64``)."""
    ptx = warmup_one_function(fn, dtype, ftz).asm["ptx"]
    assert re.findall(PTX_MATH_PATTERN, ptx) == PTX_MATH[(fn, dtype, ftz)]
    assert len(re.findall(PTX_LOG2E_PATTERN, ptx)) == (fn in ("exp", "sigmoid"))
    assert "fma" not in ptx
