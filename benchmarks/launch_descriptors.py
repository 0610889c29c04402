"""Host time of a launch with host tensor descriptors: tutorial 09's TMA matmul
(``matmul_tma_src.py``, 128 x 256 x 64 over 8 warps) under Triton 3.6 and mytriton (both GPU
backends). Prints the host microseconds per launch of a 256^3 problem (the kernel is shorter
than the launch) and, at 4096^3, the kernel's time per call from an idle GPU (``bench_gpu``:
the launch's host time counts) and with calls back to back (``bench_gpu_batched``).

    python3 benchmarks/launch_descriptors.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import bench_gpu, bench_gpu_batched, bench_host, load_kernels  # noqa: E402

CONFIG = (128, 256, 64, 8, 8, 3)  # BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages


def main() -> None:
    import torch
    import triton
    import triton.language as tl
    from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor

    import mytriton
    import mytriton.language as my_tl
    from mytriton.tools.tensor_descriptor import TensorDescriptor as MyDescriptor

    mine = load_kernels("tma_mytriton", mytriton, my_tl, "matmul_tma_src.py")
    theirs = load_kernels("tma_triton", triton, tl, "matmul_tma_src.py")
    impls = [
        ("triton", theirs, TritonDescriptor, None),
        ("cuda", mine, MyDescriptor, "cuda"),
        ("mlir", mine, MyDescriptor, "mlir"),
    ]
    bm, bn, bk, gm, warps, stages = CONFIG
    for name, mod, desc, backend in impls:
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        for s in (256, 4096):
            a = torch.randn(s, s, device="cuda").half()
            b = torch.randn(s, s, device="cuda").half()
            c = torch.empty(s, s, device="cuda").half()
            descs = (
                desc.from_tensor(a, [bm, bk]),
                desc.from_tensor(b, [bk, bn]),
                desc.from_tensor(c, [bm, bn]),
            )
            grid = (triton.cdiv(s, bm) * triton.cdiv(s, bn),)

            def launch(mod: Any = mod, descs: Any = descs, grid: Any = grid, s: int = s) -> Any:
                return mod.matmul_kernel_tma[grid](
                    *descs, s, s, s,
                    BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                    num_warps=warps, num_stages=stages,
                )  # fmt: skip

            launch()
            torch.cuda.synchronize()
            if s == 256:
                print(f"{name:6} host us/launch (256^3): {bench_host(launch, n=1000):.1f}")
                continue
            per_call = bench_gpu(launch, warmup=3, rep=20)
            batched = bench_gpu_batched(launch)
            flops = 2 * s**3 / 1e9
            print(
                f"{name:6} 4096 per-call {per_call * 1e3:.1f} us ({flops / per_call:.0f} "
                f"TFLOP/s), batched {batched * 1e3:.1f} us ({flops / batched:.0f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
