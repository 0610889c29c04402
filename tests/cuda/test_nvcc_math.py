"""The printed CUDA C++ of every math function (``tests/math_kernels.py``) compiles with nvcc,
in f16, f32 and f64; each kind of float division is the PTX instruction Triton's is."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.cuda.test_nvcc import assert_compiles, nvcc_ptx
from tests.execution.test_division_approx import PTX_DIVISION, warmup_one_division
from tests.execution.test_math_approx import (
    PTX_LOG2E_PATTERN,
    PTX_MATH,
    PTX_MATH_IDS,
    PTX_MATH_PATTERN,
    warmup_one_function,
)
from tests.math_kernels import all_math_kernel


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=str)
def test_math_kernel_compiles(nvcc: str, tmp_path: Path, cuda_backend: object, dtype: Any) -> None:
    x, y = np.ones(64, dtype), np.ones(64, dtype)
    all_math_kernel.clear_cache()
    kernel = all_math_kernel.warmup(
        x, y, np.zeros(64, dtype), np.zeros(64, np.int32), grid=(1,), BLOCK=64
    )
    source = kernel.asm["cuda"]
    for fn in ("erff", "tanhf", "cbrtf", "roundf", "rintf", "atan2f", "copysignf", "fmaf"):
        assert dtype == np.float64 or f"{fn}(" in source, fn
    assert_compiles(nvcc, source, tmp_path / "all_math.cu")


@pytest.mark.parametrize(
    ("how", "dtype"), list(PTX_DIVISION), ids=[f"{h}-{d}" for h, d in PTX_DIVISION]
)
def test_division_instruction(
    nvcc: str, tmp_path: Path, cuda_backend: object, how: str, dtype: str
) -> None:
    """The printed C++ writes Triton's ``div.full.f32`` as inline PTX for ``/`` and
    ``tl.fdiv`` of f32 (f16 in f32) and C's ``/`` for the IEEE ones, which nvcc's default
    ``-prec-div=true`` makes ``div.rn``: one division instruction an element either way."""
    source = warmup_one_division(how, dtype).asm["cuda"]
    want = PTX_DIVISION[(how, dtype)]
    assert source.count('asm("div.full.f32 %0, %1, %2;"') == (want == "div.full.f32")
    ptx = nvcc_ptx(nvcc, source, tmp_path / "division.cu")
    divisions = re.findall(r"\bdiv\.[\w.]+", ptx)
    assert divisions == [want], divisions


@pytest.mark.parametrize(("fn", "dtype", "ftz"), list(PTX_MATH), ids=PTX_MATH_IDS)
def test_math_instructions(
    nvcc: str, tmp_path: Path, cuda_backend: object, fn: str, dtype: str, ftz: bool
) -> None:
    """``tl.exp``/``exp2``/``sqrt``/``rsqrt`` of f32 (f16 in f32) are Triton's approximate PTX
    instructions, written as inline PTX (exp after C's f32 product by log2(e), which nvcc
    keeps as one ``mul.f32``); ``sqrt_rn`` is ``sqrt.rn.f32``; f64 stays the math library's
    (``sqrt.rn.f64``, ``rsqrt.approx.f64``). No ``expf``/``sqrtf`` in the C++."""
    source = warmup_one_function(fn, dtype, ftz).asm["cuda"]
    assert "expf(" not in source and "sqrtf(" not in source
    ptx = nvcc_ptx(nvcc, source, tmp_path / "math.cu")
    assert re.findall(PTX_MATH_PATTERN, ptx) == PTX_MATH[(fn, dtype, ftz)]
    assert len(re.findall(PTX_LOG2E_PATTERN, ptx)) == (fn in ("exp", "sigmoid"))
    assert "fma" not in ptx
