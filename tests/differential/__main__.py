"""The long mode: ``python -m tests.differential --count 5000 --seed S --backends
interpreter,gpusim,cuda,mlir --reference compiled`` on the GPU machine, where real Triton and
torch live in mytriton's own Python (the reference subprocess uses ``sys.executable`` unless
``--python`` or ``$MYTRITON_TRITON_REFERENCE_PYTHON`` says otherwise). ``--index I`` runs and
prints one program of the batch: the command each mismatch report gives."""

from __future__ import annotations

import argparse
import os
import sys

from tests.differential.check import Report, check_programs, run
from tests.differential.generator import generate
from tests.differential.runner import ENV_VAR


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--index", type=int, default=None, help="only this program of the batch")
    parser.add_argument("--backends", default="interpreter,gpusim")
    parser.add_argument("--reference", choices=["interpreter", "compiled"], default="interpreter")
    parser.add_argument("--python", default=os.environ.get(ENV_VAR) or sys.executable)
    parser.add_argument("--chunk", type=int, default=500, help="programs per reference process")
    args = parser.parse_args(argv)
    backends = [b for b in args.backends.split(",") if b]
    if args.index is not None:
        print(generate(args.seed, args.index, args.reference).source)
    print(f"seed {args.seed}, reference {args.reference} ({args.python})", flush=True)
    failures = 0
    start = 0 if args.index is None else args.index
    stop = args.count if args.index is None else args.index + 1
    for lo in range(start, stop, args.chunk):
        hi = min(stop, lo + args.chunk)
        if args.index is not None:
            report = run(args.seed, 1, args.python, args.reference, backends, args.index)
        else:
            report = run_range(args.seed, lo, hi, args.python, args.reference, backends)
        for text in report.generator_bugs + report.mismatches:
            print(text, flush=True)
        failures += len(report.mismatches) + len(report.generator_bugs)
        print(report.summary(), flush=True)
    return 1 if failures else 0


def run_range(
    seed: int, lo: int, hi: int, python: str, reference: str, backends: list[str]
) -> Report:
    """Programs ``lo..hi`` of the batch ``seed``: one reference process per chunk."""
    report = Report(seed, reference)
    programs = [generate(seed, i, reference) for i in range(lo, hi)]
    check_programs(programs, python, reference, backends, report)
    return report


if __name__ == "__main__":
    sys.exit(main())
