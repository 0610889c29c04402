"""A tensor-core dot's result, stored through contiguous pointers, leaves in 16-byte vectors
(``st.global.v4.b32``, as Triton's PTX; 8-byte ones before: the accumulator layout holds two
consecutive columns a thread)."""

from __future__ import annotations

import re

from tests.mlir.conftest import requires_provider


@requires_provider
def test_dot_results_store_16_bytes(mlir_backend: object) -> None:
    from tests.execution.test_dot_store_vectors import dot_store_warmups

    for kernel in dot_store_warmups():
        stores = set(re.findall(r"st\.global[\w.]*", kernel.asm["ptx"]))
        assert stores == {"st.global.v4.b32"}, stores
