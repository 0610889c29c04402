"""Real libraries' kernels on mytriton and on the real Triton, side by side, on one GPU.

Runs each library example (``examples/liger_kernels.py``, ``examples/fla_kernels.py``) once per
runner, each in its own process: the real Triton (``--impl triton``, no switch), then mytriton
through the ``triton`` switch on each GPU backend (``MYTRITON_AS_TRITON=1``,
``MYTRITON_BACKEND=cuda`` / ``mlir``). Every case is checked against eager torch (the largest
error of any output or gradient), then ``--repeat`` forward-and-backward calls are timed with the
wall clock around a synchronised loop (library overhead included: what a user's step costs).
Prints one table per library: per case and runner, the error, ms per call, and mytriton's speed
relative to Triton (Triton's time over mytriton's; > 1 is faster).

The libraries are pure-Python wheels; on a machine without a network, carry them and install
with ``pip install --no-deps liger_kernel-*.whl fla_core-*.whl einops-*.whl``.

    python benchmarks/libraries.py [--libs liger,fla] [--backends cuda,mlir] [--repeat 20]
    python benchmarks/libraries.py --device cpu --backends interpreter --repeat 1   # smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = {"liger": "liger_kernels.py", "fla": "fla_kernels.py"}


def run_example(
    example: str,
    impl: str,
    backend: str | None,
    device: str,
    repeat: int,
    only: str,
    timeout: float = 1200,
) -> tuple[list[dict[str, Any]], str]:
    """The example's JSON rows under one runner, and its stderr's tail when it failed (the
    rows of the cases done when ``timeout`` runs out: the example prints each when done)."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("MYTRITON_AS_TRITON", "MYTRITON_BACKEND")
    }
    env.pop("TRITON_INTERPRET", None)
    sys.path.insert(0, str(ROOT))
    from tests.child_env import switch_hook_folder  # a checkout has no MYTRITON_AS_TRITON hook

    hook = switch_hook_folder(Path(tempfile.mkdtemp(prefix="mytriton-libraries-")))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [hook, str(ROOT), env.get("PYTHONPATH")]))
    if backend is not None:
        env["MYTRITON_BACKEND"] = backend
    args = [sys.executable, str(ROOT / "examples" / example), "--device", device]
    args += ["--impl", impl, "--json", "--time", str(repeat)]
    if only:
        args += ["-k", only]
    try:
        proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as stopped:
        out = stopped.stdout.decode() if isinstance(stopped.stdout, bytes) else stopped.stdout
        return _rows(out or ""), f"timed out after {timeout} s"
    rows = _rows(proc.stdout)
    tail = "" if rows and proc.returncode in (0, 1) else proc.stderr[-3000:]
    return rows, tail


def _rows(stdout: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def fmt_row(row: dict[str, Any] | None) -> str:
    if row is None:
        return f"{'-':>22s}"
    if not row["ok"]:
        return f"{'FAIL':>9s} {'-':>12s}"
    err = max(row["errors"].values(), default=0.0)
    ms = f"{row['seconds'] * 1e3:9.3f} ms" if row["seconds"] is not None else f"{'-':>12s}"
    return f"{err:9.1e} {ms}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--libs", default="liger,fla")
    parser.add_argument("--backends", default="cuda,mlir", help="mytriton backends to run")
    parser.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("-k", dest="only", default="", help="only cases whose name has this")
    parser.add_argument("--no-triton", action="store_true", help="skip the real Triton")
    parser.add_argument("--out", help="write every row as JSON here")
    parser.add_argument("--timeout", type=float, default=1200, help="seconds per runner")
    args = parser.parse_args()

    runners: list[tuple[str, str, str | None]] = []
    if not args.no_triton:
        runners.append(("triton", "triton", None))
    runners += [(f"mytriton-{b}", "mytriton", b) for b in args.backends.split(",") if b]
    everything: list[dict[str, Any]] = []
    failed = 0
    for lib in args.libs.split(","):
        example = EXAMPLES[lib]
        table: dict[str, dict[str, dict[str, Any]]] = {}
        for label, impl, backend in runners:
            rows, tail = run_example(
                example, impl, backend, args.device, args.repeat, args.only, args.timeout
            )
            print(f"{lib} on {label}: {len(rows)} cases done", flush=True)
            if tail:
                print(f"{lib} on {label}: the run failed\n{tail}", file=sys.stderr, flush=True)
                failed += 1  # a runner that stopped is a failure, whatever cases it finished
            for row in rows:
                table.setdefault(row["case"], {})[label] = row
                everything.append({"runner_label": label, **row})
                failed += not row["ok"]
                if row.get("error"):
                    print(f"{lib} {row['case']} on {label}: {row['error']}", file=sys.stderr)
        labels = [r[0] for r in runners]
        print(f"\n{lib} ({args.device}): max |error| vs torch, time per forward+backward call")
        print(f"{'case':30s}" + "".join(f" {lab:>22s}" for lab in labels) + "  vs triton")
        for case, by_runner in table.items():
            line = f"{case:30s}" + "".join(f" {fmt_row(by_runner.get(lab))}" for lab in labels)
            base = by_runner.get("triton")
            ratios = []
            for lab in labels[1:] if base else []:
                mine = by_runner.get(lab)
                if base and mine and base["seconds"] and mine["seconds"]:
                    ratios.append(f"{base['seconds'] / mine['seconds']:.2f}x")
            print(line + ("  " + " ".join(ratios) if ratios else ""))
    if args.out:
        Path(args.out).write_text(json.dumps(everything, indent=1))
    print(f"\n{failed} case(s) or run(s) failed" if failed else "\nall cases ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
