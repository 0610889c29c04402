"""Host time of one launch of a cached kernel, mytriton beside Triton and torch in one process.

The kernel is the tutorial's vector add (4 runtime arguments: three arrays and the length, one
constexpr block size). A tight loop of launches on tiny arrays with one synchronisation at the
end measures what the host spends per launch; the median of several rounds is reported. Each
implementation is checked once against torch before it is timed, and mytriton's launch is also
captured in a CUDA graph and replayed (the graph must reproduce the result).

    python3 benchmarks/launch.py [--out launch.json]
"""

from __future__ import annotations

import argparse
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
sys.path.insert(0, str(HERE))
from compare import load_kernels  # noqa: E402 (beside this script)

N = 1024
BLOCK = 1024


def host_us(fn: Callable[[], Any], rounds: int = 7, n: int = 3000) -> float:
    """Median over ``rounds`` of the host time per call of ``n`` back-to-back calls."""
    import torch

    for _ in range(200):
        fn()
    torch.cuda.synchronize()
    per_call = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        per_call.append((time.perf_counter() - t) / n * 1e6)
        torch.cuda.synchronize()
    return statistics.median(per_call)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="")
    args = ap.parse_args()

    import cupy
    import torch
    import triton as real_triton
    import triton.language as real_tl

    import mytriton
    import mytriton.language as my_tl

    tri = load_kernels("launch_triton", real_triton, real_tl)
    myk = load_kernels("launch_mytriton", mytriton, my_tl)
    x, y = torch.rand(N, device="cuda"), torch.rand(N, device="cuda")
    out = torch.empty_like(x)
    expected = x + y
    cx, cy, cout = cupy.asarray(x), cupy.asarray(y), cupy.empty(N, dtype=cupy.float32)

    def grid(meta: dict[str, Any]) -> tuple[int]:
        return ((meta["n_elements"] + meta["BLOCK_SIZE"] - 1) // meta["BLOCK_SIZE"],)

    rows: list[dict[str, Any]] = []

    def emit(impl: str, case: str, fn: Callable[[], Any], check: Callable[[], None]) -> None:
        row: dict[str, Any] = {"bench": "launch", "impl": impl, "case": case}
        try:
            out.zero_()
            cout.fill(0)
            fn()
            torch.cuda.synchronize()
            check()
            row["us"] = round(host_us(fn), 2)
        except Exception as e:  # report and go on: one failure must not hide the others
            row["error"] = f"{type(e).__name__}: {e}"[:300]
        rows.append(row)
        print(json.dumps(row), flush=True)

    def check_torch() -> None:
        torch.testing.assert_close(out, expected)

    def check_cupy() -> None:
        torch.testing.assert_close(torch.as_tensor(cout, device="cuda"), expected)

    # the Python fast path (MYTRITON_NATIVE_LAUNCH=0 when the plan is made), on its own kernels
    python_path = load_kernels("launch_mytriton_py", mytriton, my_tl)
    cases: list[tuple[str, str | None, ModuleType]] = [
        ("triton", None, tri),
        ("mytriton-cuda", "cuda", myk),
        ("mytriton-mlir", "mlir", myk),
        ("mytriton-cuda (Python fast path)", "cuda", python_path),
    ]
    for impl, backend, mod in cases:
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        if mod is python_path:
            os.environ["MYTRITON_NATIVE_LAUNCH"] = "0"
        k = mod.add_kernel
        emit(
            impl,
            "torch, grid tuple",
            lambda k=k: k[(1,)](x, y, out, N, BLOCK_SIZE=BLOCK),
            check_torch,
        )
        emit(
            impl,
            "torch, grid lambda",
            lambda k=k: k[grid](x, y, out, N, BLOCK_SIZE=BLOCK),
            check_torch,
        )
        os.environ.pop("MYTRITON_NATIVE_LAUNCH", None)
        if backend is not None and mod is not python_path:
            emit(
                impl,
                "cupy, grid tuple",
                lambda k=k: k[(1,)](cx, cy, cout, N, BLOCK_SIZE=BLOCK),
                check_cupy,
            )
            emit(impl, "torch, CUDA graph replay", _graph(k, x, y, out), check_torch)
    emit("torch", "torch.add(out=)", lambda: torch.add(x, y, out=out), check_torch)

    width = max(len(r["impl"]) + len(r["case"]) for r in rows) + 3
    print()
    for r in rows:
        value = f"{r['us']:7.2f} us" if "us" in r else r["error"]
        print(f"{r['impl'] + ', ' + r['case']:<{width}} {value}")
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))


def _graph(kernel: Any, x: Any, y: Any, out: Any) -> Callable[[], Any]:
    """A CUDA graph holding one launch of ``kernel`` captured on torch's stream; its replay."""
    import torch

    kernel[(1,)](x, y, out, N, BLOCK_SIZE=BLOCK)  # compiled and loaded before capture
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        kernel[(1,)](x, y, out, N, BLOCK_SIZE=BLOCK)
    return graph.replay


if __name__ == "__main__":
    main()
