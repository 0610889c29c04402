"""Per-call GPU time of the ``torch.compile`` graphs of ``tests/inductor/graphs.py`` on mytriton
and on real Triton, and their ratio (> 1: mytriton is faster).

Each compiler runs in a process of its own (``tests/inductor/runner.py --device cuda --time N``):
mytriton with ``MYTRITON_AS_TRITON=1`` (``MYTRITON_BACKEND`` cuda or mlir), real Triton with
the switch off, so ``import triton`` finds the installed one. Each graph is checked against
eager first; a per-call time is the median of N calls, timed with CUDA events (forward only).

    python benchmarks/torch_compile.py [--backends cuda,mlir] [--graphs a,b] [--calls 50]
        [--triton-python PY] [--json out.json] [--timeout S]

``--triton-python`` runs real Triton with another interpreter (default: this one, which then
needs the real ``triton`` installed beside mytriton).
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
sys.path.insert(0, str(ROOT))  # the runner is part of the test suite

from tests.child_env import switch_hook_folder  # noqa: E402
from tests.inductor.runner import parse_results  # noqa: E402


def run(
    python: str, env: dict[str, str], graphs: str, calls: int, timeout: float | None = None
) -> dict[str, Any]:
    """One compiler's results, per graph (the header under ""): the graphs finished within
    ``timeout`` seconds when it runs out (the runner prints each graph's line when done)."""
    with tempfile.TemporaryDirectory() as cache:
        full = {**os.environ, **env}
        full["TORCHINDUCTOR_CACHE_DIR"] = os.path.join(cache, "inductor")
        full["TRITON_CACHE_DIR"] = os.path.join(cache, "triton")
        hook = switch_hook_folder(Path(cache))  # a checkout has no MYTRITON_AS_TRITON hook
        full["PYTHONPATH"] = os.pathsep.join(
            p for p in (hook, str(ROOT), os.environ.get("PYTHONPATH", "")) if p
        )
        command = [python, "-m", "tests.inductor.runner", "--device", "cuda", "--time", str(calls)]
        if graphs:
            command += ["--graphs", graphs]
        try:
            proc = subprocess.run(
                command, capture_output=True, text=True, env=full, cwd=ROOT, timeout=timeout
            )
            stdout, stderr = proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as stopped:
            stdout, stderr = _text(stopped.stdout), _text(stopped.stderr)
            print(f"timed out after {timeout} s: keeping the graphs done", flush=True)
    results = parse_results(stdout)
    if "" not in results:
        sys.exit(f"the runner failed ({' '.join(command)}):\n{stderr[-4000:]}")
    return results


def _text(output: str | bytes | None) -> str:
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="cuda,mlir")
    parser.add_argument("--graphs", default="")
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--triton-python", default=sys.executable)
    parser.add_argument("--json", default="")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per compiler (keeps graphs done)"
    )
    args = parser.parse_args()

    off = {"MYTRITON_AS_TRITON": "0"}
    runs = {"triton": run(args.triton_python, off, args.graphs, args.calls, args.timeout)}
    if "mytriton" in runs["triton"][""]["triton"]:
        sys.exit("real Triton is not installed for --triton-python: nothing to compare with")
    _progress("triton", runs, args.json)
    for backend in [b for b in args.backends.split(",") if b]:
        env = {"MYTRITON_AS_TRITON": "1", "MYTRITON_BACKEND": backend}
        runs[backend] = run(sys.executable, env, args.graphs, args.calls, args.timeout)
        _progress(backend, runs, args.json)

    names = [n for n in runs["triton"] if n]
    columns = [b for b in runs if b != "triton"]
    print(
        f"{'graph':28s} {'triton us':>10s}"
        + "".join(f" {b + ' us':>10s} {'ratio':>6s}" for b in columns)
    )
    ratios: dict[str, list[float]] = {b: [] for b in columns}
    for name in names:
        ref = runs["triton"][name]
        row = f"{name:28s} {_us(ref):>10s}"
        for b in columns:
            mine = runs[b].get(name, {})
            ratio = ""
            if ref.get("ok") and mine.get("ok") and mine["per_call"]:
                r = ref["per_call"] / mine["per_call"]
                ratios[b].append(r)
                ratio = f"{r:.2f}"
            row += f" {_us(mine):>10s} {ratio:>6s}"
        print(row)
    for b in columns:
        ok = sum(1 for n in names if runs[b].get(n, {}).get("ok"))
        rs = sorted(ratios[b])
        median = rs[len(rs) // 2] if rs else float("nan")
        print(
            f"{b}: {ok}/{len(names)} graphs correct; median ratio (triton time / {b} time) "
            f"{median:.2f}, {sum(r >= 1.0 for r in rs)}/{len(rs)} at >= 1.0"
        )
    return 0


def _progress(name: str, runs: dict[str, Any], path: str) -> None:
    """Say that one compiler is done, and keep every result so far (a later one may time out)."""
    done = [g for g in runs[name] if g]
    print(f"{name}: {len(done)} graphs done", flush=True)
    if path:
        Path(path).write_text(json.dumps(runs, indent=1))


def _us(result: dict[str, Any]) -> str:
    if not result.get("ok"):
        return "FAIL" if result else "-"
    return f"{result['per_call'] * 1e6:.1f}"


if __name__ == "__main__":
    sys.exit(main())
