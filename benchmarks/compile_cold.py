"""Cold compile times of the ``patterns.py`` rows' kernels, mytriton beside Triton, without a GPU.

Each kernel of ``static_specs.json`` is compiled for sm_90 from source to cubin in a fresh
process with an empty cache directory (``MYTRITON_CACHE_DIR`` / ``TRITON_CACHE_DIR``), as
``static_compare.py`` compiles it: under Triton (``--triton-python``, ``triton.compile`` of an
``ASTSource``) and under mytriton's cuda and mlir backends. The compile's wall time after the
imports is split, from ``knobs.compilation.listener``'s stage times, into mytriton's own Python
(frontend, ``tt``/``ttg`` passes, lowering, printing) and the external tools: for the mlir
backend its ``ptx`` (mlir-opt, mlir-translate) and ``cubin`` (ptxas) stages; for the cuda
backend ``nvcc -ptx`` with NVRTC's options then ptxas, timed after the compile stops at its
C++ (on a GPU NVRTC and ptxas take their place); for Triton its ``cubin`` stage (ptxas).
mytriton's modules are byte-compiled first, as ``pip install`` leaves them (``compile_times.py``
says why): the stages import what they run, and compiling those sources is no kernel's cost.

    python benchmarks/compile_cold.py --triton-python /work/tritonref/bin/python
    python benchmarks/compile_cold.py --kernels matmul.cfg0,fused_moe --impls mytriton-cuda
    python benchmarks/compile_cold.py --profile mytriton-cuda fused_moe   # cProfile of one

The table: per kernel and implementation, Python seconds, tool seconds, the total, and
mytriton's total over Triton's; ``--out`` keeps every measurement (stage times included) as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
IMPLS = ("triton", "mytriton-cuda", "mytriton-mlir")
#: the stages that run external tools, by implementation (the rest is the compiler's own work)
TOOL_STAGES = {
    "triton": ("cubin",),
    "mytriton-cuda": ("ptx", "cubin"),
    "mytriton-mlir": ("ptx", "cubin"),
}


def _listen(knobs: Any, heard: list[Any]) -> None:
    def listener(
        *, src: Any, metadata: Any, metadata_group: Any, times: Any, cache_hit: bool
    ) -> None:
        heard.append(times)

    knobs.compilation.listener = listener


def measure_one(impl: str, name: str) -> dict[str, Any]:
    """Compile spec ``name`` under ``impl`` in this process; its times in seconds."""
    sys.path.insert(0, str(HERE))
    import static_compare as sc  # beside this script

    spec = json.loads(sc.SPECS_FILE.read_text())[name]
    if impl != "triton":
        os.environ["MYTRITON_BACKEND"] = impl.split("-", 1)[1]
        import mytriton

        mytriton.install_as_triton()
    import triton

    heard: list[Any] = []
    _listen(triton.knobs, heard)
    sc._kernel(spec)  # the kernel's module imported before the clock starts
    start = time.perf_counter()
    warmup = impl != "triton" and "desc_shapes" in spec
    kernel = sc._compile_warmup(spec) if warmup else sc._compile_source(spec)
    total = time.perf_counter() - start
    stages = {k: t / 1e6 for k, t in heard[-1].lowering_stages} if heard else {}
    tools = sum(stages.get(k, 0.0) for k in TOOL_STAGES[impl])
    if impl == "mytriton-cuda" and not kernel.asm.get("cubin"):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            sc._nvcc_cubin(kernel.asm["cuda"], os.path.join(tmp, "k"))
            nvcc = time.perf_counter() - start
        tools, total = tools + nvcc, total + nvcc
    frontend = heard[-1].ir_initialization / 1e6 if heard else 0.0
    return {"total": total, "tools": tools, "python": total - tools, "frontend": frontend,
            "stages": stages}  # fmt: skip


def run_cold(python: str, impl: str, name: str, extra: list[str] | None = None) -> dict[str, Any]:
    """``measure_one`` in a fresh process with an empty cache directory."""
    with tempfile.TemporaryDirectory() as cache:
        path = os.pathsep.join(p for p in (str(HERE.parent), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path, "MYTRITON_CACHE_DIR": cache,
               "TRITON_CACHE_DIR": cache}  # fmt: skip
        cmd = [python, *(extra or []), str(Path(__file__)), "--one", impl, name]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": (done.stderr or done.stdout).strip()[-300:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(results: dict[str, dict[str, dict[str, Any]]], impls: list[str]) -> list[str]:
    """Markdown: seconds per kernel (Python + tools = total) and mytriton / Triton."""
    head = "| kernel | " + " | ".join(f"{i} py / tools / total" for i in impls)
    ratios = [i for i in impls if i != "triton" and "triton" in impls]
    lines = [head + "".join(f" | {i} / triton" for i in ratios) + " |"]
    lines.append("|---" * (1 + len(impls) + len(ratios)) + "|")
    for name, by_impl in results.items():
        cells = []
        for impl in impls:
            r = by_impl.get(impl, {})
            ok = "total" in r
            cells.append(
                f"{r['python']:.2f} / {r['tools']:.2f} / {r['total']:.2f}" if ok else "failed"
            )
        for impl in ratios:
            mine, theirs = by_impl.get(impl, {}), by_impl.get("triton", {})
            ok = "total" in mine and "total" in theirs
            cells.append(f"{mine['total'] / theirs['total']:.2f}" if ok else "-")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kernels", default="", help="comma-separated spec names (default: all)")
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma-separated implementations")
    ap.add_argument("--triton-python", help="a Python with Triton 3.6 (else mytriton only)")
    ap.add_argument("--out", help="write every measurement here as JSON")
    ap.add_argument("--one", nargs=2, metavar=("IMPL", "KERNEL"), help=argparse.SUPPRESS)
    ap.add_argument("--profile", nargs=2, metavar=("IMPL", "KERNEL"),
                    help="cProfile one cold compile (cumulative time, the top 40)")  # fmt: skip
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(*args.one)))
        return
    specs = json.loads((HERE / "static_specs.json").read_text())
    names = [k for k in args.kernels.split(",") if k] or list(specs)
    impls = [i for i in args.impls.split(",") if i]
    if args.profile:
        names, impls = [args.profile[1]], [args.profile[0]]
    unknown = sorted(set(names) - set(specs)) + sorted(set(impls) - set(IMPLS))
    if unknown:
        ap.error(f"unknown kernels or implementations {unknown} (implementations: {IMPLS})")
    if "triton" in impls and not args.triton_python:
        if args.profile:
            ap.error("profiling Triton needs --triton-python")
        impls.remove("triton")
    sys.path.insert(0, str(HERE))
    from compile_times import byte_compile_mytriton  # beside this script

    byte_compile_mytriton()
    if args.profile:
        _profile(args.profile[0], args.profile[1], args.triton_python)
        return
    results: dict[str, dict[str, dict[str, Any]]] = {}
    for name in names:
        results[name] = {}
        for impl in impls:
            python = args.triton_python if impl == "triton" else sys.executable
            results[name][impl] = run_cold(python, impl, name)
            print(f"{name} {impl}: {results[name][impl]}", file=sys.stderr, flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1))
    print("\n".join(table(results, impls)))


def _profile(impl: str, name: str, triton_python: str | None) -> None:
    """One cold compile under cProfile: the top 40 by cumulative time."""
    import pstats

    python = triton_python if impl == "triton" and triton_python else sys.executable
    with tempfile.NamedTemporaryFile(suffix=".prof") as prof:
        run_cold(python, impl, name, extra=["-m", "cProfile", "-o", prof.name])
        pstats.Stats(prof.name).sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
