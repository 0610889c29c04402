"""One differential run: generate a batch, run it under real Triton once, then on each mytriton
backend, and describe every disagreement so that one command reproduces it."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.differential.compare import compare
from tests.differential.generator import TYPE_MARKER, Program, generate
from tests.differential.runner import MyTritonRunner, run_reference


@dataclass
class Report:
    seed: int
    reference: str
    programs: int = 0
    mismatches: list[str] = field(default_factory=list)
    generator_bugs: list[str] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        stats = ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items()))
        times = ", ".join(f"{k} {v:.1f}s" for k, v in self.seconds.items())
        return (
            f"differential seed {self.seed}: {self.programs} programs against Triton's "
            f"{self.reference}; {stats}; {len(self.mismatches)} mismatches, "
            f"{len(self.generator_bugs)} generator disagreements ({times})"
        )


def repro(p: Program, backend: str) -> str:
    return (
        f"PYTHONPATH=$PWD python -m tests.differential --seed {p.seed} --index {p.index} "
        f"--reference {p.reference} --backends {backend}"
    )


def _describe(p: Program, backend: str, what: str) -> str:
    return f"program {p.name} on {backend}: {what}\n  reproduce: {repro(p, backend)}\n{p.source}"


def check_programs(
    programs: list[Program],
    python: str,
    reference: str,
    backends: list[str],
    report: Report,
    results: list[dict[str, Any]] | None = None,
) -> None:
    """Checks ``programs`` against Triton's ``results`` (run here when not given)."""
    t0 = time.time()
    if results is None:
        results = run_reference(programs, python, reference)
    report.seconds["triton"] = time.time() - t0
    runner = MyTritonRunner()
    report.programs += len(programs)
    for backend in backends:
        report.seconds.setdefault(backend, 0.0)
    for p, ref in zip(programs, results, strict=True):
        triton_ok = ref["status"] == "ok"
        report.stats["accepted" if triton_ok else "rejected"] += 1
        if triton_ok == (p.expect_reject is not None) or type_assert_failed(ref.get("error", "")):
            why = p.expect_reject or "valid"
            report.generator_bugs.append(
                f"program {p.name}: generator predicted {why!r}, Triton "
                f"{'accepted' if triton_ok else 'rejected: ' + ref['error']}\n{p.source}"
            )
            continue
        for backend in backends:
            t = time.time()
            device = "cuda" if backend in ("cuda", "mlir") else "cpu"
            got = runner.run(p, backend, device)
            report.seconds[backend] += time.time() - t
            if got.status == "rejected" and not got.typed:
                report.mismatches.append(_describe(p, backend, f"untyped error {got.error}"))
                continue
            if (got.status == "ok") != triton_ok:
                what = (
                    f"mytriton rejects what Triton accepts: {got.error}"
                    if triton_ok
                    else f"mytriton accepts what Triton rejects: {ref['error']}"
                )
                report.mismatches.append(_describe(p, backend, what))
                continue
            if not triton_ok:
                continue
            diffs = []
            for i, out in enumerate(p.outputs):
                operand = None if out.operand is None else ref["outputs"][out.operand]
                d = compare(out, ref["outputs"][i], got.outputs[i], operand, p.reference)
                if d is not None:
                    diffs.append(f"{d.describe()}  (compared {out.check})")
            if diffs:
                report.mismatches.append(_describe(p, backend, "\n" + "\n".join(diffs)))


def type_assert_failed(error: str) -> bool:
    """Whether Triton's error is one of the generator's dtype assertions failing: the marker
    in the error's own words, not in the kernel source a compiled-mode error quotes."""
    return any(TYPE_MARKER in line and "static_assert(" not in line for line in error.splitlines())


def run(
    seed: int,
    count: int,
    python: str,
    reference: str,
    backends: list[str],
    index: int | None = None,
) -> Report:
    report = Report(seed, reference)
    indices = [index] if index is not None else list(range(count))
    programs = [generate(seed, i, reference) for i in indices]
    check_programs(programs, python, reference, backends, report)
    return report
