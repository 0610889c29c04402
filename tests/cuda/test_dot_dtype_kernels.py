"""``tl.dot`` kernels of every operand dtype compile to CUDA C++ (nvcc, sm_90) on machines without
a GPU (CI); tests/mlir/test_dot_dtype_ptx.py takes the same kernels to PTX through upstream MLIR."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.cuda.test_nvcc import assert_compiles
from tests.execution.test_dot_dtypes import DTYPE_IDS, DTYPES, acc_plus_dot_kernel, matmul_kernel


def dot_warmups(operand: type, out_dtype: Any, result: type) -> list[Any]:
    """Compile-only launches: the masked K-loop matmul and the folded ``acc + dot`` idiom."""
    a, b = np.zeros((32, 32), operand), np.zeros((32, 32), operand)
    c, out = np.zeros((32, 32), result), np.zeros((32, 32), result)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [
            matmul_kernel.warmup(
                a,
                b,
                c,
                out,
                32,
                32,
                32,
                grid=(2, 1),
                OUT=out_dtype,
                USE_ACC=True,
                BM=16,
                BN=32,
                BK=32,  # the least K of an 8-bit dot on NVIDIA (Triton's min_dot_size)
            ),
            acc_plus_dot_kernel.warmup(a, b, c, out, grid=(1,), OUT=out_dtype, M=16, N=32, K=32),
        ]


@pytest.mark.parametrize(("operand", "out_dtype", "result"), DTYPES, ids=DTYPE_IDS)
def test_dot_kernels_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object, operand: type, out_dtype: Any, result: type
) -> None:
    for i, kernel in enumerate(dot_warmups(operand, out_dtype, result)):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")
