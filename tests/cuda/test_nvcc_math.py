"""The printed CUDA C++ of every math function (``tests/math_kernels.py``) compiles with nvcc,
in f16, f32 and f64."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.cuda.test_nvcc import assert_compiles
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
