"""Autotuning's compile time: the tutorial matmul's configs compiled one after the other
(``MYTRITON_AUTOTUNE_COMPILE_JOBS=1``) and at once in worker processes (the default), each in a
fresh process with an empty cache directory.

Without a GPU (or with ``--compile-only``) the arrays are NumPy's: the kernels compile as far as
the machine can take them (the cuda backend to CUDA C++, the mlir backend to a cubin where MLIR
and ptxas exist) and a stand-in ``do_bench`` launches each config once, so the time is the
compiles'. On a GPU the arrays are torch's and the configs are timed by ``do_bench`` as usual.

    python benchmarks/autotune_compile.py [--backend cuda] [--configs 8] [--jobs 0,1]
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

#: (BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages), the tutorial's kind of list
CONFIGS = [
    (128, 256, 64, 8, 3),
    (64, 256, 32, 4, 4),
    (128, 128, 32, 4, 4),
    (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4),
    (128, 32, 32, 4, 4),
    (64, 32, 32, 2, 5),
    (32, 64, 32, 2, 5),
    (128, 128, 64, 4, 4),
    (64, 64, 32, 4, 4),
    (256, 128, 64, 8, 3),
    (64, 64, 64, 4, 3),
    (32, 32, 32, 2, 4),
    (128, 64, 64, 4, 4),
    (64, 128, 64, 4, 4),
    (256, 64, 64, 8, 3),
]


def one(configs: int, compile_only: bool) -> float:
    """Seconds of the autotuned matmul's first call, in this process."""
    sys.path.insert(0, str(HERE))
    from compare import load_kernels  # beside this script

    import mytriton
    import mytriton.language as tl

    kernels = load_kernels("ac_mytriton", mytriton, tl)
    tuned_configs = [
        mytriton.Config(
            {"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": 8},
            num_warps=w,
            num_stages=s,
        )
        for m, n, k, w, s in CONFIGS[:configs]
    ]
    size = 4096
    bench: Any = None
    if compile_only:
        import warnings

        import numpy as np

        warnings.simplefilter("ignore")  # compile-only launches say so
        a = np.zeros((size, size), np.float16)
        c = np.zeros((size, size), np.float16)

        def bench(fn: Any, quantiles: Any = None) -> list[float]:
            fn()
            return [1.0] * 3
    else:
        import torch

        a = torch.randn((size, size), device="cuda", dtype=torch.float16)
        c = torch.empty((size, size), device="cuda", dtype=torch.float16)
    tuner = mytriton.autotune(tuned_configs, key=["M", "N", "K"], do_bench=bench)(
        kernels.matmul_kernel
    )

    def grid(meta: dict[str, Any]) -> tuple[int]:
        blocks_m = mytriton.cdiv(size, meta["BLOCK_SIZE_M"])
        return (blocks_m * mytriton.cdiv(size, meta["BLOCK_SIZE_N"]),)

    start = time.perf_counter()
    tuner[grid](a, a, c, size, size, size, size, 1, size, 1, size, 1, INPUT_PRECISION="tf32")
    if not compile_only:
        torch.cuda.synchronize()
    return time.perf_counter() - start


def measure(backend: str, configs: int, jobs: int, compile_only: bool) -> float:
    """``one`` in a fresh process with an empty cache (jobs 0: the default)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, MYTRITON_BACKEND=backend, MYTRITON_CACHE_DIR=cache)
        env.pop("MYTRITON_AUTOTUNE_COMPILE_JOBS", None)
        if jobs:
            env["MYTRITON_AUTOTUNE_COMPILE_JOBS"] = str(jobs)
        command = [sys.executable, __file__, "--one", str(configs)]
        if compile_only:
            command.append("--compile-only")
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        return float(json.loads(out.stdout.splitlines()[-1])["seconds"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="cuda", choices=("cuda", "mlir"))
    ap.add_argument("--configs", type=int, default=8)
    ap.add_argument("--jobs", default="1,0", help="compile jobs to compare (0: the default)")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each; the best is kept")
    ap.add_argument("--compile-only", action="store_true")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    compile_only = args.compile_only
    if not compile_only:
        try:
            import torch

            compile_only = not torch.cuda.is_available()
        except ImportError:
            compile_only = True
    if args.one is not None:
        print(json.dumps({"seconds": one(args.one, compile_only)}))
        return
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    mode = "compile-only" if compile_only else "GPU"
    print(f"{args.configs} matmul configs, {args.backend} backend, {mode}, {cores} cores")
    for jobs in (int(j) for j in args.jobs.split(",")):
        times = [
            measure(args.backend, args.configs, jobs, compile_only) for _ in range(args.repeat)
        ]
        label = "default" if jobs == 0 else str(jobs)
        runs = ", ".join(f"{t:.2f}" for t in times)
        print(f"  jobs {label:>7}: {min(times):6.2f} s  (runs: {runs})")


if __name__ == "__main__":
    main()
