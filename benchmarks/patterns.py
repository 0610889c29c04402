"""Real-world kernel patterns at production sizes: mytriton (both GPU backends) beside Triton 3.6
(the same source under ``import triton``) and torch, on one GPU.

Each row is a pattern the common libraries write in Triton (paged and split-KV attention, fused
cross entropy, norms, gated activations, MoE grouped GEMM, fp8 quantization, ...), written here
in ``benchmarks/patterns_src/`` and imported through ``compare.load_kernels`` once per
implementation, at the shape and dtype it runs at in LLM training or serving. Per row and
implementation, each in its own process (real Triton and mytriton cannot share one):

- a correctness check against torch (eager, f32) at the production size, before any timing;
- GPU time per launch: CUDA events around each launch, a 256 MiB buffer zeroed before it (a cold
  L2; the zeroing also keeps the GPU busy while the host launches, so the host's launch time is
  hidden), median over the launches (``compare.bench_gpu_flushed``);
- the cold first launch (compile + load + one run, synchronised) in a fresh process with an
  empty cache directory, as ``compile_times.py`` does; and, where the row autotunes, the
  autotuning time (the autotuned kernel's first call, compiling and timing every config) in
  another fresh process.

Prints a table with mytriton's speed relative to Triton (Triton's time over mytriton's; > 1 is
faster) and its geometric mean, naming the GPU, the date and the command, and writes every
result as JSON (``--out``).

    python benchmarks/patterns.py --out patterns.json
    python benchmarks/patterns.py --rows softmax,rms_norm --impls triton,mytriton-cuda
    python benchmarks/patterns.py --dry-run     # no GPU: tiny shapes on the interpreter
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import load_kernels  # noqa: E402  (beside this script)
from patterns_rows import ROWS, Env, Row  # noqa: E402

IMPLS = ("triton", "mytriton-cuda", "mytriton-mlir", "torch")
#: the dry run's name for mytriton (its interpreter); real runs name the GPU backends
INTERPRETER = "mytriton-interpreter"
SRC = "patterns_src"
#: errors after which a process's CUDA context is unusable
STICKY = (
    "illegal memory access",
    "unspecified launch failure",
    "CUDA_ERROR_",
    "misaligned address",
)


# ---------------------------------------------------------------------------------------------
# one implementation, in its own process


def implementation(impl: str) -> tuple[ModuleType, ModuleType, Any]:
    """``triton``, ``triton.language`` and the host TensorDescriptor class of ``impl``."""
    if impl == "triton":
        import triton
        import triton.language as tl

        try:
            from triton.tools.tensor_descriptor import TensorDescriptor
        except ImportError:
            TensorDescriptor = None
        return triton, tl, TensorDescriptor
    import mytriton
    import mytriton.language as my_tl
    from mytriton.tools.tensor_descriptor import TensorDescriptor as MyDescriptor

    return mytriton, my_tl, MyDescriptor


class _Bf16AsF16:
    """torch, with ``bfloat16`` meaning ``float16`` (``--bf16-as-f16``)."""

    def __getattr__(self, name: str) -> Any:
        import torch

        return torch.float16 if name == "bfloat16" else getattr(torch, name)


def make_env(
    impl: str,
    row_: Row,
    tiny: bool,
    device: str,
    modules: dict[str, Any],
    bf16_as_f16: bool = False,
) -> Env:
    """The environment of ``row_`` under ``impl`` (its kernel module loaded once per source)."""
    import torch

    torch.manual_seed(0)
    kmod, descriptor = None, None
    if impl != "torch":
        if "impl" not in modules:
            modules["impl"] = implementation(impl)
        triton_mod, tl_mod, descriptor = modules["impl"]
        if row_.source not in modules:
            name = f"patterns_{row_.source[:-3]}_{impl.replace('-', '_')}"
            modules[row_.source] = load_kernels(name, triton_mod, tl_mod, f"{SRC}/{row_.source}")
        kmod = modules[row_.source]
    sms = torch.cuda.get_device_properties(0).multi_processor_count if device == "cuda" else 2
    return Env(_Bf16AsF16() if bf16_as_f16 else torch, device, kmod, impl, tiny, descriptor, sms)


def summary(outputs: Sequence[Any]) -> list[list[float]]:
    """Sum and sum of magnitudes of each output (to compare implementations' results)."""
    return [[float(o.double().sum().item()), float(o.double().abs().sum().item())] for o in outputs]


def measure_row(
    impl: str, r: Row, tiny: bool, device: str, rep: int, modules: dict[str, Any], f16: bool
) -> dict[str, Any] | None:
    """One row under ``impl``: checked, then timed on a GPU (None: torch has no such op). Its
    tensors go when it returns."""
    import torch

    out: dict[str, Any] = {"row": r.name, "impl": impl}
    case = r.build(make_env(impl, r, tiny, device, modules, f16))
    if impl == "torch":
        if case.torch_fn is None:
            return None
        case.torch_fn()
        fn = case.torch_fn
    else:
        ref = case.reference()
        case.launch()
        if device == "cuda":
            torch.cuda.synchronize()
        case.check(ref)
        del ref
        out["ok"] = True
        if tiny:
            out["summary"] = summary(case.outputs())
        fn = case.launch
    if device == "cuda":
        from compare import bench_gpu_flushed

        ms = bench_gpu_flushed(fn, rep=rep or None)
        out["ms"] = ms
        if case.nbytes:
            out["GB/s"] = case.nbytes / ms / 1e6
        if case.flops:
            out["TFLOP/s"] = case.flops / ms / 1e9
    return out


def run_worker(
    impl: str, names: list[str], tiny: bool, device: str, rep: int, bf16_as_f16: bool = False
) -> None:
    """Checks and times every row of ``names`` under ``impl``: a JSON line each."""
    import torch

    if impl.startswith("mytriton-") and not tiny:
        os.environ["MYTRITON_BACKEND"] = impl.split("-", 1)[1]
    if device == "cuda":
        print(json.dumps({"device": torch.cuda.get_device_name()}), flush=True)
    modules: dict[str, Any] = {}
    for name in names:
        out: dict[str, Any] | None
        try:
            out = measure_row(impl, ROWS[name], tiny, device, rep, modules, bf16_as_f16)
        except Exception as exc:  # one failure must not hide the other rows
            out = {"row": name, "impl": impl, "ok": False}
            out["error"] = f"{type(exc).__name__}: {exc}"[:600]
        if out is None:
            continue
        print(json.dumps(out), flush=True)
        if device == "cuda" and any(m in out.get("error", "") for m in STICKY):
            sys.exit(3)  # the context is lost: the driver starts a new worker for the rest
        if device == "cuda":
            torch.cuda.empty_cache()


def run_cold(impl: str, name: str, autotune: bool) -> None:
    """One cold measurement in this (fresh) process: seconds of the first launch of ``name``
    (compile + load + run, synchronised), or with ``autotune`` of the autotuned kernel's first
    call (every config compiled and timed)."""
    import torch

    if impl.startswith("mytriton-"):
        os.environ["MYTRITON_BACKEND"] = impl.split("-", 1)[1]
    r = ROWS[name]
    case = r.build(make_env(impl, r, False, "cuda", {}))
    if impl != "triton":
        try:  # as compile_times.py: mytriton's driver context exists before anything is timed
            import cupy

            cupy.zeros(1)
        except ImportError:
            pass
    torch.cuda.synchronize()
    fn = case.launch if autotune or case.first is None else case.first
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    print(json.dumps({"seconds": time.perf_counter() - t0}))


# ---------------------------------------------------------------------------------------------
# the driver


def child_env(impl: str, interpret: bool, cache: str | None = None) -> dict[str, str]:
    drop = ("MYTRITON_AS_TRITON", "MYTRITON_BACKEND", "MYTRITON_INTERPRET", "TRITON_INTERPRET")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.pop("MYTRITON_ALWAYS_COMPILE", None)
    env.pop("TRITON_ALWAYS_COMPILE", None)
    root = str(HERE.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    if impl.startswith("mytriton-") and not interpret:
        env["MYTRITON_BACKEND"] = impl.split("-", 1)[1]
    if interpret:
        env["MYTRITON_INTERPRET" if impl.startswith("mytriton") else "TRITON_INTERPRET"] = "1"
    if cache is not None:
        env["TRITON_CACHE_DIR"] = env["MYTRITON_CACHE_DIR"] = cache
    return env


def run_child(
    args: list[str], env: dict[str, str], timeout: float, python: str = ""
) -> tuple[list[Any], str]:
    """The JSON lines a child prints, and its stderr's tail where it failed."""
    try:
        proc = subprocess.run(
            [python or sys.executable, __file__, *args], env=env, capture_output=True, text=True,
            timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout:.0f} s"
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    if proc.returncode == 0:
        return lines, ""
    return lines, f"(exit status {proc.returncode})\n{proc.stderr[-2000:]}"


def geomean(xs: list[float]) -> float | None:
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def sums_agree(a: list[list[float]], b: list[list[float]], rtol: float = 1e-3) -> bool:
    """Whether two results' ``summary`` values agree (dry runs: two interpreters)."""
    pairs = [(x, y) for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True)]
    return len(a) == len(b) and all(abs(x - y) <= rtol * max(abs(x), abs(y), 1.0) for x, y in pairs)


def _time_cell(res: dict[str, Any]) -> str:
    if res.get("ms") is not None:
        return f"{res['ms']:14.3f}"
    if res.get("ok") is False:
        return f"{'FAIL':>14s}"
    return f"{'ok' if res.get('ok') else '-':>14s}"


def format_tables(
    names: list[str], impls: list[str], results: dict[tuple[str, str], dict[str, Any]]
) -> str:
    """GPU times with mytriton's ratios to Triton and their geometric mean; cold first-launch and
    autotuning seconds; the rows' shapes. (In a dry run: ok/FAIL, and whether the summaries of
    Triton's and mytriton's results agree.)"""
    mine = [i for i in impls if i.startswith("mytriton")]
    ratio = "triton" in impls
    lines = ["GPU ms per launch (L2 flushed, median); x = Triton's time / mytriton's (> 1 faster)"]
    head = f"{'row':26s} {'dtype':10s}"
    for impl in impls:
        head += f" {impl[:14]:>14s}" + ("      x" if impl in mine and ratio else "")
    dry = ratio and any("summary" in r for r in results.values())
    lines.append(head + ("  results" if dry else ""))
    ratios: dict[str, list[float]] = {i: [] for i in mine}
    for name in names:
        cells = f"{name:26s} {ROWS[name].dtype:10s}"
        base = results.get((name, "triton"), {})
        for impl in impls:
            res = results.get((name, impl), {})
            cells += f" {_time_cell(res)}"
            if impl in mine and ratio:
                if base.get("ms") and res.get("ms"):
                    ratios[impl].append(base["ms"] / res["ms"])
                    cells += f" {base['ms'] / res['ms']:5.2f}x"
                else:
                    cells += f" {'-':>6s}"
        if dry:
            got = [results.get((name, i), {}).get("summary") for i in ["triton", *mine]]
            same = all(g is not None for g in got) and all(sums_agree(got[0], g) for g in got[1:])  # type: ignore[arg-type]
            cells += "  agree" if same else "  DIFFER"
        lines.append(cells)
    gm = [f"{i}: {g:.2f}x" for i in mine if (g := geomean(ratios[i])) is not None]
    if gm:
        lines.append("geometric mean of the ratios: " + ", ".join(gm))
    cold_impls = [i for i in impls if i != "torch"]
    if any("cold_s" in results.get((n, i), {}) for n in names for i in cold_impls):
        lines += [
            "",
            "seconds: cold = first launch (compile + load + run) in a fresh process, empty cache;",
            "tune = the autotuned kernel's first call (every config compiled and timed);",
            "x = Triton's seconds / mytriton's (> 1 faster)",
            f"{'row':26s}" + "".join(f" {i:>30s}" for i in cold_impls),
        ]
        for name in names:
            cells = f"{name:26s}"
            base = results.get((name, "triton"), {})
            for impl in cold_impls:
                res = results.get((name, impl), {})
                text = ""
                for key, label in (("cold_s", ""), ("autotune_s", "tune ")):
                    if key == "autotune_s" and not ROWS[name].autotune:
                        continue
                    got = res.get(key)
                    text += f" {label}{got:.2f}" if got is not None else f" {label}-"
                    if impl in mine and got and base.get(key):
                        text += f" ({base[key] / got:.2f}x)"
                cells += f" {text.strip():>30s}"
            lines.append(cells)
    lines += ["", "rows (shape; torch's column):"]
    lines += [f"  {n}: {ROWS[n].shape}; {ROWS[n].torch_op}" for n in names]
    return "\n".join(lines)


def print_saved(files: list[str]) -> int:
    """The table of the runs saved in ``files`` (``--out``), their results merged."""
    results: dict[tuple[str, str], dict[str, Any]] = {}
    for f in files:
        data = json.loads(Path(f).read_text())
        print(f"patterns on {data['device']}, {data['date']}\n$ {data['command']}")
        for res in data["results"]:
            results.setdefault((res["row"], res["impl"]), {}).update(res)
    names = [n for n in ROWS if any(n == r for r, _ in results)]
    present = {i for _, i in results}
    impls = [i for i in (*IMPLS, INTERPRETER) if i in present]
    print(format_tables(names, impls, results))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="rows: " + ", ".join(ROWS),
    )
    ap.add_argument("--rows", default="", help="comma-separated row names (default: all)")
    ap.add_argument("--impls", default="", help=f"comma-separated, of {','.join(IMPLS)}")
    ap.add_argument("--out", default="", help="write the results as JSON here")
    ap.add_argument("--rep", type=int, default=0, help="timed launches per row (default: auto)")
    ap.add_argument("--no-cold", action="store_true", help="skip first-launch and tuning times")
    ap.add_argument(
        "--cold-only", action="store_true", help="only the first-launch and tuning times"
    )
    ap.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="cold processes run at once (default 1: each alone on the machine)",
    )
    ap.add_argument(
        "--dry-run",
        action="store_true",
        help=f"no GPU: every row at a tiny shape on the interpreter (default impls: "
        f"{INTERPRETER}; add triton for Triton's), checked against torch on the CPU, then the "
        "table's skeleton",
    )
    ap.add_argument(
        "--triton-python",
        default="",
        help="the Python that runs the triton column (default: this one), e.g. a venv with "
        "Triton where this one has none",
    )
    ap.add_argument(
        "--bf16-as-f16",
        action="store_true",
        help="dry run: bf16 rows in f16 (Triton 3.6's interpreter rounds f32 to bf16 by "
        "truncation and multiplies bf16 values as their bits, so its bf16 results cannot be "
        "compared)",
    )
    ap.add_argument(
        "--from",
        dest="from_files",
        metavar="JSON[,JSON]",
        default="",
        help="print the table of saved runs (their --out files, merged: e.g. a --no-cold run "
        "and a --cold-only one) and run nothing",
    )
    ap.add_argument("--worker", metavar="IMPL", help=argparse.SUPPRESS)
    ap.add_argument("--cold", nargs=2, metavar=("IMPL", "ROW"), help=argparse.SUPPRESS)
    ap.add_argument("--autotune", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = [n for n in args.rows.split(",") if n] or list(ROWS)
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        ap.error(f"unknown rows {unknown}; rows: {', '.join(ROWS)}")
    default_impls = INTERPRETER if args.dry_run else ",".join(IMPLS)
    impls = [i for i in (args.impls or default_impls).split(",") if i]
    known = {*IMPLS, INTERPRETER} if args.dry_run or args.worker else set(IMPLS)
    if set(impls) - known:
        ap.error(f"--impls: choose among {', '.join(sorted(known))}")

    if args.no_cold and args.cold_only:
        ap.error("--no-cold and --cold-only leave nothing to run")
    if args.bf16_as_f16 and not (args.dry_run or args.tiny):
        ap.error("--bf16-as-f16 is for dry runs")
    if args.worker:
        device = "cpu" if args.tiny else "cuda"
        run_worker(args.worker, names, args.tiny, device, args.rep, args.bf16_as_f16)
        return 0
    if args.cold:
        run_cold(args.cold[0], args.cold[1], args.autotune)
        return 0

    if args.from_files:
        return print_saved(args.from_files.split(","))

    command = "python benchmarks/patterns.py " + " ".join(sys.argv[1:])
    results: dict[tuple[str, str], dict[str, Any]] = {}
    device = "CPU (dry run: the interpreter, tiny shapes)" if args.dry_run else ""
    failed = 0
    for impl in [] if args.cold_only else impls:
        todo = list(names)
        while todo:  # a worker that died (or stopped at a sticky CUDA error) resumes after the row
            wargs = ["--worker", impl, "--rows", ",".join(todo)]
            wargs += ["--tiny"] if args.dry_run else []
            wargs += ["--rep", str(args.rep)] if args.rep else []
            wargs += ["--bf16-as-f16"] if args.bf16_as_f16 else []
            python = args.triton_python if impl == "triton" else ""
            lines, tail = run_child(wargs, child_env(impl, args.dry_run), 3600, python)
            if tail:
                print(f"{impl}: the worker failed\n{tail}", file=sys.stderr)
            done = set()
            for line in lines:
                if "device" in line:
                    device = device or line["device"]
                    continue
                done.add(line["row"])
                results[(line["row"], impl)] = line
                print(json.dumps(line), flush=True)
                failed += line.get("ok") is False
            rest = [n for n in todo if n not in done]
            if rest and rest[0] == todo[0]:  # no progress: the first row killed the worker
                results[(rest[0], impl)] = {"row": rest[0], "impl": impl, "ok": False}
                results[(rest[0], impl)]["error"] = (tail.strip().splitlines() or ["died"])[-1]
                failed += 1
                rest = rest[1:]
            todo = rest if tail else []
    if not args.dry_run and not args.no_cold:
        from compile_times import byte_compile_mytriton  # beside this script

        byte_compile_mytriton()
        jobs = [
            (name, impl, key, extra)
            for name in names
            for impl in impls
            if impl != "torch"
            for key, extra in [("cold_s", [])]
            + ([("autotune_s", ["--autotune"])] if ROWS[name].autotune else [])
        ]

        def cold(job: tuple[str, str, str, list[str]]) -> tuple[str, str, str, Any]:
            name, impl, key, extra = job
            with tempfile.TemporaryDirectory() as cache:
                lines, tail = run_child(
                    ["--cold", impl, name, *extra],
                    child_env(impl, False, cache),
                    1200,
                    args.triton_python if impl == "triton" else "",
                )
            if lines:
                return name, impl, key, lines[-1]["seconds"]
            return name, impl, key.replace("_s", "_error"), (tail.strip().splitlines() or ["?"])[-1]

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for name, impl, key, value in pool.map(cold, jobs):
                res = results.setdefault((name, impl), {"row": name, "impl": impl})
                res[key] = value
                print(json.dumps({"row": name, "impl": impl, key: value}), flush=True)

    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"\npatterns on {device or 'unknown device'}, {stamp}\n$ {command}")
    print(format_tables(names, impls, results))
    if args.dry_run:
        f16 = "; the bf16 rows ran in f16" if args.bf16_as_f16 else ""
        print(f"\n(dry run: kernels checked on the interpreter at tiny shapes{f16}; no times)")
    print(f"\n{failed} row(s) failed" if failed else "\nall rows ok")
    if args.out:
        payload = {
            "device": device,
            "date": stamp,
            "command": command,
            "rows": {n: dict(vars(ROWS[n]), build=None) for n in names},
            "results": [results[k] for k in sorted(results)],
        }
        Path(args.out).write_text(json.dumps(payload, indent=1, default=str))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
