"""mytriton (CUDA C++ and MLIR backends) side by side with Triton and torch, on one GPU.

The same kernel source (``kernels_src.py``) is imported under real Triton and under mytriton.
Add, softmax and layer norm run on float32, float16 and bfloat16 arrays (``--dtypes``); GB/s
counts the bytes each kernel must move at that element size. Prints a JSON line per row, then a
table with each mytriton backend's speed relative to Triton (``vs_triton``: Triton's time over
mytriton's, > 1 is faster), and writes the rows as JSON (``--out``). Times are medians of
CUDA-event timings.

    python benchmarks/compare.py --out results.json [--quick] [--dtypes float16,bfloat16]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def load_kernels(
    name: str, triton_mod: ModuleType, tl_mod: ModuleType, source: str = "kernels_src.py"
) -> ModuleType:
    """Import ``source`` (beside this script) with ``triton``/``triton.language`` bound to the
    given modules."""
    saved = {k: sys.modules.get(k) for k in ("triton", "triton.language")}
    sys.modules["triton"], sys.modules["triton.language"] = triton_mod, tl_mod
    try:
        spec = importlib.util.spec_from_file_location(name, HERE / source)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v


def bench_gpu(fn: Callable[[], Any], warmup: int = 10, rep: int = 50) -> float:
    """Median GPU time of ``fn`` in milliseconds (CUDA events around each call)."""
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rep):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        times.append(s.elapsed_time(e))
    return statistics.median(times)


def bench_gpu_flushed(
    fn: Callable[[], Any],
    warmup: int = 3,
    rep: int | None = None,
    flush_bytes: int = 256 << 20,
    budget_ms: float = 400.0,
) -> float:
    """Median GPU time of ``fn`` in milliseconds as a user's GPU sees one call: the L2 flushed
    before each call (a ``flush_bytes`` buffer zeroed, as ``triton.testing.do_bench`` does),
    CUDA events right around the call. The zeroing runs while the host launches ``fn``, so the
    host's launch time stays hidden (``bench_gpu`` times each call from an idle GPU). ``rep``
    calls, by default as many as fit ``budget_ms`` (10 to 100)."""
    import torch

    cache = torch.empty(flush_bytes, dtype=torch.int8, device="cuda")
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    if rep is None:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(3):
            fn()
        e.record()
        torch.cuda.synchronize()
        rep = int(min(100, max(10, budget_ms / max(s.elapsed_time(e) / 3, 1e-3))))
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(rep)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(rep)]
    for i in range(rep):
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends, strict=True))


def bench_gpu_batched(fn: Callable[[], Any], warmup: int = 3, n: int = 20) -> float:
    """GPU time of ``fn`` in milliseconds, CUDA events around ``n`` calls made back to back:
    the kernel's own time where it outlasts the host's launch (``bench_gpu`` times each call
    from an idle GPU, so the host's time to launch counts too)."""
    import torch

    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    s.record()
    for _ in range(n):
        fn()
    e.record()
    torch.cuda.synchronize()
    return s.elapsed_time(e) / n


def bench_host(fn: Callable[[], Any], n: int = 2000) -> float:
    """Host time per call in microseconds (launch overhead: tiny kernels, no sync inside)."""
    import torch

    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    elapsed = time.perf_counter() - t
    torch.cuda.synchronize()
    return elapsed / n * 1e6


DTYPES = ("float32", "float16", "bfloat16")


def tolerance(dtype: Any, atol: float, rtol: float) -> dict[str, float]:
    """``assert_close`` tolerances: the f32 ones, ``rtol`` widened to the dtype's epsilon
    (twice the rounding of a result computed in f32 and stored in f16/bf16)."""
    import torch

    return {"atol": atol, "rtol": max(rtol, torch.finfo(dtype).eps)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument(
        "--dtypes",
        default=",".join(DTYPES),
        help="comma-separated element types of add, softmax and layer norm "
        f"(default: {','.join(DTYPES)}); matmul and launch stay float32",
    )
    args = ap.parse_args()
    dtype_names = [d.strip() for d in args.dtypes.split(",") if d.strip()]
    unknown = sorted(set(dtype_names) - set(DTYPES))
    if unknown or not dtype_names:
        ap.error(f"--dtypes: {unknown or 'none given'}; choose among {', '.join(DTYPES)}")

    import torch
    import triton as real_triton
    import triton.language as real_tl
    from report import add_speed_vs_triton, format_table  # beside this script

    import mytriton
    import mytriton.language as my_tl

    tri = load_kernels("kernels_triton", real_triton, real_tl)
    myk = load_kernels("kernels_mytriton", mytriton, my_tl)
    impls: dict[str, tuple[ModuleType, str | None]] = {"triton": (tri, None)}
    for backend_name in ("cuda", "mlir"):
        impls[f"mytriton-{backend_name}"] = (myk, backend_name)

    rows: list[dict[str, Any]] = []
    dev = "cuda"
    torch.manual_seed(0)
    dtypes = [getattr(torch, name) for name in dtype_names]

    def emit(row: dict[str, Any]) -> None:
        rows.append(row)
        print(json.dumps(row), flush=True)

    def run(
        name: str,
        case: str,
        dtype: str,
        impl: str,
        backend: str | None,
        fn: Callable[[], Any],
        check: Callable[[], None],
        bytes_moved: float = 0.0,
        flops: float = 0.0,
    ) -> None:
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        row: dict[str, Any] = {"bench": name, "case": case, "dtype": dtype, "impl": impl}
        try:
            fn()
            check()
            ms = bench_gpu(fn)
            row["ms"] = ms
            if bytes_moved:
                row["GB/s"] = bytes_moved / ms / 1e6
            if flops:
                row["TFLOP/s"] = flops / ms / 1e9
        except Exception as e:  # report and continue: one failure must not hide the others
            row["error"] = f"{type(e).__name__}: {e}"[:400]
        emit(row)

    def run_torch(name: str, case: str, dtype: str, fn: Callable[[], Any], nbytes: float) -> None:
        ms = bench_gpu(fn)
        emit(
            {
                "bench": name,
                "case": case,
                "dtype": dtype,
                "impl": "torch",
                "ms": ms,
                "GB/s": nbytes / ms / 1e6,
            }
        )

    def close(out: Any, ref: Any, tol: dict[str, float]) -> Callable[[], None]:
        """The check of one launch: ``out`` (any dtype) against a float32 reference."""
        return lambda: torch.testing.assert_close(out.float(), ref, **tol)

    # ---- vector add (computed in the input dtype; 2 loads + 1 store per element) ----
    sizes = [1 << 20, 1 << 24] if args.quick else [1 << 20, 1 << 22, 1 << 24, 1 << 26]
    for dt, dname in zip(dtypes, dtype_names, strict=True):
        for n in sizes:
            x = torch.rand(n, device=dev, dtype=dt)
            y = torch.rand(n, device=dev, dtype=dt)
            ref = x.float() + y.float()
            add_tol = tolerance(dt, 1e-5, 1.3e-6)
            nbytes = 3 * n * x.element_size()
            for impl, (mod, backend) in impls.items():
                out = torch.empty_like(x)
                grid = (triton_cdiv(n, 1024),)
                fn = lambda mod=mod, out=out, grid=grid: mod.add_kernel[grid](
                    x, y, out, n, BLOCK_SIZE=1024
                )
                run("add", f"n={n}", dname, impl, backend, fn, close(out, ref, add_tol), nbytes)
            run_torch("add", f"n={n}", dname, lambda: x + y, nbytes)

    # ---- softmax / layer norm (computed in f32; 1 load + 1 store per element) ----
    shapes = [(4096, 1024)] if args.quick else [(4096, 512), (4096, 1024), (4096, 4096)]
    for dt, dname in zip(dtypes, dtype_names, strict=True):
        for m, ncols in shapes:
            case = f"{m}x{ncols}"
            x = torch.randn(m, ncols, device=dev, dtype=dt)
            nbytes = 2 * m * ncols * x.element_size()
            block = mytriton.next_power_of_2(ncols)
            nw = 8 if block >= 2048 else 4
            ref = torch.softmax(x.float(), dim=1)
            sm_tol = tolerance(dt, 1e-5, 1e-4)
            for impl, (mod, backend) in impls.items():
                out = torch.empty_like(x)
                fn = lambda mod=mod, out=out: mod.softmax_kernel[(m,)](
                    out, x, x.stride(0), out.stride(0), m, ncols, BLOCK_SIZE=block, num_warps=nw
                )
                run("softmax", case, dname, impl, backend, fn, close(out, ref, sm_tol), nbytes)
            run_torch("softmax", case, dname, lambda: torch.softmax(x, dim=1), nbytes)

            ln_ref = torch.nn.functional.layer_norm(x.float(), (ncols,), eps=1e-5)
            ln_tol = tolerance(dt, 1e-4, 1e-4)
            for impl, (mod, backend) in impls.items():
                out = torch.empty_like(x)
                fn = lambda mod=mod, out=out: mod.layer_norm_kernel[(m,)](
                    x, out, ncols, 1e-5, BLOCK_SIZE=block, num_warps=nw
                )
                run("layernorm", case, dname, impl, backend, fn, close(out, ln_ref, ln_tol), nbytes)
            run_torch(
                "layernorm",
                case,
                dname,
                lambda: torch.nn.functional.layer_norm(x, (ncols,), eps=1e-5),
                nbytes,
            )

    # ---- matmul (f32; Triton with ieee = CUDA-core FMA like us, and its default tf32) ----
    msizes = [512, 1024] if args.quick else [512, 1024, 2048]
    for s in msizes:
        a, b = torch.randn(s, s, device=dev), torch.randn(s, s, device=dev)
        ref = a.double() @ b.double()
        for impl, (mod, backend) in impls.items():
            for prec in ("ieee", "tf32") if impl == "triton" else ("ieee",):
                c = torch.empty(s, s, device=dev)
                bm, bn, bk = 64, 64, 16
                grid = (triton_cdiv(s, bm) * triton_cdiv(s, bn),)
                fn = lambda mod=mod, c=c, prec=prec, grid=grid: mod.matmul_kernel[grid](
                    a,
                    b,
                    c,
                    s,
                    s,
                    s,
                    a.stride(0),
                    a.stride(1),
                    b.stride(0),
                    b.stride(1),
                    c.stride(0),
                    c.stride(1),
                    BLOCK_SIZE_M=bm,
                    BLOCK_SIZE_N=bn,
                    BLOCK_SIZE_K=bk,
                    GROUP_SIZE_M=8,
                    INPUT_PRECISION=prec,
                    num_warps=4,
                )
                tol = 1e-2 if prec == "tf32" else 1e-3
                run(
                    "matmul",
                    f"{s}^3",
                    "float32",
                    f"{impl}[{prec}]",
                    backend,
                    fn,
                    lambda c=c, tol=tol: torch.testing.assert_close(
                        c.double(), ref, atol=tol * s**0.5, rtol=tol
                    ),
                    0,
                    2 * s**3,
                )
        torch.backends.cuda.matmul.allow_tf32 = False
        ms = bench_gpu(lambda: a @ b)
        emit(
            {
                "bench": "matmul",
                "case": f"{s}^3",
                "dtype": "float32",
                "impl": "torch[ieee]",
                "ms": ms,
                "TFLOP/s": 2 * s**3 / ms / 1e9,
            }
        )

    # ---- launch overhead (host time per launch of a tiny kernel) ----
    x = torch.zeros(128, device=dev)
    for impl, (mod, backend) in impls.items():
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        row: dict[str, Any] = {
            "bench": "launch",
            "case": "host us/launch",
            "dtype": "float32",
            "impl": impl,
        }
        try:
            row["us"] = bench_host(lambda mod=mod: mod.tiny_kernel[(1,)](x, 100, BLOCK=128))
        except Exception as e:
            row["error"] = f"{type(e).__name__}: {e}"[:400]
        emit(row)

    add_speed_vs_triton(rows)
    print("\n" + format_table(rows), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


def triton_cdiv(a: int, b: int) -> int:
    return (a + b - 1) // b


if __name__ == "__main__":
    main()
