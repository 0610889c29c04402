"""Cold compile and warm disk-cache times per kernel, mytriton beside Triton.

Each measurement is a fresh process (``python3 compile_times.py --one IMPL KERNEL``) that times
the first launch of one tutorial kernel, synchronised, after the imports and the inputs are
made: first with an empty cache directory (a cold compile), then in a second process with the
same directory (the kernel comes from the disk cache). Triton's cache is ``TRITON_CACHE_DIR``,
mytriton's ``MYTRITON_CACHE_DIR``.

    python3 benchmarks/compile_times.py [--out compile_times.json]
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


def first_launch_ms(impl: str, kernel: str) -> float:
    """Milliseconds of the first launch of ``kernel`` in this process (compile + load + run)."""
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
    if kernel == "add":
        x, y = torch.rand(4096, device=dev), torch.rand(4096, device=dev)
        out = torch.empty_like(x)

        def launch() -> None:
            mod.add_kernel[(4,)](x, y, out, 4096, BLOCK_SIZE=1024)

    elif kernel == "softmax":
        x = torch.rand(64, 1000, device=dev)
        out = torch.empty_like(x)

        def launch() -> None:
            mod.softmax_kernel[(64,)](out, x, 1000, 1000, 64, 1000, BLOCK_SIZE=1024, num_warps=4)

    elif kernel == "layernorm":
        x = torch.rand(64, 1000, device=dev)
        out = torch.empty_like(x)

        def launch() -> None:
            mod.layer_norm_kernel[(64,)](x, out, 1000, 1e-5, BLOCK_SIZE=1024, num_warps=4)

    else:
        s = 512
        a, b = torch.rand(s, s, device=dev), torch.rand(s, s, device=dev)
        c = torch.empty(s, s, device=dev)

        def launch() -> None:
            mod.matmul_kernel[((s // 64) * (s // 64),)](
                a, b, c, s, s, s, s, 1, s, 1, s, 1,
                BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=32, GROUP_SIZE_M=8,
                INPUT_PRECISION="tf32", num_warps=4,
            )  # fmt: skip

    torch.cuda.synchronize()
    t = time.perf_counter()
    launch()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) * 1e3


def measure(impl: str, kernel: str, cache: str) -> dict[str, Any]:
    """Cold then warm first-launch times of ``kernel`` under ``impl``, each in a new process."""
    env = dict(os.environ, TRITON_CACHE_DIR=cache, MYTRITON_CACHE_DIR=cache)
    env.pop("MYTRITON_ALWAYS_COMPILE", None)
    env.pop("TRITON_ALWAYS_COMPILE", None)
    row: dict[str, Any] = {"bench": "compile", "impl": impl, "case": kernel}
    for phase in ("cold_ms", "warm_disk_ms"):
        proc = subprocess.run(
            [sys.executable, __file__, "--one", impl, kernel],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if proc.returncode != 0:
            row["error"] = proc.stderr.strip().splitlines()[-1:]
            break
        row[phase] = round(float(proc.stdout.strip().splitlines()[-1]), 2)
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="")
    ap.add_argument("--one", nargs=2, metavar=("IMPL", "KERNEL"))
    args = ap.parse_args()
    if args.one:
        print(first_launch_ms(*args.one))
        return
    rows = []
    for kernel in KERNELS:
        for impl in IMPLS:
            with tempfile.TemporaryDirectory() as cache:
                row = measure(impl, kernel, cache)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"\n{'kernel':<10} {'impl':<14} {'cold ms':>9} {'warm disk ms':>13}")
    for r in rows:
        if "error" in r:
            print(f"{r['case']:<10} {r['impl']:<14} {r['error']}")
        else:
            cold, warm = r["cold_ms"], r["warm_disk_ms"]
            print(f"{r['case']:<10} {r['impl']:<14} {cold:>9.1f} {warm:>13.1f}")
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
