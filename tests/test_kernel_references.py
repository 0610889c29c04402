"""The NumPy references of ``tests/kernel_references.py``: one for every kernel, and each agrees
with the interpreter on every launch recipe the GPU tests use (so a GPU-side mismatch points at
the GPU backend or at a bug both the interpreter and the GPU share, never at the reference)."""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

from mytriton.runtime.jit import JITFunction
from tests import kernels
from tests.cuda.seed_cases import SEED_CASES
from tests.kernel_references import REFERENCES, assert_matches_reference, expected_outputs
from tests.mlir.suite import CASES


def test_every_kernel_has_a_reference() -> None:
    jitted = [k for _, k in inspect.getmembers(kernels) if isinstance(k, JITFunction)]
    assert jitted
    missing = [k for k in jitted if k not in REFERENCES]
    assert not missing, f"kernels without a NumPy reference: {missing}"


@pytest.fixture
def interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET", "MYTRITON_PIPELINE"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("name", list(SEED_CASES))
@pytest.mark.usefixtures("interpreter")
def test_seed_case_on_the_interpreter(name: str) -> None:
    case = SEED_CASES[name]
    args = case.args(seed=3)
    expected = case.expected(args)
    case.kernel[case.grid](*args, num_warps=case.num_warps, **case.constexprs)
    assert_matches_reference(args, expected)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@pytest.mark.usefixtures("interpreter")
def test_mlir_suite_case_on_the_interpreter(case: Any) -> None:
    args, meta = case.make(np.random.default_rng(1))
    expected = expected_outputs(case.kernel, args, meta)
    case.kernel[case.grid](*args, **meta)
    assert_matches_reference(args, expected)


def test_a_wrong_result_fails_the_check() -> None:
    """The check is not vacuous: one wrong element of one output fails it."""
    x, y, out = np.ones(8, np.float32), np.ones(8, np.float32), np.full(8, 2.0, np.float32)
    expected = expected_outputs(kernels.add_kernel, [x, y, out, 8], {"BLOCK": 8})
    assert_matches_reference([x, y, out, 8], expected)
    out[5] = 2.01
    with pytest.raises(AssertionError, match="argument 2"):
        assert_matches_reference([x, y, out, 8], expected)
