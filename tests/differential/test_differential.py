"""The differential test: a few hundred random kernels on mytriton's interpreter and gpusim
against real Triton 3.6's interpreter, on the same inputs, for a fixed seed.

The reference Python is ``$MYTRITON_TRITON_REFERENCE_PYTHON`` or ``.triton-reference/``
(``make triton-reference``); without one the test is skipped, except under CI (``CI`` set),
where that is a failure, so CI can never silently not run it. Each failure prints the program
and the command that reproduces it (``python -m tests.differential --seed S --index I``).
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np
import pytest

from tests.differential.check import Report, check_programs, type_assert_failed
from tests.differential.generator import Program, generate
from tests.differential.runner import ENV_VAR, reference_python, run_reference

SEED = 20261205
COUNT = 250  # about a minute on 2 cores

# Both tests read real Triton's results: one reference subprocess (its start imports torch and
# Triton) serves the module, the tests kept on one pytest-xdist worker (Makefile: loadgroup).
pytestmark = pytest.mark.xdist_group("differential")
_RESULTS: dict[tuple[int, int, str], dict[str, Any]] = {}


def _reference(programs: list[Program], python: str, mode: str) -> list[dict[str, Any]]:
    """Real Triton's results for ``programs``, run once per process (``run_reference``)."""
    missing = [p for p in programs if (p.seed, p.index, mode) not in _RESULTS]
    if missing:
        for p, result in zip(missing, run_reference(missing, python, mode), strict=True):
            _RESULTS[(p.seed, p.index, mode)] = result
    return [_RESULTS[(p.seed, p.index, mode)] for p in programs]


def _python() -> str:
    python = reference_python()
    if python is None:
        why = f"no Triton reference Python: run `make triton-reference` or set {ENV_VAR}"
        if os.environ.get("CI"):
            pytest.fail(why + " (required under CI)")
        pytest.skip(why)
    return python


@pytest.mark.execution
def test_mytriton_matches_triton_interpreter() -> None:
    python = _python()
    programs = [generate(SEED, i, "interpreter") for i in range(COUNT)]
    report = Report(SEED, "interpreter")
    start = time.time()
    results = _reference(programs, python, "interpreter")
    triton_seconds = time.time() - start
    check_programs(programs, python, "interpreter", ["interpreter", "gpusim"], report, results)
    report.seconds["triton"] = triton_seconds
    print(report.summary())
    problems = report.generator_bugs + report.mismatches
    assert report.stats["accepted"] > COUNT * 0.8, report.summary()
    assert report.stats["rejected"] > 0, "no program meant to be rejected: " + report.summary()
    assert not problems, f"{report.summary()}\n\n" + "\n".join(problems[:10])


def test_a_divergence_is_reported_with_its_reproduction() -> None:
    """The harness itself: a value or an accept/reject that differs from Triton's is caught,
    with the command that reproduces it."""
    index = next(i for i in range(50) if any(o.check == "exact" for o in generate(SEED, i).outputs))
    program = generate(SEED, index)
    results = _reference([program], _python(), "interpreter")
    assert results[0]["status"] == "ok"
    clean = Report(SEED, "interpreter")
    check_programs([program], "", "interpreter", ["interpreter"], clean, results)
    assert not clean.mismatches, clean.mismatches

    out = next(i for i, o in enumerate(program.outputs) if o.check == "exact")
    wrong = results[0]["outputs"][out].copy()
    flat = wrong.reshape(-1)
    if flat.dtype.kind == "f" or flat.dtype.name == "bfloat16":
        flat[0] = 1.0 if np.isnan(float(flat[0])) else np.nan
    else:
        flat[0] = ~flat[0]
    changed = [dict(results[0], outputs=[*results[0]["outputs"]])]
    changed[0]["outputs"][out] = wrong
    rejected = [{"status": "rejected", "error": "TypeError: made up"}]
    for fake, what in ((changed, "elements differ"), (rejected, "mytriton accepts")):
        # a rejection the generator predicted: so the difference is mytriton's
        program.expect_reject = "made up" if fake is rejected else None
        report = Report(SEED, "interpreter")
        check_programs([program], "", "interpreter", ["interpreter"], report, fake)
        assert len(report.mismatches) == 1 and not report.generator_bugs, report
        assert what in report.mismatches[0]
        assert f"--seed {SEED} --index {index}" in report.mismatches[0]


def test_a_quoted_dtype_assertion_is_not_a_failed_one() -> None:
    """Compiled Triton's errors quote the kernel's source, generated dtype assertions included:
    only the marker in the error's own words is a failed assertion (the H100 long mode counted
    quoted ones as generator disagreements)."""
    quoted = (
        "CompilationError: at 8:10:\n"
        '    tl.static_assert(v5.dtype == tl.int1, "difftype v5")\n'
        "    v6 = (v5 >> x2)\n"
        "IncompatibleTypeErrorImpl('invalid operands of type float32 and float32')"
    )
    assert not type_assert_failed(quoted)
    assert type_assert_failed("CompileTimeAssertionFailure: difftype v5")
    assert type_assert_failed("AssertionError: difftype v5")
