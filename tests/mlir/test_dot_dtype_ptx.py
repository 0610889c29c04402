"""``tl.dot`` kernels of every operand dtype compile to PTX through upstream MLIR on machines
without a GPU (CI)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.cuda.test_dot_dtype_kernels import dot_warmups
from tests.execution.test_dot_dtypes import DTYPE_IDS, DTYPES
from tests.mlir.conftest import requires_provider


@requires_provider
@pytest.mark.parametrize(("operand", "out_dtype", "result"), DTYPES, ids=DTYPE_IDS)
def test_dot_kernels_compile_to_ptx(
    mlir_backend: object, operand: type, out_dtype: Any, result: type
) -> None:
    for kernel in dot_warmups(operand, out_dtype, result):
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
