"""The SASS of the ``patterns.py`` rows' kernels under Triton and under mytriton, without a GPU.

Each kernel launch of a row (``static_specs.json``: the signature in Triton's type strings, the
arguments the production launch passes 16-byte aligned or divisible by 16, constexprs, including
the integers equal to 1 both implementations compile in, and the launch options; written from
``patterns_rows.py``'s launches, to be kept with them) is compiled for sm_90 in a fresh process
under Triton (``--triton-python``: a Python with Triton 3.6, no GPU needed: ``ASTSource``) and
under mytriton's cuda and mlir backends, and its cubin disassembled. mytriton's cuda backend
makes PTX with NVRTC on a GPU only, so here its C++ goes through ``nvcc`` with NVRTC's options
and then ptxas, as its ``cubin`` stage does; a kernel taking host tensor descriptors is compiled
under mytriton through its ``warmup`` with NumPy arrays (the compat ``ASTSource`` takes no
``tensordesc`` types). The table per kernel: registers, local memory (spills), shared memory,
global loads/stores by width, cp.async, TMA, wgmma/mma/ldmatrix, shared loads/stores, barriers,
shuffles, MUFU kinds, slow-path divisions (FCHK/CALL), branches and the SASS total, then what
looks worse in each mytriton backend than in Triton. Counts are static: an instruction in a
loop counts once.

    python benchmarks/static_compare.py --triton-python ~/triton/bin/python --rows softmax,matmul
    python benchmarks/static_compare.py --triton-python PY --out /tmp/static   # every row

Each kernel's IR (``.ttgir`` / ``.ttg``), PTX, cubin, SASS and statistics are left in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SPECS_FILE = HERE / "static_specs.json"
IMPLS = ("triton", "mytriton-cuda", "mytriton-mlir")
#: an SM's shared memory and register file (sm_90), for the resident programs column
SM_SHARED, SM_REGS, SM_WARPS = 233472, 65536, 64

# ---- compiling one kernel (run in a fresh process under one implementation) --------------------


def _kernel(spec: dict[str, Any]) -> Any:
    import importlib

    sys.path.insert(0, str(HERE / "patterns_src"))
    fn = getattr(importlib.import_module(spec["module"]), spec["kernel"])
    while not hasattr(fn, "arg_names"):  # an autotuner: its JIT function
        fn = fn.fn
    return fn


def _compile_source(spec: dict[str, Any]) -> Any:
    """``triton.compile`` of an ``ASTSource`` for sm_90 (Triton's API; mytriton's compat)."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    fn = _kernel(spec)
    names = list(fn.arg_names)
    sig = {**spec["signature"], **{k: "constexpr" for k in spec["constexprs"]}}
    constexprs = {(names.index(k),): v for k, v in spec["constexprs"].items()}
    attrs = {(names.index(k),): [["tt.divisibility", 16]] for k in spec.get("div16", [])}
    src = ASTSource(fn, {k: sig[k] for k in names}, constexprs, attrs)
    target = GPUTarget("cuda", 90, 32)
    return triton.compile(src, target=target, options=spec.get("options", {}))


def _compile_warmup(spec: dict[str, Any]) -> Any:
    """mytriton's ``warmup`` with NumPy arrays behind host descriptors (``desc_shapes``) and
    the launch's integers (``values``): specialized as the real launch is."""
    import numpy as np
    from triton.tools.tensor_descriptor import TensorDescriptor

    args = []
    for name, ty in spec["signature"].items():
        found = re.match(r"tensordesc<(\w+)\[([^]]*)\]", ty)
        if found is None:
            args.append(spec["values"][name])
            continue
        array = np.zeros(spec["desc_shapes"][name], {"fp16": np.float16, "fp32": np.float32}[
            found.group(1)])  # fmt: skip
        block = [int(x) for x in found.group(2).split(",")]
        args.append(TensorDescriptor.from_tensor(array, block))
    options = {**spec["constexprs"], **spec.get("options", {})}
    return _kernel(spec).warmup(*args, grid=(1,), **options)


def _nvcc_cubin(cuda: str, base: str) -> bytes:
    """The cuda backend's PTX (NVRTC's options, through nvcc) and cubin (ptxas, as its
    ``cubin`` stage runs it) of its C++."""
    from mytriton.backends.cuda.compile import NVRTC_OPTIONS
    from mytriton.backends.mlir.toolkit import find_cuda_toolkit

    toolkit = find_cuda_toolkit()
    tools = toolkit.root / "bin" if toolkit else None
    nvcc = str(tools / "nvcc") if tools and (tools / "nvcc").exists() else shutil.which("nvcc")
    ptxas = str(toolkit.ptxas) if toolkit and toolkit.ptxas else shutil.which("ptxas")
    if nvcc is None or ptxas is None:
        raise SystemExit("the cuda backend's cubin needs nvcc and ptxas (a CUDA toolkit)")
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "kernel.cu"
        source.write_text(cuda)
        cmd = [nvcc, "-ptx", "-arch=compute_90a", *NVRTC_OPTIONS, str(source), "-o", base + ".ptx"]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
    cmd = [ptxas, "-arch=sm_90a", base + ".ptx", "-o", base + ".cubin"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return Path(base + ".cubin").read_bytes()


def compile_one(impl: str, name: str, outdir: str) -> None:
    """Compile spec ``name`` under ``impl`` (``triton`` or ``mytriton``, its backend from
    ``MYTRITON_BACKEND``); write its IR, PTX, cubin and ``.meta.json`` under ``outdir``."""
    spec = json.loads(SPECS_FILE.read_text())[name]
    if impl == "mytriton":
        import mytriton

        mytriton.install_as_triton()
        impl = f"mytriton-{os.environ.get('MYTRITON_BACKEND', 'cuda')}"
    start = time.perf_counter()
    warmup = impl != "triton" and "desc_shapes" in spec
    kernel = _compile_warmup(spec) if warmup else _compile_source(spec)
    seconds = time.perf_counter() - start
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, f"{name}.{impl}")
    asm = kernel.asm
    for key in ("ttgir", "ttg", "gpu", "cuda", "ptx"):
        if key in asm:
            text = asm[key]
            Path(base + "." + key).write_text(text if isinstance(text, str) else text.decode())
    if asm.get("cubin"):
        Path(base + ".cubin").write_bytes(asm["cubin"])
    else:
        _nvcc_cubin(asm["cuda"], base)
    metadata = getattr(kernel, "metadata", None)
    if isinstance(metadata, dict):
        shared = metadata.get("shared")
    else:
        shared = getattr(metadata, "shared", 0)
    found = re.search(r"shared_memory = (\d+) : i32", asm.get("gpu", ""))
    if not shared and found:  # mytriton: the lowered kernel's dynamic shared memory
        shared = int(found.group(1))
    meta = {"compile_s": round(seconds, 2), "dyn_shared": int(shared or 0)}
    Path(base + ".meta.json").write_text(json.dumps(meta))


# ---- statistics of a cubin -----------------------------------------------------------------

_INSN = re.compile(r"\s+/\*[0-9a-f]{4,5}\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)((?:\.[A-Z0-9_]+)*)")
_WIDTHS = (("128", ("128",)), ("64", ("64",)), ("16", ("U16", "S16")), ("8", ("U8", "S8")))
_BY_WIDTH = ("LDG", "STG", "LDS", "STS", "LDGSTS")


def access_width(modifiers: str) -> str:
    """The bits one memory instruction moves per thread, from its modifiers (``.E.128``)."""
    parts = modifiers.split(".")
    for width, tags in _WIDTHS:
        if any(t in parts for t in tags):
            return width
    return "32"


def sass_stats(sass: str) -> tuple[Counter[str], Counter[str]]:
    """Opcode counts and families (``LDG.128``, ``MUFU.EX2``, ``BAR.SYNC``) of ``sass``."""
    ops: Counter[str] = Counter()
    families: Counter[str] = Counter()
    for line in sass.splitlines():
        found = _INSN.match(line)
        if found is None:
            continue
        op, modifiers = found.group(1), found.group(2) or ""
        ops[op] += 1
        first = modifiers.split(".")[1] if modifiers else ""
        if op in _BY_WIDTH:
            families[f"{op}.{access_width(modifiers)}"] += 1
        elif op in ("MUFU", "BAR") and first:
            families[f"{op}.{first}"] += 1
    return ops, families


def cubin_stats(cuobjdump: str, base: str) -> dict[str, Any]:
    """Registers, local and shared memory (``-res-usage``) and SASS counts of ``base.cubin``,
    with the ``.meta.json`` the compiling process wrote."""
    cubin = base + ".cubin"
    sass = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True).stdout
    Path(base + ".sass").write_text(sass)
    res = subprocess.run([cuobjdump, "-res-usage", cubin], capture_output=True, text=True).stdout
    usage = dict(re.findall(r"(REG|STACK|SHARED|LOCAL):(\d+)", res))
    ops, families = sass_stats(sass)
    meta = json.loads(Path(base + ".meta.json").read_text())
    return {
        **meta,
        "regs": int(usage.get("REG", 0)),
        "local": int(usage.get("LOCAL", 0)),
        "static_shared": int(usage.get("SHARED", 0)),
        "n_sass": sum(ops.values()),
        "ops": dict(ops),
        "fam": dict(families),
    }


# ---- tables ----------------------------------------------------------------------------------


def _family(d: dict[str, Any], prefix: str) -> dict[str, int]:
    return {k.split(".", 1)[1]: v for k, v in d["fam"].items() if k.split(".")[0] == prefix}


def _widths(d: dict[str, Any], prefix: str) -> str:
    found = _family(d, prefix)
    cells = [f"{w}:{found[w]}" for w in ("128", "64", "32", "16", "8") if found.get(w)]
    return " ".join(cells) or "-"


def _op(d: dict[str, Any], *names: str) -> int:
    return sum(d["ops"].get(n, 0) for n in names)


def _shared(d: dict[str, Any]) -> int:
    return int(d["static_shared"] + d["dyn_shared"])


def programs_per_sm(d: dict[str, Any], warps: int) -> int:
    """Programs an SM holds at once: registers (a warp's in granules of 256), shared memory
    (the static part includes the 1 KiB the system keeps), 64 warps, 32 programs."""
    per_warp = -(-d["regs"] * 32 // 256) * 256
    by_regs = (SM_REGS // per_warp) // warps if per_warp else 32
    by_shared = SM_SHARED // _shared(d) if _shared(d) else 32
    return min(by_regs, by_shared, SM_WARPS // warps, 32)


METRICS: list[tuple[str, Any]] = [
    ("regs", lambda d: d["regs"]),
    ("local B (spills) / STL+LDL", lambda d: f"{d['local']} / {_op(d, 'STL', 'LDL')}"),
    ("shared B", _shared),
    ("LDG by bits", lambda d: _widths(d, "LDG")),
    ("STG by bits", lambda d: _widths(d, "STG")),
    ("LDGSTS (cp.async)", lambda d: _widths(d, "LDGSTS")),
    ("UTMALDG / UTMASTG", lambda d: f"{_op(d, 'UTMALDG')} / {_op(d, 'UTMASTG')}"),
    ("HGMMA / HMMA / LDSM", lambda d: f"{_op(d, 'HGMMA')} / {_op(d, 'HMMA')} / {_op(d, 'LDSM')}"),
    ("LDS by bits", lambda d: _widths(d, "LDS")),
    ("STS by bits", lambda d: _widths(d, "STS")),
    ("BAR / SHFL", lambda d: f"{_op(d, 'BAR')} / {_op(d, 'SHFL')}"),
    ("MUFU", lambda d: " ".join(f"{k}:{v}" for k, v in sorted(_family(d, "MUFU").items())) or "-"),
    ("FCHK / CALL", lambda d: f"{_op(d, 'FCHK')} / {_op(d, 'CALL')}"),
    ("BRA", lambda d: _op(d, "BRA")),
    ("SASS", lambda d: d["n_sass"]),
]


def _bytes_per_access(d: dict[str, Any], prefix: str) -> tuple[int, int]:
    found = _family(d, prefix)
    return sum(int(w) // 8 * n for w, n in found.items()), sum(found.values())


def flags(t: dict[str, Any], m: dict[str, Any]) -> list[str]:
    """What looks worse in mytriton's statistics ``m`` than in Triton's ``t``."""
    out = []
    for prefix in ("LDG", "STG"):
        (tb, tn), (mb, mn) = _bytes_per_access(t, prefix), _bytes_per_access(m, prefix)
        if mn and tn and mb / mn < 0.75 * tb / tn:
            out.append(f"narrower {prefix} ({mb / mn:.1f} B/insn vs {tb / tn:.1f})")
    if _op(t, "LDGSTS") and not _op(m, "LDGSTS", "UTMALDG"):
        out.append("no cp.async")
    if _op(t, "UTMALDG") and not _op(m, "UTMALDG"):
        out.append("no TMA load")
    if _op(t, "HGMMA") and not _op(m, "HGMMA"):
        out.append("no wgmma")
    if _op(m, "FCHK") > _op(t, "FCHK"):
        out.append(f"slow-path divisions (FCHK {_op(m, 'FCHK')} vs {_op(t, 'FCHK')})")
    if m["local"] > t["local"]:
        out.append(f"spills ({m['local']} B local vs {t['local']})")
    if _op(m, "BAR") > _op(t, "BAR") + 1:
        out.append(f"more BAR ({_op(m, 'BAR')} vs {_op(t, 'BAR')})")
    shared_t, shared_m = _op(t, "LDS", "STS"), _op(m, "LDS", "STS")
    if shared_m > 1.5 * shared_t + 4:
        out.append(f"more LDS/STS ({shared_m} vs {shared_t})")
    if m["regs"] > 1.25 * t["regs"] and m["regs"] > 64:
        out.append(f"regs {m['regs']} vs {t['regs']}")
    if _shared(m) > 1.25 * _shared(t) + 4096:
        out.append(f"shared {_shared(m)} B vs {_shared(t)}")
    if m["n_sass"] > 1.5 * t["n_sass"]:
        out.append(f"SASS x{m['n_sass'] / t['n_sass']:.2f}")
    return out


def kernel_table(name: str, spec: dict[str, Any], stats: dict[str, dict[str, Any]]) -> list[str]:
    """One kernel's markdown table (a column per implementation compiled) and its flags."""
    options = spec.get("options", {})
    warps, stages = options.get("num_warps", 4), options.get("num_stages", 3)
    lines = [f"`{name}`: `{spec['kernel']}` {spec['constexprs']}, warps {warps}, stages {stages}"]
    lines += ["", "| | " + " | ".join(stats) + " |", "|---" * (len(stats) + 1) + "|"]
    rows = [*METRICS, ("programs / SM", lambda d: programs_per_sm(d, warps))]
    for label, value in rows:
        lines.append(f"| {label} | " + " | ".join(str(value(d)) for d in stats.values()) + " |")
    lines.append("")
    for impl, d in stats.items():
        if impl != "triton" and "triton" in stats:
            lines.append(f"- {impl}: {'; '.join(flags(stats['triton'], d)) or 'nothing worse'}")
    return [*lines, ""]


# ---- the driver ------------------------------------------------------------------------------


def _compile_all(names: list[str], out: Path, triton_python: str | None) -> list[str]:
    """Compile every spec under every implementation, each in its own process; the failures."""
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    failed = []
    for name in names:
        runs = [("mytriton", sys.executable, b) for b in ("cuda", "mlir")]
        if triton_python:
            runs.insert(0, ("triton", triton_python, ""))
        for impl, python, backend in runs:
            label = impl if impl == "triton" else f"mytriton-{backend}"
            for stale in (".cubin", ".meta.json"):  # a failed compile leaves no old results
                Path(out / f"{name}.{label}{stale}").unlink(missing_ok=True)
            cmd = [python, str(Path(__file__)), "--compile", impl, name, str(out)]
            done = subprocess.run(cmd, env={**env, "MYTRITON_BACKEND": backend or "cuda"},
                                  capture_output=True, text=True)  # fmt: skip
            if done.returncode != 0:
                failed.append(f"{name} {label}: {(done.stderr or done.stdout).strip()[-400:]}")
    return failed


def _cuobjdump(arg: str | None, triton_python: str | None) -> str:
    """``--cuobjdump``, else the one on PATH, else the one Triton's package carries."""
    found = arg or shutil.which("cuobjdump")
    if found is None and triton_python:
        ask = "import os, triton; print(os.path.dirname(triton.__file__))"
        root = subprocess.run([triton_python, "-c", ask], capture_output=True, text=True)
        bundled = Path(root.stdout.strip()) / "backends" / "nvidia" / "bin" / "cuobjdump"
        found = str(bundled) if bundled.exists() else None
    if found is None:
        raise SystemExit("no cuobjdump: pass --cuobjdump or put a CUDA toolkit on PATH")
    return found


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="", help="comma-separated rows (default: every row)")
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "static_compare"))
    ap.add_argument("--triton-python", help="a Python with Triton 3.6 (else mytriton only)")
    ap.add_argument("--cuobjdump", help="cuobjdump (default: PATH, then Triton's)")
    ap.add_argument("--compile", nargs=3, metavar=("IMPL", "KERNEL", "OUT"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.compile:
        compile_one(*args.compile)
        return
    specs = json.loads(SPECS_FILE.read_text())
    rows = [r for r in args.rows.split(",") if r]
    unknown = sorted(set(rows) - {s["row"] for s in specs.values()})
    if unknown:
        ap.error(f"unknown rows {unknown}")
    names = [n for n, s in specs.items() if not rows or s["row"] in rows]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = _compile_all(names, out, args.triton_python)
    cuobjdump = _cuobjdump(args.cuobjdump, args.triton_python)
    lines = []
    for name in names:
        bases = {impl: str(out / f"{name}.{impl}") for impl in IMPLS}
        built = {i: b for i, b in bases.items() if Path(b + ".cubin").exists()}
        stats = {i: cubin_stats(cuobjdump, b) for i, b in built.items()}
        if stats:
            lines += kernel_table(name, specs[name], stats)
    lines += [f"FAILED {f}" for f in failed]
    (out / "static_compare.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
