"""FlashAttention-style forward: one kernel source (``attention_src.py``) under mytriton (both GPU
backends) and Triton 3.6, with the same configs, beside torch's
``scaled_dot_product_attention``, on one GPU.

For each head dimension, context length and causal flag, every config in ``CONFIGS`` runs under
each implementation on f16 q, k, v of shape [BATCH, HEADS, N_CTX, HEAD_DIM]; the row keeps each
one's best config (Triton's autotuner would pick among the same ones). FLOPs count as Triton's
fused-attention tutorial does: 4 * BATCH * HEADS * N_CTX^2 * HEAD_DIM, halved when causal. Prints
a JSON line per row and a table of TFLOP/s with mytriton's ratio to Triton, and the SASS
instruction families of mytriton's kernels (``cuobjdump --dump-sass``: HGMMA, HMMA, FFMA counts).

    python3 benchmarks/attention.py [--ctx 1024,4096] [--dims 64,128] [--causal 0,1]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare import bench_gpu, load_kernels, triton_cdiv  # noqa: E402  (beside this script)
from matmul_tc import ratio_cells, report_sass_and_save, sass_families  # noqa: E402

BATCH, HEADS = 4, 16

# (BLOCK_M, BLOCK_N, num_warps), BLOCK_M a multiple of BLOCK_N (the causal diagonal blocks).
# mytriton gives each layout conversion and dot staging its own shared memory (up to 227 KiB a
# program, dynamic past 48 KiB); a config that does not fit fails to compile and is skipped.
# (128, 64, 8) is the tutorial's kind of config.
CONFIGS = [
    (64, 64, 4),
    (128, 32, 4),
    (128, 64, 8),
    (64, 32, 1),
    (32, 32, 8),
    (128, 128, 8),
    (128, 64, 4),
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ctx", default="1024,4096")
    ap.add_argument("--dims", default="64,128")
    ap.add_argument("--causal", default="0,1")
    ap.add_argument("--out", default="")
    args = ap.parse_args()

    import torch
    import triton
    import triton.language as tl
    from torch.nn.functional import scaled_dot_product_attention as sdpa

    import mytriton
    import mytriton.language as my_tl

    mine = load_kernels("attn_mytriton", mytriton, my_tl, "attention_src.py")
    impls = {
        "triton": (load_kernels("attn_triton", triton, tl, "attention_src.py"), None),
        "mytriton-cuda": (mine, "cuda"),
        "mytriton-mlir": (mine, "mlir"),
    }
    ctxs = [int(n) for n in args.ctx.split(",")]
    dims = [int(d) for d in args.dims.split(",")]
    causals = [bool(int(c)) for c in args.causal.split(",")]
    rows: list[dict[str, Any]] = []
    sass: dict[str, dict[str, int]] = {}
    torch.manual_seed(0)
    for d in dims:
        for n in ctxs:
            shape = (BATCH, HEADS, n, d)
            q, k, v = (torch.randn(shape, device="cuda", dtype=torch.float16) for _ in range(3))
            sm_scale = 1 / math.sqrt(d)
            for causal in causals:
                flops = 4 * BATCH * HEADS * n * n * d / (2 if causal else 1)
                ref = sdpa(q.float(), k.float(), v.float(), is_causal=causal, scale=sm_scale)
                case = {"head_dim": d, "ctx": n, "causal": causal}
                for impl, (mod, backend) in impls.items():
                    if backend is not None:
                        os.environ["MYTRITON_BACKEND"] = backend
                    best: tuple[float, tuple[int, ...]] | None = None
                    for cfg in CONFIGS:
                        bm = cfg[0]
                        o = torch.empty_like(q)
                        grid = (triton_cdiv(n, bm), BATCH * HEADS)

                        def launch(
                            mod: Any = mod, o: Any = o, grid: Any = grid, cfg: Any = cfg
                        ) -> Any:
                            bm, bn, warps = cfg
                            return mod.attn_fwd[grid](
                                q, k, v, o, sm_scale,
                                q.stride(0), q.stride(1), q.stride(2),
                                k.stride(0), k.stride(1), k.stride(2),
                                v.stride(0), v.stride(1), v.stride(2),
                                o.stride(0), o.stride(1), o.stride(2),
                                HEADS, n,
                                HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, CAUSAL=causal,
                                num_warps=warps,
                            )  # fmt: skip

                        try:
                            assert n % cfg[0] == 0 and cfg[0] % cfg[1] == 0, "blocks must tile"
                            compiled = launch()
                            torch.cuda.synchronize()
                            torch.testing.assert_close(o.float(), ref, atol=2e-2, rtol=2e-2)
                            ms = bench_gpu(launch, warmup=3, rep=20)
                        except Exception as e:  # a config that does not compile or is wrong
                            failed = {"impl": impl, **case, "config": cfg}
                            print(json.dumps({**failed, "error": str(e)[:300]}), flush=True)
                            continue
                        if best is None or ms < best[0]:
                            best = (ms, cfg)
                            if backend is not None and getattr(compiled, "asm", None):
                                cubin = compiled.asm.get("cubin")
                                if isinstance(cubin, bytes):
                                    key = f"{impl} d={d} ctx={n} causal={int(causal)} {cfg}"
                                    sass[key] = sass_families(cubin)
                    if best is None:
                        continue
                    ms, cfg = best
                    row = {"bench": "attention", **case, "impl": impl}
                    row.update({"config": cfg, "ms": ms, "TFLOP/s": flops / ms / 1e9})
                    rows.append(row)
                    print(json.dumps(row), flush=True)
                ms = bench_gpu(
                    lambda causal=causal: sdpa(q, k, v, is_causal=causal, scale=sm_scale),
                    warmup=3,
                    rep=20,
                )
                row = {"bench": "attention", **case, "impl": "torch",
                       "ms": ms, "TFLOP/s": flops / ms / 1e9}  # fmt: skip
                rows.append(row)
                print(json.dumps(row), flush=True)

    print("\nTFLOP/s (best config each; vs Triton: mytriton's TFLOP/s over Triton's)")
    head = ("triton", "cuda", "x", "mlir", "x", "torch")
    print(f"{'dim':>4} {'ctx':>5} {'causal':>6} " + " ".join(f"{h:>8}" for h in head))
    for d in dims:
        for n in ctxs:
            for causal in causals:
                got = {
                    r["impl"]: r["TFLOP/s"]
                    for r in rows
                    if r["head_dim"] == d and r["ctx"] == n and r["causal"] == causal
                }
                print(f"{d:>4} {n:>5} {int(causal):>6} " + ratio_cells(got))
    report_sass_and_save(rows, sass, args.out)


if __name__ == "__main__":
    main()
