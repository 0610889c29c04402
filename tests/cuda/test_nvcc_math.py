"""The printed CUDA C++ of every math function (``tests/math_kernels.py``) compiles with nvcc,
in f16, f32 and f64; each kind of float division is the PTX instruction Triton's is."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.cuda.test_nvcc import assert_compiles
from tests.execution.test_division_approx import PTX_DIVISION, warmup_one_division
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
    path = tmp_path / "division.cu"
    path.write_text(source)
    ptx = path.with_suffix(".ptx")
    result = subprocess.run(
        [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", str(path), "-o", str(ptx)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    divisions = re.findall(r"\bdiv\.[\w.]+", ptx.read_text())
    assert divisions == [want], divisions
