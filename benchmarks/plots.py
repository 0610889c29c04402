"""Throughput plots of mytriton (CUDA C++ and MLIR backends) against Triton and torch, drawn with
``mytriton.testing.perf_report`` as in Triton's tutorials: vector add over sizes, row softmax and
layer norm over row lengths (GB/s), and float32 matmul over sizes (TFLOP/s); the median, with
the 20%-80% band of ``do_bench``'s times.

The kernels are ``kernels_src.py``, imported under real Triton and under mytriton as in
``compare.py``. Each line is checked once against a NumPy reference before it is timed; a line
that fails to compile or is wrong prints the error and plots NaN. Lines whose requirements are
missing are left out: Triton and torch need torch with CUDA; without torch the mytriton lines run
on CuPy arrays; with no GPU at all the script falls back to mytriton's interpreter on NumPy arrays
and tiny sizes (a smoke test of the script, host timings, not a benchmark).

    python benchmarks/plots.py --out DIR [--quick] [--dtype float16]

writes ``vector-add-<dtype>``, ``softmax-<dtype>``, ``layer-norm-<dtype>`` and ``matmul-float32``
(``.csv`` and ``.png``) and ``results.html`` to DIR (PNGs only where matplotlib is installed).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from compare import load_kernels  # noqa: E402 (beside this script)

import mytriton  # noqa: E402
import mytriton.language as my_tl  # noqa: E402
from mytriton import testing  # noqa: E402

DTYPES = ("float32", "float16", "bfloat16")
QUANTILES = [0.5, 0.2, 0.8]
STYLES = {
    "triton": ("blue", "-"),
    "mytriton-cuda": ("red", "-"),
    "mytriton-mlir": ("orange", "--"),
    "mytriton-interpreter": ("purple", ":"),
    "torch": ("green", "-"),
}


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except Exception:  # not installed, or broken (no driver)
        return None


class Arrays:
    """Where the benchmark's arrays live: torch (CUDA), CuPy, or NumPy on the host."""

    def __init__(self) -> None:
        import numpy as np

        self.np = np
        torch = _module("torch")
        cupy = _module("cupy")
        self.torch: Any = torch if torch is not None and torch.cuda.is_available() else None
        self.cupy: Any = None
        if self.torch is None and cupy is not None:
            try:
                if cupy.cuda.runtime.getDeviceCount() > 0:
                    self.cupy = cupy
            except Exception:
                pass
        self.kind = "torch" if self.torch else "cupy" if self.cupy else "numpy"
        self.rng = np.random.default_rng(0)

    @property
    def on_gpu(self) -> bool:
        return self.kind != "numpy"

    def random(self, shape: tuple[int, ...], dtype: str, normal: bool = False) -> Any:
        """Random values (uniform in [0, 1), or standard normal) of ``dtype`` on the device."""
        host = self.rng.standard_normal(shape) if normal else self.rng.random(shape)
        if self.torch is not None:
            t = self.torch.from_numpy(host.astype("float32")).to("cuda")
            return t.to(getattr(self.torch, dtype))
        if dtype == "bfloat16":
            raise SystemExit("--dtype bfloat16 needs torch (NumPy and CuPy have no bfloat16)")
        if self.cupy is not None:
            return self.cupy.asarray(host.astype(dtype))
        return host.astype(dtype)

    def empty_like(self, x: Any) -> Any:
        if self.torch is not None:
            return self.torch.empty_like(x)
        return (self.cupy or self.np).empty_like(x)

    def host_f32(self, x: Any) -> Any:
        """``x`` as a float32 NumPy array (the references are computed from these)."""
        if self.torch is not None:
            return x.float().cpu().numpy()
        if self.cupy is not None:
            return self.cupy.asnumpy(x).astype("float32")
        return self.np.asarray(x, dtype="float32")


def providers(arrays: Arrays) -> dict[str, tuple[ModuleType, str | None]]:
    """Each line's kernel module and mytriton backend (``None``: not mytriton)."""
    myk = load_kernels("kernels_mytriton", mytriton, my_tl)
    if not arrays.on_gpu:
        print("no CUDA device: timing mytriton's interpreter on tiny sizes", file=sys.stderr)
        return {"mytriton-interpreter": (myk, "interpreter")}
    lines: dict[str, tuple[ModuleType, str | None]] = {}
    real_triton, real_tl = _module("triton"), _module("triton.language")
    if arrays.torch is None:
        print("torch with CUDA is missing: no Triton and torch lines", file=sys.stderr)
    elif real_triton is None or real_tl is None:
        print("triton is not installed: no Triton line", file=sys.stderr)
    else:
        lines["triton"] = (load_kernels("kernels_triton", real_triton, real_tl), None)
    lines["mytriton-cuda"] = (myk, "cuda")
    lines["mytriton-mlir"] = (myk, "mlir")
    if arrays.torch is not None:
        lines["torch"] = (myk, None)  # the module is unused: torch's own op runs
    return lines


def measure(
    name: str,
    fn: Callable[[], Any],
    check: Callable[[], None],
    nbytes: float,
    rep: int,
) -> tuple[float, float, float]:
    """GB/s (``nbytes`` moved per call; or TFLOP/s, given ``flops / 1000``) at the median,
    80% and 20% times; NaN (and the error on stderr) if ``fn`` fails."""
    try:
        fn()
        check()
        times = testing.do_bench(fn, warmup=rep // 4, rep=rep, quantiles=QUANTILES)
        assert isinstance(times, list)
        med, lo, hi = times
    except Exception as e:  # one failing line must not hide the others
        print(f"{name}: {type(e).__name__}: {str(e)[:400]}", file=sys.stderr)
        nan = float("nan")
        return nan, nan, nan

    def gbps(ms: float) -> float:
        return nbytes / ms * 1e-6

    return gbps(med), gbps(hi), gbps(lo)


def add_benchmark(
    arrays: Arrays, lines: dict[str, tuple[ModuleType, str | None]], dtype: str, quick: bool
) -> testing.Mark:
    if not arrays.on_gpu:
        sizes = [1 << 10, 1 << 12]
    elif quick:
        sizes = [1 << 16, 1 << 20, 1 << 24]
    else:
        sizes = [1 << i for i in range(12, 28)]
    rep = 100 if arrays.on_gpu else 20

    @testing.perf_report(
        testing.Benchmark(
            x_names=["size"],
            x_vals=sizes,
            x_log=True,
            line_arg="provider",
            line_vals=list(lines),
            line_names=list(lines),
            styles=[STYLES[p] for p in lines],
            ylabel="GB/s",
            plot_name=f"vector-add-{dtype}",
            args={},
        )
    )
    def bench(size: int, provider: str) -> tuple[float, float, float]:
        x, y = arrays.random((size,), dtype), arrays.random((size,), dtype)
        ref = arrays.host_f32(x) + arrays.host_f32(y)
        nbytes = 3 * size * x.itemsize if hasattr(x, "itemsize") else 3 * size * x.element_size()
        out = arrays.empty_like(x)
        mod, backend = lines[provider]
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        if provider == "torch":
            fn: Callable[[], Any] = lambda: arrays.torch.add(x, y, out=out)
        else:
            grid = ((size + 1023) // 1024,)
            fn = lambda: mod.add_kernel[grid](x, y, out, size, BLOCK_SIZE=1024)
        atol, rtol = (1e-5, 1.3e-6) if dtype == "float32" else (1e-5, 1e-2)
        check = lambda: testing.assert_close(arrays.host_f32(out), ref, atol=atol, rtol=rtol)
        return measure(f"add {provider} size={size}", fn, check, nbytes, rep)

    return bench


Lines = dict[str, tuple[ModuleType, str | None]]
#: a row-wise kernel's launch: (kernel module, x, out, M, N, BLOCK_SIZE, num_warps)
RowLaunch = Callable[[ModuleType, Any, Any, int, int, int, int], Any]


def row_benchmark(
    arrays: Arrays,
    lines: Lines,
    dtype: str,
    quick: bool,
    *,
    name: str,
    full_cols: list[int],
    reference: Callable[[Any], Any],
    launch: RowLaunch,
    torch_op: Callable[[Any, int], Any],
    tolerance: tuple[tuple[float, float], tuple[float, float]],
) -> testing.Mark:
    """GB/s of a kernel over the rows of an M-by-N block (softmax, layer norm): one program
    per row, the row in one block; ``reference`` (of the float32 input) checks each line with
    ``tolerance`` (atol, rtol: float32, then 16-bit types), and ``torch_op(x, N)`` is the torch
    line (checked on a result of its own: no ``out=``)."""
    if not arrays.on_gpu:
        rows, cols = 4, [16, 48]
    elif quick:
        rows, cols = 4096, [256, 1024, 4096]
    else:
        rows, cols = 4096, full_cols
    rep = 100 if arrays.on_gpu else 20

    @testing.perf_report(
        testing.Benchmark(
            x_names=["N"],
            x_vals=cols,
            line_arg="provider",
            line_vals=list(lines),
            line_names=list(lines),
            styles=[STYLES[p] for p in lines],
            ylabel="GB/s",
            plot_name=f"{name.replace(' ', '-')}-{dtype}",
            args={"M": rows},
        )
    )
    def bench(M: int, N: int, provider: str) -> tuple[float, float, float]:
        x = arrays.random((M, N), dtype, normal=True)
        ref = reference(arrays.host_f32(x))
        itemsize = x.itemsize if hasattr(x, "itemsize") else x.element_size()
        nbytes = 2 * M * N * itemsize
        out = arrays.empty_like(x)
        mod, backend = lines[provider]
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        if provider == "torch":
            fn: Callable[[], Any] = lambda: torch_op(x, N)
            out = torch_op(x, N)
        else:
            block = mytriton.next_power_of_2(N)
            nw = 8 if block >= 2048 else 4
            fn = lambda: launch(mod, x, out, M, N, block, nw)
        atol, rtol = tolerance[0] if dtype == "float32" else tolerance[1]
        check = lambda: testing.assert_close(arrays.host_f32(out), ref, atol=atol, rtol=rtol)
        return measure(f"{name} {provider} N={N}", fn, check, nbytes, rep)

    return bench


def softmax_benchmark(arrays: Arrays, lines: Lines, dtype: str, quick: bool) -> testing.Mark:
    def reference(x: Any) -> Any:
        e = arrays.np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def launch(mod: ModuleType, x: Any, out: Any, M: int, N: int, block: int, nw: int) -> Any:
        # both arrays are contiguous rows: the row stride is N
        return mod.softmax_kernel[(M,)](out, x, N, N, M, N, BLOCK_SIZE=block, num_warps=nw)

    return row_benchmark(
        arrays,
        lines,
        dtype,
        quick,
        name="softmax",
        full_cols=[256 * i for i in range(1, 17)],
        reference=reference,
        launch=launch,
        torch_op=lambda x, n: arrays.torch.softmax(x, dim=1),
        tolerance=((1e-5, 1e-4), (1e-5, 1e-2)),
    )


def layer_norm_benchmark(arrays: Arrays, lines: Lines, dtype: str, quick: bool) -> testing.Mark:
    def reference(x: Any) -> Any:
        centred = x - x.mean(axis=1, keepdims=True)
        return centred / arrays.np.sqrt((centred * centred).mean(axis=1, keepdims=True) + 1e-5)

    def launch(mod: ModuleType, x: Any, out: Any, M: int, N: int, block: int, nw: int) -> Any:
        return mod.layer_norm_kernel[(M,)](x, out, N, 1e-5, BLOCK_SIZE=block, num_warps=nw)

    return row_benchmark(
        arrays,
        lines,
        dtype,
        quick,
        name="layer norm",
        full_cols=[512 * i for i in range(1, 17)],
        reference=reference,
        launch=launch,
        torch_op=lambda x, n: arrays.torch.nn.functional.layer_norm(x, (n,), eps=1e-5),
        tolerance=((1e-4, 1e-4), (1e-2, 1e-2)),
    )


def matmul_benchmark(
    arrays: Arrays, lines: dict[str, tuple[ModuleType, str | None]], dtype: str, quick: bool
) -> testing.Mark:
    """Tutorial 03's matmul in float32 with IEEE products (CUDA-core FMAs) on every line:
    Triton's ``input_precision="ieee"`` and torch without TF32 (``--dtype`` does not apply)."""
    if not arrays.on_gpu:
        sizes = [16, 32]
    elif quick:
        sizes = [512, 1024, 2048]
    else:
        sizes = [512 * i for i in range(1, 9)]
    rep = 100 if arrays.on_gpu else 20

    inputs: dict[int, tuple[Any, Any, Any]] = {}  # per size: a, b and the float64 reference

    @testing.perf_report(
        testing.Benchmark(
            x_names=["size"],
            x_vals=sizes,
            line_arg="provider",
            line_vals=list(lines),
            line_names=list(lines),
            styles=[STYLES[p] for p in lines],
            ylabel="TFLOP/s",
            plot_name="matmul-float32",
            args={},
        )
    )
    def bench(size: int, provider: str) -> tuple[float, float, float]:
        if size not in inputs:
            a = arrays.random((size, size), "float32", normal=True)
            b = arrays.random((size, size), "float32", normal=True)
            ref = arrays.host_f32(a).astype("float64") @ arrays.host_f32(b).astype("float64")
            inputs.clear()
            inputs[size] = a, b, ref
        a, b, ref = inputs[size]
        c = arrays.empty_like(a)
        mod, backend = lines[provider]
        if backend is not None:
            os.environ["MYTRITON_BACKEND"] = backend
        if provider == "torch":
            arrays.torch.backends.cuda.matmul.allow_tf32 = False
            fn: Callable[[], Any] = lambda: arrays.torch.matmul(a, b, out=c)
        else:
            bm = bn = 64 if arrays.on_gpu else 16
            grid = (-(-size // bm) * -(-size // bn),)
            fn = lambda: mod.matmul_kernel[grid](
                a, b, c, size, size, size, size, 1, size, 1, size, 1,
                BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=16, GROUP_SIZE_M=8,
                INPUT_PRECISION="ieee", num_warps=4,
            )  # fmt: skip
        tol = 1e-3 * size**0.5
        check = lambda: testing.assert_close(arrays.host_f32(c), ref, atol=tol, rtol=1e-3)
        # TFLOP/s = flops / ms * 1e-9 = (flops / 1000) / ms * 1e-6, as measure computes GB/s
        return measure(f"matmul {provider} size={size}", fn, check, 2 * size**3 / 1000, rep)

    return bench


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder for the CSVs, PNGs and results.html")
    ap.add_argument("--quick", action="store_true", help="three points per plot")
    ap.add_argument("--dtype", default="float32", choices=DTYPES)
    ap.add_argument("--show", action="store_true", help="also show the plots (matplotlib)")
    args = ap.parse_args()

    arrays = Arrays()
    lines = providers(arrays)
    print(f"arrays: {arrays.kind}; lines: {', '.join(lines)}", flush=True)
    names: list[str] = []
    for make in (add_benchmark, softmax_benchmark, layer_norm_benchmark, matmul_benchmark):
        mark = make(arrays, lines, args.dtype, args.quick)
        mark.run(print_data=True, show_plots=args.show, save_path=args.out)
        assert isinstance(mark.benchmarks, testing.Benchmark)
        names.append(mark.benchmarks.plot_name)
    # each run writes its own results.html: list every plot in the last one
    with open(os.path.join(args.out, "results.html"), "w") as html:
        html.write("<html><body>\n")
        html.writelines(f'<image src="{name}.png"/>\n' for name in names)
        html.write("</body></html>\n")
    print(f"written to {args.out}", flush=True)


if __name__ == "__main__":
    main()
