"""A kernel per dtype compiles to PTX through upstream MLIR on machines without a GPU (CI)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from tests.cuda.test_dtype_kernels import DTYPES, _warmups
from tests.mlir.conftest import requires_provider


@requires_provider
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_dtype_kernels_compile_to_ptx(mlir_backend: object, dt: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = _warmups(dt)
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
