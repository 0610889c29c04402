"""Cold compile and warm disk-cache times per kernel, mytriton beside Triton.

Each measurement is a fresh process (``python3 compile_times.py --one IMPL KERNEL``) that, after
the imports, the inputs and the CUDA context are made, times ``kernel.warmup(...)`` (compiling,
or reading the disk cache: the kernel without launching it) and then the first launch
(loading the binary on the device and running it, synchronised): first with an empty cache
directory (a cold compile), then in a second process with the same directory (the kernel
comes from the disk cache). Triton's cache is ``TRITON_CACHE_DIR``, mytriton's
``MYTRITON_CACHE_DIR``. mytriton's modules are byte-compiled first, as ``pip install`` leaves
them: a checkout run with ``PYTHONDONTWRITEBYTECODE`` would otherwise compile the modules a
warm process imports from source every time, and time that instead of the cache.

    python3 benchmarks/compile_times.py [--out compile_times.json]
    python3 benchmarks/compile_times.py --profile mytriton-cuda matmul   # where a warm one goes
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
KERNELS = ("add", "softmax", "layernorm", "matmul")
IMPLS = ("triton", "mytriton-cuda", "mytriton-mlir")


def first_launch_ms(impl: str, kernel: str, profile: bool = False) -> dict[str, float]:
    """Milliseconds of ``warmup`` (compile or disk) and of the first launch of ``kernel``."""
    import torch

    sys.path.insert(0, str(HERE))
    from compare import load_kernels  # beside this script

    if impl == "triton":
        import triton
        import triton.language as tl

        mod = load_kernels("ct_triton", triton, tl)
    else:
        os.environ["MYTRITON_BACKEND"] = impl.split("-", 1)[1]
        import mytriton
        import mytriton.language as my_tl

        mod = load_kernels("ct_mytriton", mytriton, my_tl)
    dev = "cuda"
    torch.cuda.init()
    torch.zeros(1, device=dev)  # the CUDA context exists before anything is timed
    if impl != "triton":
        import cupy

        cupy.zeros(1)
    if kernel == "add":
        x, y = torch.rand(4096, device=dev), torch.rand(4096, device=dev)
        fn, grid, args = mod.add_kernel, (4,), (x, y, torch.empty_like(x), 4096)
        kw: dict[str, Any] = {"BLOCK_SIZE": 1024}
    elif kernel == "softmax":
        x = torch.rand(64, 1000, device=dev)
        fn, grid, args = mod.softmax_kernel, (64,), (torch.empty_like(x), x, 1000, 1000, 64, 1000)
        kw = {"BLOCK_SIZE": 1024, "num_warps": 4}
    elif kernel == "layernorm":
        x = torch.rand(64, 1000, device=dev)
        fn, grid, args = mod.layer_norm_kernel, (64,), (x, torch.empty_like(x), 1000, 1e-5)
        kw = {"BLOCK_SIZE": 1024, "num_warps": 4}
    else:
        s = 512
        a, b = torch.rand(s, s, device=dev), torch.rand(s, s, device=dev)
        fn, grid = mod.matmul_kernel, ((s // 64) * (s // 64),)
        args = (a, b, torch.empty(s, s, device=dev), s, s, s, s, 1, s, 1, s, 1)
        kw = {
            "BLOCK_SIZE_M": 64,
            "BLOCK_SIZE_N": 64,
            "BLOCK_SIZE_K": 32,
            "GROUP_SIZE_M": 8,
            "INPUT_PRECISION": "ieee",
            "num_warps": 4,
        }
    torch.cuda.synchronize()
    t = time.perf_counter()
    if profile:  # where the time of a warmup goes, by function (cProfile inflates it)
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            fn.warmup(*args, grid=grid, **kw)
        pstats.Stats(prof, stream=sys.stderr).sort_stats("cumtime").print_stats(40)
    else:
        fn.warmup(*args, grid=grid, **kw)
    warmup = time.perf_counter() - t
    t = time.perf_counter()
    fn[grid](*args, **kw)
    torch.cuda.synchronize()
    launch = time.perf_counter() - t
    return {"warmup_ms": warmup * 1e3, "launch_ms": launch * 1e3}


def measure(impl: str, kernel: str, cache: str, profile: bool = False) -> dict[str, Any]:
    """Cold then warm times of ``kernel`` under ``impl``, each phase in a new process (the warm
    one profiled when ``profile``: its table is printed)."""
    env = dict(os.environ, TRITON_CACHE_DIR=cache, MYTRITON_CACHE_DIR=cache)
    env.pop("MYTRITON_ALWAYS_COMPILE", None)
    env.pop("TRITON_ALWAYS_COMPILE", None)
    row: dict[str, Any] = {"bench": "compile", "impl": impl, "case": kernel}
    for phase in ("cold", "warm_disk"):
        flags = ["--profiled"] if profile and phase == "warm_disk" else []
        proc = subprocess.run(
            [sys.executable, __file__, "--one", impl, kernel, *flags],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode != 0:
            row["error"] = proc.stderr.strip().splitlines()[-1:]
            break
        if flags:
            print(proc.stderr)
        for what, ms in json.loads(proc.stdout.strip().splitlines()[-1]).items():
            row[f"{phase}_{what}"] = round(ms, 2)
    return row


def byte_compile_mytriton() -> None:
    """Write mytriton's ``.pyc`` files, as ``pip install`` does (see the module doc)."""
    import compileall

    import mytriton

    compileall.compile_dir(str(Path(mytriton.__file__).parent), quiet=1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="")
    ap.add_argument("--one", nargs=2, metavar=("IMPL", "KERNEL"))
    ap.add_argument("--profiled", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument(
        "--profile", nargs=2, metavar=("IMPL", "KERNEL"), help="profile a warm disk-cache hit"
    )
    ap.add_argument("--kernels", default=",".join(KERNELS), help="comma-separated")
    ap.add_argument("--impls", default=",".join(IMPLS), help="comma-separated")
    args = ap.parse_args()
    if args.one:
        print(json.dumps(first_launch_ms(*args.one, profile=args.profiled)))
        return
    byte_compile_mytriton()
    if args.profile:
        with tempfile.TemporaryDirectory() as cache:
            print(json.dumps(measure(*args.profile, cache, profile=True)))
        return
    rows = []
    for kernel in args.kernels.split(","):
        for impl in args.impls.split(","):
            with tempfile.TemporaryDirectory() as cache:
                row = measure(impl, kernel, cache)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("\nms: warmup = compile or disk cache; 1st launch = load on the device and run")
    head = ("kernel", "impl", "cold warmup", "cold 1st launch", "disk warmup", "disk 1st launch")
    print(f"{head[0]:<10} {head[1]:<14} " + " ".join(f"{h:>15}" for h in head[2:]))
    for r in rows:
        if "error" in r:
            print(f"{r['case']:<10} {r['impl']:<14} {r['error']}")
            continue
        keys = ("cold_warmup_ms", "cold_launch_ms", "warm_disk_warmup_ms", "warm_disk_launch_ms")
        cells = " ".join(f"{r[k]:>15.1f}" for k in keys)
        print(f"{r['case']:<10} {r['impl']:<14} {cells}")
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
