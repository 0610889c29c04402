"""Per-call GPU time of the ``torch.compile`` graphs of ``tests/inductor/graphs.py`` on mytriton
and on real Triton, and their ratio (> 1: mytriton is faster).

Each compiler runs in a process of its own (``tests/inductor/runner.py --device cuda --time N``):
mytriton with ``MYTRITON_AS_TRITON=1`` (``MYTRITON_BACKEND`` cuda or mlir), real Triton with
the switch off, so ``import triton`` finds the installed one. Each graph is checked against
eager first; a per-call time is the median of N calls, timed with CUDA events (forward only).

With ``--jobs N`` every graph is compiled first by N runners per compiler, all compilers side by
side (a cold compile per graph, "cold s": compile plus the check against eager, every compiler
under the same load); the timed runs, one compiler at a time, then find their caches full.

    python benchmarks/torch_compile.py [--backends cuda,mlir] [--graphs a,b] [--calls 50]
        [--triton-python PY] [--json out.json] [--timeout S] [--jobs N]

A backend may name opt-in launch paths to compare side by side: ``cuda+static`` (Inductor's
static CUDA launcher on mytriton's cubins, ``MYTRITON_STATIC_LAUNCH=1``), ``cuda+fast``
(``CompiledKernel.run``'s fast path, ``MYTRITON_RUN_FAST_PATH=1``).

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


class Compiler:
    """One compiler's process settings and its own caches, kept for both phases (a cold compile
    that fills them, then the timed run that reuses them)."""

    def __init__(self, python: str, env: dict[str, str], cache: Path) -> None:
        self.python, self.env = python, {**os.environ, **env}
        self.env["TORCHINDUCTOR_CACHE_DIR"] = str(cache / "inductor")
        self.env["TRITON_CACHE_DIR"] = str(cache / "triton")
        self.env.pop("MYTRITON_CACHE_DIR", None)  # mytriton then reads TRITON_CACHE_DIR
        hook = switch_hook_folder(cache)  # a checkout has no MYTRITON_AS_TRITON hook
        self.env["PYTHONPATH"] = os.pathsep.join(
            p for p in (hook, str(ROOT), os.environ.get("PYTHONPATH", "")) if p
        )

    def start(self, graphs: str, calls: int) -> subprocess.Popen[str]:
        command = [self.python, "-m", "tests.inductor.runner", "--device", "cuda"]
        command += ["--time", str(calls)] + (["--graphs", graphs] if graphs else [])
        return subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=self.env,
            cwd=ROOT,
        )


def finish(proc: subprocess.Popen[str], timeout: float | None) -> dict[str, Any]:
    """The graphs a runner finished within ``timeout`` seconds (it prints each graph's line when
    done, so a runner killed on time still gives the graphs before)."""
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        print(f"timed out after {timeout} s: keeping the graphs done", flush=True)
    results = parse_results(stdout)
    if "" not in results:
        sys.exit(f"the runner failed ({proc.args!r}):\n{stderr[-4000:]}")
    return results


def compile_first(
    compilers: dict[str, Compiler], names: list[str], jobs: int, timeout: float | None
) -> dict[str, dict[str, float]]:
    """Compile every graph once, ``jobs`` runners per compiler, all compilers side by side, so
    that the timed runs find their caches full. Returns each graph's cold seconds (compile and
    the check against eager, under the same load for every compiler)."""
    running = [
        (name, c.start(",".join(names[j::jobs]), 0))
        for name, c in compilers.items()
        for j in range(jobs)
        if names[j::jobs]
    ]
    cold: dict[str, dict[str, float]] = {name: {} for name in compilers}
    for name, proc in running:
        for graph, r in finish(proc, timeout).items():
            if graph and r.get("ok"):
                cold[name][graph] = r["seconds"]
    return cold


#: a backend's ``+switch`` suffixes (``--backends cuda,cuda+static``): the variable each sets
SWITCHES = {"static": "MYTRITON_STATIC_LAUNCH", "fast": "MYTRITON_RUN_FAST_PATH"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="cuda,mlir")
    parser.add_argument("--graphs", default="")
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--triton-python", default=sys.executable)
    parser.add_argument("--json", default="")
    parser.add_argument(
        "--timeout", type=float, default=None, help="seconds per runner (keeps graphs done)"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="compile every graph first, N runners per compiler side by side (then time)",
    )
    args = parser.parse_args()

    off = {"MYTRITON_AS_TRITON": "0"}
    with tempfile.TemporaryDirectory() as tmp:
        compilers = {"triton": Compiler(args.triton_python, off, Path(tmp, "triton"))}
        for spec in [b for b in args.backends.split(",") if b]:
            backend, *switches = spec.split("+")
            env = {"MYTRITON_AS_TRITON": "1", "MYTRITON_BACKEND": backend}
            env.update({SWITCHES[s]: "1" for s in switches})
            compilers[spec] = Compiler(sys.executable, env, Path(tmp, spec))
        cold: dict[str, dict[str, float]] = {}
        if args.jobs:
            names = [n for n in args.graphs.split(",") if n] or list(_graph_names())
            cold = compile_first(compilers, names, args.jobs, args.timeout)
            print("compiled: " + ", ".join(f"{n} {len(g)}" for n, g in cold.items()), flush=True)
        runs: dict[str, Any] = {}
        for name, compiler in compilers.items():
            runs[name] = finish(compiler.start(args.graphs, args.calls), args.timeout)
            if name == "triton" and "mytriton" in runs[name][""]["triton"]:
                sys.exit(
                    "real Triton is not installed for --triton-python: nothing to compare with"
                )
            for graph, seconds in cold.get(name, {}).items():
                if graph in runs[name]:
                    runs[name][graph]["cold_seconds"] = seconds
            _progress(name, runs, args.json)

    names = [n for n in runs["triton"] if n]
    columns = [b for b in runs if b != "triton"]
    show_cold = bool(cold)
    print(
        f"{'graph':28s} {'triton us':>10s}"
        + "".join(f" {b + ' us':>14s} {'ratio':>6s}" for b in columns)
        + ("".join(f" {b + ' cold s':>18s}" for b in runs) if show_cold else "")
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
            row += f" {_us(mine):>14s} {ratio:>6s}"
        if show_cold:
            for b in runs:
                seconds = runs[b].get(name, {}).get("cold_seconds")
                row += f" {'-' if seconds is None else f'{seconds:.1f}':>18s}"
        print(row)
    for b in columns:
        ok = sum(1 for n in names if runs[b].get(n, {}).get("ok"))
        rs = sorted(ratios[b])
        median = rs[len(rs) // 2] if rs else float("nan")
        print(
            f"{b}: {ok}/{len(names)} graphs correct; median ratio (triton time / {b} time) "
            f"{median:.2f}, {sum(r >= 1.0 for r in rs)}/{len(rs)} at >= 1.0"
        )
        both = [n for n in cold.get(b, {}) if n in cold.get("triton", {})]
        if both:
            mine, theirs = (sum(cold[c][n] for n in both) for c in (b, "triton"))
            print(f"{b}: cold compile of {len(both)} graphs {mine:.1f} s, triton {theirs:.1f} s")
    return 0


def _graph_names() -> list[str]:
    from tests.inductor.graphs import GRAPHS  # imports torch: only when --jobs needs the names

    return list(GRAPHS)


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
