"""TMA matmul: tutorial 09's ``matmul_kernel_tma`` (host tensor descriptors; B ``[K, N]``) under
mytriton (both GPU backends) and Triton 3.6, the same configs, beside torch (cuBLAS), f16;
``--descriptors device``: the same kernel with its descriptors made in the kernel
(``matmul_kernel_device_tma``, whose tensor maps are written on the device).

Each implementation's best config per size is kept. Prints a JSON line per row, a table of
TFLOP/s with mytriton's ratio to Triton, and the SASS instruction families of mytriton's best
kernels (``UTMALDG``: TMA loads; ``HGMMA``: warpgroup MMAs; ``LDGSTS``: ``cp.async``). Every
config is compiled and checked first, then the implementations are timed interleaved
(``matmul_tc.interleaved_times``: a GPU warming through the run slows them alike). Each
call is timed from an idle GPU (``compare.bench_gpu``: the host's time to launch counts); a
second table times the best configs' calls back to back (``bench_gpu_batched``: the kernels'
own time), whose difference is the launch's host time.

    python3 benchmarks/matmul_tma.py [--sizes 2048,4096,8192] [--descriptors host|device]
        [--out results.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import (  # noqa: E402  (beside this script)
    bench_gpu,
    bench_gpu_batched,
    load_kernels,
    triton_cdiv,
)
from matmul_tc import ROUNDS, interleaved_times, ratio_cells, sass_families  # noqa: E402

# TMA loads, warpgroup MMAs, cp.async copies, mbarrier operations
FAMILIES = ("UTMALDG", "HGMMA", "LDGSTS", "SYNCS")
# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages): tutorial 09's configs for f16
CONFIGS = [
    (128, 256, 64, 8, 8, 3),
    (128, 128, 64, 8, 8, 3),
    (128, 128, 64, 8, 4, 4),
    (128, 256, 64, 8, 8, 4),
    (64, 256, 64, 8, 4, 4),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="2048,4096,8192")
    ap.add_argument("--out", default="")
    ap.add_argument(
        "--descriptors",
        choices=("host", "device"),
        default="host",
        help="descriptors made on the host (matmul_kernel_tma) or in the kernel "
        "(matmul_kernel_device_tma: tensor maps written on the device)",
    )
    args = ap.parse_args()
    device = args.descriptors == "device"

    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor

    import mytriton
    import mytriton.language as my_tl
    from mytriton.tools.tensor_descriptor import TensorDescriptor as MyDescriptor

    mine = load_kernels("tma_mytriton", mytriton, my_tl, "matmul_tma_src.py")
    if device:  # the global scratch of the maps both write, as tutorial 09 allocates it

        def alloc(size: int, alignment: int, stream: Any) -> Any:
            return torch.empty(size, device="cuda", dtype=torch.int8)

        triton.set_allocator(alloc)
        mytriton.set_allocator(alloc)
    impls = {
        "triton": (load_kernels("tma_triton", triton, tl, "matmul_tma_src.py"), None),
        "mytriton-cuda": (mine, "cuda"),
        "mytriton-mlir": (mine, "mlir"),
    }
    rows: list[dict[str, Any]] = []
    sass: dict[str, dict[str, int]] = {}
    for s in map(int, args.sizes.split(",")):
        a = torch.randn(s, s, device="cuda").to(torch.float16)
        b = torch.randn(s, s, device="cuda").to(torch.float16)
        ref = (a.double() @ b.double()).to(torch.float16)
        # every config compiled and checked first, then timed interleaved (``matmul_tc``)
        launches: dict[str, dict[tuple[int, ...], Any]] = {impl: {} for impl in impls}
        for impl, (mod, backend) in impls.items():
            desc = TritonDescriptor if backend is None else MyDescriptor
            if backend is not None:
                os.environ["MYTRITON_BACKEND"] = backend
            for cfg in CONFIGS:
                bm, bn, bk = cfg[:3]
                c = torch.empty(s, s, device="cuda", dtype=torch.float16)
                descs: tuple[Any, ...] = (a, b, c)
                if not device:
                    descs = (
                        desc.from_tensor(a, [bm, bk]),
                        desc.from_tensor(b, [bk, bn]),
                        desc.from_tensor(c, [bm, bn]),
                    )
                grid = (triton_cdiv(s, bm) * triton_cdiv(s, bn),)
                kernel = mod.matmul_kernel_device_tma if device else mod.matmul_kernel_tma

                def launch(
                    kernel: Any = kernel, descs: Any = descs, grid: Any = grid, cfg: Any = cfg
                ):
                    bm, bn, bk, gm, warps, stages = cfg
                    return kernel[grid](
                        *descs, s, s, s,
                        BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                        num_warps=warps, num_stages=stages,
                    )  # fmt: skip

                try:
                    compiled = launch()
                    torch.cuda.synchronize()
                    torch.testing.assert_close(
                        c.double(), ref.double(), atol=0.05 * s**0.5, rtol=1e-2
                    )
                except Exception as e:  # a config that does not compile or is wrong
                    failed = {"impl": impl, "size": s, "config": cfg, "error": str(e)[:300]}
                    print(json.dumps(failed), flush=True)
                    continue
                launches[impl][cfg] = (launch, compiled)
        times = interleaved_times(impls, launches, ROUNDS)
        bests: dict[str, dict[tuple[int, ...], Any]] = {}
        for impl in impls:
            mine_times = {cfg: t for (i, cfg), t in times.items() if i == impl}
            if mine_times:
                cfg = min(mine_times, key=lambda k: mine_times[k])
                bests[impl] = {cfg: launches[impl][cfg]}
        batched = interleaved_times(impls, bests, ROUNDS, bench_gpu_batched)
        for impl, (_mod, backend) in impls.items():
            if impl not in bests:
                continue
            ((cfg, (_launch, compiled)),) = bests[impl].items()
            ms, ms_batched = times[(impl, cfg)], batched[(impl, cfg)]
            if backend is not None and getattr(compiled, "asm", None):
                cubin = compiled.asm.get("cubin")
                if isinstance(cubin, bytes):
                    sass[f"{impl} {s} {cfg}"] = sass_families(cubin, FAMILIES)
            row = {"bench": "matmul_tma", "dtype": "float16", "size": s, "impl": impl}
            row["descriptors"] = args.descriptors
            row.update({"config": cfg, "ms": ms, "TFLOP/s": 2 * s**3 / ms / 1e9})
            row.update({"ms batched": ms_batched, "TFLOP/s batched": 2 * s**3 / ms_batched / 1e9})
            rows.append(row)
            print(json.dumps(row), flush=True)
        ms = bench_gpu(lambda a=a, b=b: a @ b, warmup=3, rep=20)
        batched = bench_gpu_batched(lambda a=a, b=b: a @ b)
        row = {"bench": "matmul_tma", "dtype": "float16", "size": s, "impl": "torch",
               "ms": ms, "TFLOP/s": 2 * s**3 / ms / 1e9,
               "ms batched": batched, "TFLOP/s batched": 2 * s**3 / batched / 1e9}  # fmt: skip
        rows.append(row)
        print(json.dumps(row), flush=True)

    for key, what in (("TFLOP/s", "each call from an idle GPU"), ("TFLOP/s batched", "batched")):
        print(f"\nTFLOP/s, {what} (best config each; vs Triton: mytriton's over Triton's)")
        head = ("triton", "cuda", "x", "mlir", "x", "torch")
        print(f"{'size':>5} " + " ".join(f"{h:>8}" for h in head))
        for s in map(int, args.sizes.split(",")):
            got = {r["impl"]: r[key] for r in rows if r["size"] == s}
            print(f"{s:>5} " + ratio_cells(got))
    print("\nSASS of mytriton's best kernels:")
    for k, v in sass.items():
        print(f"  {k}: {v}")
    if args.out:
        Path(args.out).write_text(json.dumps({"rows": rows, "sass": sass}, indent=1))


if __name__ == "__main__":
    main()
