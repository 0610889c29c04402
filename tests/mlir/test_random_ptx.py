"""The random-number kernels compile to PTX through upstream MLIR on machines without a GPU
(CI): Philox's uint32/uint64 words reach mlir-opt signless."""

from __future__ import annotations

import re
import warnings

from tests.mlir.conftest import requires_provider


@requires_provider
def test_random_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_random import random_warmups

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compiled = random_warmups()
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
        assert not re.search(r"\bui\d+\b", kernel.asm["gpu"])
