"""Tensor-core matmul: Triton's tutorial kernel under mytriton (both GPU backends) and Triton 3.6,
with the same configs, beside torch (cuBLAS), on one GPU.

For each dtype (float16, bfloat16, float32 at Triton's default tf32 precision, float16acc:
f16 operands into an f16 accumulator, int8 into
int32, whose row counts TOPS and compares with ``torch._int_mm``, and float8_e4m3fn /
float8_e5m2 as tutorial 03 runs fp8: B transposed, K-contiguous, beside ``torch._scaled_mm``)
and size, every config in ``CONFIGS`` (fp8: ``FP8_CONFIGS``) runs under each implementation;
the row keeps each one's best config (Triton's autotuner would pick among the same ones).
Every config is compiled and checked first, then timed in ``ROUNDS`` rounds that interleave
the implementations (``interleaved_times``): timed one after the other, the later ones ran on
a warmer, slower GPU. Prints a JSON line per row and a table of TFLOP/s with mytriton's ratio
to Triton, and the SASS instruction families of mytriton's kernels (``cuobjdump
--dump-sass``: HGMMA, QGMMA (fp8), IGMMA, HMMA, IMMA, FFMA counts).

    python3 benchmarks/matmul_tc.py [--sizes 1024,2048,4096] [--dtypes float16,bfloat16,float32]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import bench_gpu, load_kernels, triton_cdiv  # noqa: E402  (beside this script)

# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages): tutorial 03's CUDA configs
# (those of 2 warps and 32-wide tiles left out: never the best at these sizes), and 128 x 128 x 64
# over 8 and over 4 warps (whole 64-element K atoms: warpgroup MMAs on sm_90)
#: timing rounds (``interleaved_times``): each (implementation, config)'s time is their median
ROUNDS = 2
CONFIGS = [
    (128, 256, 64, 8, 8, 3),
    (64, 256, 32, 8, 4, 4),
    (128, 128, 32, 8, 4, 4),
    (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4),
    (128, 128, 64, 8, 8, 3),
    (128, 128, 64, 8, 4, 4),
]
# tutorial 03's configs "good for fp8 inputs" (K tiles of 128 bytes), and its 64-wide ones
FP8_CONFIGS = [
    (128, 256, 128, 8, 8, 3),
    (256, 128, 128, 8, 8, 3),
    (256, 64, 128, 8, 4, 4),
    (64, 256, 128, 8, 4, 4),
    (128, 128, 128, 8, 4, 4),
    (128, 64, 64, 8, 4, 4),
    (64, 128, 64, 8, 4, 4),
]
FP8 = ("float8_e4m3fn", "float8_e5m2")
F16_ACC = "float16acc"  # f16 operands into an f16 accumulator (``out_dtype=tl.float16``)


MMA_FAMILIES = ("HGMMA", "QGMMA", "IGMMA", "HMMA", "IMMA", "FFMA")


def sass_families(cubin: bytes, families: tuple[str, ...] = MMA_FAMILIES) -> dict[str, int]:
    """How many instructions of each of ``families`` the cubin's SASS holds (by default HGMMA /
    QGMMA (fp8) / IGMMA (int8) warpgroup MMAs, HMMA / IMMA (int8 mma.sync) and FFMA)."""
    tool = shutil.which("cuobjdump") or "/usr/local/cuda/bin/cuobjdump"
    if not Path(tool).exists():
        return {}
    with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
        f.write(cubin)
        f.flush()
        out = subprocess.run(
            [tool, "--dump-sass", f.name], capture_output=True, text=True, timeout=120
        ).stdout
    counts = Counter(re.findall(rf"\b({'|'.join(families)})\b", out))
    return dict(counts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1024,2048,4096")
    ap.add_argument("--dtypes", default="float16,bfloat16,float32,int8")
    ap.add_argument("--out", default="")
    args = ap.parse_args()

    import torch
    import triton
    import triton.language as tl

    import mytriton
    import mytriton.language as my_tl

    mine = load_kernels("tc_mytriton", mytriton, my_tl)
    impls = {
        "triton": (load_kernels("tc_triton", triton, tl), None),
        "mytriton-cuda": (mine, "cuda"),
        "mytriton-mlir": (mine, "mlir"),
    }
    rows: list[dict[str, Any]] = []
    sass: dict[str, dict[str, int]] = {}
    for dname in args.dtypes.split(","):
        f16_acc = dname == F16_ACC  # f16 operands, out_dtype=tl.float16
        dtype = torch.float16 if f16_acc else getattr(torch, dname)
        integer = dname == "int8"
        for s in map(int, args.sizes.split(",")):
            fp8 = dname in FP8
            if integer:  # exact: the float64 reference holds every int32 sum
                a = torch.randint(-128, 128, (s, s), device="cuda", dtype=dtype)
                b = torch.randint(-128, 128, (s, s), device="cuda", dtype=dtype)
            elif fp8:  # tutorial 03: B = b.T, K-contiguous (fp8 MMAs read B K-major)
                a = torch.randn(s, s, device="cuda").to(dtype)
                b = torch.randn(s, s, device="cuda").to(dtype).T
            else:
                a = torch.randn(s, s, device="cuda").to(dtype)
                b = torch.randn(s, s, device="cuda").to(dtype)
            ref = a.double() @ b.double()
            # fp8: Hopper's fp8 MMAs add products into the accumulator with fewer bits than f32
            # (Triton's default too); at K = 8192 that is up to ~2 off the exact sums
            # f16 accumulators: Triton's round every 16 k (K / 16 roundings of ~64 at 4096)
            tol = 0.0 if integer else 2e-2 if dname == "float32" else 5e-2 if fp8 else 1e-2
            tol = 5e-2 if f16_acc else tol
            out_dtype = torch.int32 if integer else torch.float16 if f16_acc else torch.float32
            # every config of every implementation compiled and checked first; then timed in
            # rounds that interleave the implementations (each config's order rotates), so a
            # GPU that warms up through the run slows them alike
            launches: dict[str, dict[tuple[int, ...], Any]] = {impl: {} for impl in impls}
            for impl, (mod, backend) in impls.items():
                if backend is not None:
                    os.environ["MYTRITON_BACKEND"] = backend
                for cfg in FP8_CONFIGS if fp8 else CONFIGS:
                    bm, bn = cfg[:2]
                    c = torch.empty(s, s, device="cuda", dtype=out_dtype)
                    grid = (triton_cdiv(s, bm) * triton_cdiv(s, bn),)

                    def launch(mod: Any = mod, c: Any = c, grid: Any = grid, cfg: Any = cfg) -> Any:
                        bm, bn, bk, gm, warps, stages = cfg
                        acc = mod.tl.int32 if integer else mod.tl.float32
                        acc = mod.tl.float16 if f16_acc else acc
                        return mod.matmul_kernel[grid](
                            a, b, c, s, s, s,
                            a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1),
                            BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                            GROUP_SIZE_M=gm, INPUT_PRECISION="tf32", ACC_DTYPE=acc,
                            num_warps=warps, num_stages=stages,
                        )  # fmt: skip

                    try:
                        compiled = launch()
                        torch.cuda.synchronize()
                        torch.testing.assert_close(c.double(), ref, atol=tol * s**0.5, rtol=tol)
                    except Exception as e:  # a config that does not compile or is wrong
                        failed = {"impl": impl, "dtype": dname, "size": s, "config": cfg}
                        print(json.dumps({**failed, "error": str(e)[:300]}), flush=True)
                        continue
                    launches[impl][cfg] = (launch, compiled)
            times = interleaved_times(impls, launches, ROUNDS)
            for impl, (_mod, backend) in impls.items():
                mine_times = {cfg: t for (i, cfg), t in times.items() if i == impl}
                if not mine_times:
                    continue
                cfg = min(mine_times, key=lambda k: mine_times[k])
                ms = mine_times[cfg]
                compiled = launches[impl][cfg][1]
                if backend is not None and getattr(compiled, "asm", None):
                    cubin = compiled.asm.get("cubin")
                    if isinstance(cubin, bytes):
                        sass[f"{impl} {dname} {cfg}"] = sass_families(cubin)
                row = {"bench": "matmul_tc", "dtype": dname, "size": s, "impl": impl}
                row.update({"config": cfg, "ms": ms, "TFLOP/s": 2 * s**3 / ms / 1e9})
                rows.append(row)
                print(json.dumps(row), flush=True)
            torch.backends.cuda.matmul.allow_tf32 = dname == "float32"
            if integer:
                ms = bench_gpu(lambda a=a, b=b: torch._int_mm(a, b), warmup=3, rep=20)
            elif fp8:
                one = torch.ones((), device="cuda")
                try:
                    ms = bench_gpu(
                        lambda a=a, b=b: torch._scaled_mm(a, b, one, one, out_dtype=torch.float32),
                        warmup=3,
                        rep=20,
                    )
                except (RuntimeError, ValueError) as e:  # e5m2 x e5m2: cuBLAS has no such form
                    print(json.dumps({"impl": "torch", "dtype": dname, "error": str(e)[:200]}))
                    continue
            else:
                ms = bench_gpu(lambda a=a, b=b: a @ b, warmup=3, rep=20)
            row = {"bench": "matmul_tc", "dtype": dname, "size": s, "impl": "torch",
                   "ms": ms, "TFLOP/s": 2 * s**3 / ms / 1e9}  # fmt: skip
            rows.append(row)
            print(json.dumps(row), flush=True)

    print("\nTFLOP/s (best config each; vs Triton: mytriton's TFLOP/s over Triton's)")
    head = ("triton", "cuda", "x", "mlir", "x", "torch")
    print(f"{'dtype':<9} {'size':>5} " + " ".join(f"{h:>8}" for h in head))
    for dname in args.dtypes.split(","):
        for s in map(int, args.sizes.split(",")):
            got = {r["impl"]: r["TFLOP/s"] for r in rows if r["dtype"] == dname and r["size"] == s}
            print(f"{dname:<9} {s:>5} " + ratio_cells(got))
    report_sass_and_save(rows, sass, args.out)


def interleaved_times(
    impls: dict[str, tuple[Any, str | None]],
    launches: dict[str, dict[tuple[int, ...], Any]],
    rounds: int,
    timer: Any = None,
) -> dict[tuple[str, tuple[int, ...]], float]:
    """The median over ``rounds`` of each (implementation, config)'s time (``timer`` of its
    launch; ``bench_gpu`` by default), the implementations taking turns config by config, in
    an order that rotates with the config and the round. ``launches[impl][cfg]`` is a pair
    whose first item is the launch."""
    names = list(impls)
    samples: dict[tuple[str, tuple[int, ...]], list[float]] = {}
    configs = list(dict.fromkeys(cfg for found in launches.values() for cfg in found))
    for r in range(rounds):
        for j, cfg in enumerate(configs):
            k = (j + r) % len(names)
            for impl in names[k:] + names[:k]:
                if cfg not in launches[impl]:
                    continue
                backend = impls[impl][1]
                if backend is not None:
                    os.environ["MYTRITON_BACKEND"] = backend
                launch = launches[impl][cfg][0]
                took = timer(launch) if timer else bench_gpu(launch, warmup=3, rep=20)
                samples.setdefault((impl, cfg), []).append(took)
    return {key: statistics.median(ts) for key, ts in samples.items()}


def ratio_cells(got: dict[str, float]) -> str:
    """One table row's cells: Triton, each mytriton backend with its ratio to Triton, torch."""
    t = got.get("triton", float("nan"))
    cu, ml = got.get("mytriton-cuda", float("nan")), got.get("mytriton-mlir", float("nan"))
    cells = (t, cu, cu / t, ml, ml / t, got.get("torch", float("nan")))
    return " ".join(f"{v:>8.2f}" for v in cells)


def report_sass_and_save(
    rows: list[dict[str, Any]], sass: dict[str, dict[str, int]], out: str
) -> None:
    """Print the SASS families of mytriton's kernels; write rows and families to ``out``."""
    print("\nSASS instruction families of mytriton's best kernels:")
    for name, counts in sass.items():
        print(f"  {name}: {counts}")
    if out:
        Path(out).write_text(json.dumps({"rows": rows, "sass": sass}, indent=1))


if __name__ == "__main__":
    main()
