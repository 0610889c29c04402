"""flash-linear-attention (``pip install --no-deps fla-core einops``) on mytriton: its
linear-attention kernels on CPU tensors, against a step-by-step recurrence in torch, on the
interpreter and on gpusim."""

from __future__ import annotations

import pytest

from tests.libraries.conftest import CPU_BACKENDS, require, run_example

CASES = {
    "fused_recurrent_simple_gla",
    "chunk_simple_gla",
    "fused_recurrent_gla",
    "chunk_gla",
    "fused_recurrent_delta_rule",
    "chunk_delta_rule_bf16",
    "fused_recurrent_gated_delta",
    "chunk_gated_delta_rule_bf16",
    "rms_norm",
    "l2norm",
}


@pytest.mark.parametrize("backend", CPU_BACKENDS)
def test_fla_kernels_match_torch(backend: str) -> None:
    require("torch", "einops", "fla")
    rows = run_example("fla_kernels.py", backend)
    assert set(rows) == CASES
    for name, row in rows.items():
        assert row["runner"] == f"mytriton {backend}"
        assert row["ok"], f"{name}: {row['error'] or row['errors']}"
