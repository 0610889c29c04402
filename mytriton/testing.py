"""``triton.testing``: benchmarking, perf reports and closeness checks, as in Triton 3.6.

``do_bench`` times a callable with CUDA events: through torch when ``torch.cuda`` is available,
else through CuPy (events, and a CuPy buffer for the L2 flush). On a machine with neither (CPU
only: the interpreter and gpusim backends) it times each call with ``time.perf_counter`` and
flushes nothing, so the numbers are host wall-clock times of the call.

``perf_report``/``Benchmark`` print and save tables through pandas and plots through matplotlib
when they are installed; without pandas the table is a ``ResultTable`` (plain-text printing,
CSV by the ``csv`` module), without matplotlib no plot is drawn and a message on stderr says so.
"""

from __future__ import annotations

import csv
import math
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from mytriton.dialects.tt import dtype_table
from mytriton.errors import BackendUnavailableError

__all__ = [
    "Benchmark",
    "Mark",
    "ResultTable",
    "assert_close",
    "do_bench",
    "do_bench_cudagraph",
    "get_dram_gbps",
    "get_max_simd_tflops",
    "get_max_tensorcore_tflops",
    "perf_report",
]

RETURN_MODES = ("min", "max", "mean", "median", "all")
L2_FLUSH_BYTES = 256 * 1000 * 1000  # Triton's flush buffer: 256 MB of int32 zeroed per call


# ---------------------------------------------------------------- statistics


def _quantiles(times: Sequence[float], qs: Iterable[float]) -> list[float]:
    """Linear-interpolation quantiles (``numpy.quantile``'s default), without NumPy."""
    ordered = sorted(times)
    last = len(ordered) - 1
    out = []
    for q in qs:
        if not 0 <= q <= 1:
            raise ValueError(f"quantiles must be in the range [0, 1], got {q}")
        point = q * last
        lo, hi = math.floor(point), math.ceil(point)
        t = point - lo
        out.append((1 - t) * ordered[lo] + t * ordered[hi])
    return out


def _summarize(
    times: list[float], quantiles: Sequence[float] | None, return_mode: str
) -> float | list[float]:
    """The measured ``times`` (ms) reduced as ``do_bench`` returns them."""
    if quantiles is not None:
        values = _quantiles(times, quantiles)
        return values[0] if len(values) == 1 else values
    if return_mode == "all":
        return times
    if return_mode == "min":
        return min(times)
    if return_mode == "max":
        return max(times)
    if return_mode == "median":
        return statistics.median(times)
    return statistics.mean(times)


def _check_return_mode(return_mode: str) -> None:
    if return_mode not in RETURN_MODES:
        raise ValueError(
            f"return_mode must be one of {', '.join(RETURN_MODES)}; got {return_mode!r}"
        )


# ---------------------------------------------------------------- timers


class _Event(Protocol):
    def record(self) -> None: ...
    def elapsed_ms(self, end: _Event) -> float: ...


class _Timer(Protocol):
    """What ``do_bench`` needs from a device: events, a barrier and an L2 flush."""

    def event(self) -> _Event: ...
    def synchronize(self) -> None: ...
    def flush_cache(self) -> None: ...


class _TorchEvent:
    def __init__(self, torch: Any) -> None:
        self.event = torch.cuda.Event(enable_timing=True)

    def record(self) -> None:
        self.event.record()

    def elapsed_ms(self, end: _Event) -> float:
        assert isinstance(end, _TorchEvent)
        return float(self.event.elapsed_time(end.event))


class _TorchTimer:
    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.cache = torch.empty(L2_FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")

    def event(self) -> _Event:
        return _TorchEvent(self.torch)

    def synchronize(self) -> None:
        self.torch.cuda.synchronize()

    def flush_cache(self) -> None:
        self.cache.zero_()


class _CupyEvent:
    def __init__(self, cupy: Any) -> None:
        self.cupy = cupy
        self.event = cupy.cuda.Event()

    def record(self) -> None:
        self.event.record()

    def elapsed_ms(self, end: _Event) -> float:
        assert isinstance(end, _CupyEvent)
        return float(self.cupy.cuda.get_elapsed_time(self.event, end.event))


class _CupyTimer:
    def __init__(self, cupy: Any) -> None:
        self.cupy = cupy
        self.cache = cupy.empty(L2_FLUSH_BYTES // 4, dtype=cupy.int32)

    def event(self) -> _Event:
        return _CupyEvent(self.cupy)

    def synchronize(self) -> None:
        self.cupy.cuda.runtime.deviceSynchronize()

    def flush_cache(self) -> None:
        self.cache.fill(0)


class _HostEvent:
    def __init__(self) -> None:
        self.t = 0.0

    def record(self) -> None:
        self.t = time.perf_counter()

    def elapsed_ms(self, end: _Event) -> float:
        assert isinstance(end, _HostEvent)
        return (end.t - self.t) * 1e3


class _HostTimer:
    """No GPU: host wall-clock time, nothing to synchronize and no cache flush."""

    def event(self) -> _Event:
        return _HostEvent()

    def synchronize(self) -> None:
        pass

    def flush_cache(self) -> None:
        pass


def _torch_cuda() -> Any | None:
    """The ``torch`` module when it can use a CUDA device, else ``None``."""
    try:
        import torch
    except ImportError:
        return None
    try:
        return torch if torch.cuda.is_available() else None
    except Exception:  # a broken driver install
        return None


def _cupy_cuda() -> Any | None:
    """The ``cupy`` module when it finds a CUDA device, else ``None``."""
    try:
        import cupy
    except ImportError:
        return None
    try:
        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # no driver
        return None


def _timer() -> _Timer:
    torch = _torch_cuda()
    if torch is not None:
        return _TorchTimer(torch)
    cupy = _cupy_cuda()
    if cupy is not None:
        return _CupyTimer(cupy)
    return _HostTimer()


def _clear_grads(grad_to_none: Iterable[Any] | None) -> None:
    for x in grad_to_none or ():
        x.grad = None


# ---------------------------------------------------------------- benchmarking


def do_bench(
    fn: Callable[[], Any],
    warmup: float = 25,
    rep: float = 100,
    grad_to_none: Iterable[Any] | None = None,
    quantiles: Sequence[float] | None = None,
    return_mode: str = "mean",
) -> float | list[float]:
    """Time ``fn`` in milliseconds per call.

    ``warmup`` and ``rep`` are budgets in ms: five calls estimate the time of one, which gives
    the number of warm-up and timed calls. Each timed call follows an L2 flush (on a GPU) and is
    timed alone. Returns the ``quantiles`` of the times (a list, or a float for one quantile)
    when given, else their ``return_mode`` (``min``, ``max``, ``mean``, ``median``, or ``all``:
    the list of times). ``grad_to_none``: tensors whose ``.grad`` is reset before each call.
    """
    _check_return_mode(return_mode)
    timer = _timer()
    fn()
    timer.synchronize()

    start, end = timer.event(), timer.event()
    start.record()
    for _ in range(5):
        timer.flush_cache()
        fn()
    end.record()
    timer.synchronize()
    estimate_ms = max(start.elapsed_ms(end) / 5, 1e-6)  # a host timer can read 0

    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    starts = [timer.event() for _ in range(n_repeat)]
    ends = [timer.event() for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for s, e in zip(starts, ends, strict=True):
        _clear_grads(grad_to_none)  # a backward pass in fn must not accumulate gradients
        timer.flush_cache()
        s.record()
        fn()
        e.record()
    timer.synchronize()
    times = [s.elapsed_ms(e) for s, e in zip(starts, ends, strict=True)]
    return _summarize(times, quantiles, return_mode)


def do_bench_cudagraph(
    fn: Callable[[], Any],
    rep: float = 20,
    grad_to_none: Iterable[Any] | None = None,
    quantiles: Sequence[float] | None = None,
    return_mode: str = "mean",
) -> float | list[float]:
    """Time ``fn`` in ms per call, replaying a torch CUDA graph of ``rep`` ms worth of calls
    (no per-call launch overhead, no L2 flush); the statistics are over ten replays.

    Needs torch with a CUDA device (``BackendUnavailableError`` otherwise)."""
    _check_return_mode(return_mode)
    torch = _torch_cuda()
    if torch is None:
        raise BackendUnavailableError(
            "do_bench_cudagraph needs torch with a CUDA device (CUDA graphs are captured "
            "through torch.cuda.graph); use do_bench here"
        )
    with torch.cuda.stream(torch.cuda.Stream()):
        fn()
        for x in grad_to_none or ():
            x.detach_()
            x.requires_grad_(True)
            x.grad = None
        # estimate one call without a graph (capturing one is expensive)
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(5):
            fn()
        end.record()
        torch.cuda.synchronize()
        estimate_ms = start.elapsed_time(end) / 5
        n_repeat = 1000 if estimate_ms == 0 else max(1, int(rep / estimate_ms))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n_repeat):
                _clear_grads(grad_to_none)
                fn()
        torch.cuda.synchronize()
        times = []
        for _ in range(10):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) / n_repeat)
    return _summarize(times, quantiles, return_mode)


# ---------------------------------------------------------------- closeness


def _to_numpy(x: Any) -> Any:
    """``x`` (scalar, list, NumPy, torch or CuPy array) as a host NumPy array; bfloat16 and
    other dtypes NumPy lacks become float32."""
    import numpy as np

    module = type(x).__module__.split(".")[0]
    if module == "torch":
        import torch

        t = x.detach().cpu()
        if t.is_floating_point() and t.dtype not in (torch.float16, torch.float32, torch.float64):
            t = t.float()  # bfloat16, float8 kinds
        return t.numpy()
    if module == "cupy":
        return x.get()
    return np.asarray(x)


def _dtype_of(x: Any) -> Any:
    return getattr(x, "dtype", None)


def assert_close(
    x: Any,
    y: Any,
    atol: float | Callable[[Any], float] | None = None,
    rtol: float | Callable[[Any], float] | None = None,
    err_msg: str = "",
) -> None:
    """Raise ``AssertionError`` unless ``|x - y| <= atol + rtol * |y|`` everywhere (NaNs
    equal). Inputs: scalars, lists, NumPy, torch or CuPy arrays. ``atol`` defaults to 1e-2 and
    ``rtol`` to 0; either may be a function of ``x``'s dtype."""
    import numpy as np

    dtype = _dtype_of(x)
    if dtype is None:
        dtype = np.asarray(x).dtype
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    atol_v = atol(dtype) if callable(atol) else atol
    rtol_v = rtol(dtype) if callable(rtol) else rtol
    xa, ya = _to_numpy(x), _to_numpy(y)
    if xa.size > 1 or ya.size > 1:
        np.testing.assert_allclose(
            xa, ya, atol=atol_v, rtol=rtol_v, equal_nan=True, err_msg=err_msg
        )
        return
    if not np.allclose(xa, ya, atol=atol_v, rtol=rtol_v, equal_nan=True):
        raise AssertionError(f"{err_msg} {xa} is not close to {ya} (atol={atol_v}, rtol={rtol_v})")


# ---------------------------------------------------------------- perf reports


class Benchmark:
    """One perf-report figure: ``fn(**x_args, **{line_arg: line_val}, **args)`` for each x
    value (a scalar given to every name in ``x_names``, or one value per name) and each line.

    ``styles``: one ``(color, linestyle)`` per line."""

    def __init__(
        self,
        x_names: list[str],
        x_vals: list[Any],
        line_arg: str,
        line_vals: list[Any],
        line_names: list[str],
        plot_name: str,
        args: dict[str, Any],
        xlabel: str = "",
        ylabel: str = "",
        x_log: bool = False,
        y_log: bool = False,
        styles: list[tuple[str, str]] | None = None,
    ) -> None:
        self.x_names = x_names
        self.x_vals = x_vals
        self.line_arg = line_arg
        self.line_vals = line_vals
        self.line_names = line_names
        self.plot_name = plot_name
        self.args = args
        self.xlabel = xlabel
        self.ylabel = ylabel
        self.x_log = x_log
        self.y_log = y_log
        self.styles = styles


@dataclass
class ResultTable:
    """A perf report's table where pandas is not installed: named columns, one row per x."""

    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)

    def __getitem__(self, column: str) -> list[Any]:
        i = self.columns.index(column)
        return [row[i] for row in self.rows]

    def __len__(self) -> int:
        return len(self.rows)

    def select(self, columns: list[str]) -> ResultTable:
        idx = [self.columns.index(c) for c in columns]
        return ResultTable(list(columns), [[row[i] for i in idx] for row in self.rows])

    def to_string(self) -> str:
        """Right-aligned columns under their names, with a row index (as pandas prints)."""
        cells = [["", *self.columns]]
        cells += [[str(i)] + [_fmt(v) for v in row] for i, row in enumerate(self.rows)]
        widths = [max(len(r[c]) for r in cells) for c in range(len(cells[0]))]
        return "\n".join(
            "  ".join(v.rjust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells
        )

    def to_csv(self, path: str, precision: int = 6) -> None:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(self.columns)
            for row in self.rows:
                w.writerow(
                    [
                        "" if v is None else f"{v:.{precision}f}" if isinstance(v, float) else v
                        for v in row
                    ]
                )


def _fmt(v: Any) -> str:
    if v is None:
        return "NaN"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _optional(module: str) -> Any | None:
    try:
        return __import__(module)
    except ImportError:
        return None


class Mark:
    """A function under ``perf_report``: ``run`` benchmarks it and reports."""

    def __init__(self, fn: Callable[..., Any], benchmarks: Benchmark | list[Benchmark]) -> None:
        self.fn = fn
        self.benchmarks = benchmarks

    def _measure(self, bench: Benchmark, **kwargs: Any) -> tuple[list[str], list[list[Any]]]:
        """Columns (x names, then mean, min and max per line) and one row per x value."""
        x_names = list(bench.x_names)
        columns = x_names + [
            f"{name}{suffix} ({bench.ylabel})"
            for suffix in ("", "-min", "-max")
            for name in bench.line_names
        ]
        rows = []
        for x in bench.x_vals:
            xs = list(x) if isinstance(x, (list, tuple)) else [x] * len(x_names)
            if len(xs) != len(x_names):
                raise ValueError(f"expected {len(x_names)} values ({x_names}), got {x}")
            x_args = dict(zip(x_names, xs, strict=True))
            means, mins, maxs = [], [], []
            for y in bench.line_vals:
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args, **kwargs)
                if isinstance(ret, (tuple, list)):
                    if len(ret) != 3:
                        raise ValueError(
                            "a benchmark returns a value or (mean, min, max); "
                            f"got {len(ret)} values"
                        )
                    y_mean, y_min, y_max = ret
                else:
                    y_mean, y_min, y_max = ret, None, None
                means.append(y_mean)
                mins.append(y_min)
                maxs.append(y_max)
            rows.append(xs + means + mins + maxs)
        return columns, rows

    def _plot(self, bench: Benchmark, table: ResultTable, save_path: str, show_plots: bool) -> None:
        """Draw the lines of ``table`` (bands between min and max where ``fn`` gave them)."""
        if not (save_path or show_plots):
            return
        try:
            from matplotlib.figure import Figure
        except ImportError:
            print(
                f"mytriton.testing: matplotlib is not installed; no plot {bench.plot_name}.png "
                "(the table is still printed and saved)",
                file=sys.stderr,
            )
            return
        if show_plots:
            import matplotlib.pyplot as plt

            fig = plt.figure()
        else:
            fig = Figure()  # no pyplot: leaves the user's backend and figures alone
        ax = fig.add_subplot()
        n, first = len(bench.line_names), len(bench.x_names)
        xs = table[bench.x_names[0]]
        for i in range(n):
            mean_label = table.columns[first + i]
            y_lo, y_hi = (
                table[table.columns[first + n + i]],
                table[table.columns[first + 2 * n + i]],
            )
            color = bench.styles[i][0] if bench.styles else None
            style = bench.styles[i][1] if bench.styles else None
            ax.plot(xs, table[mean_label], label=mean_label, color=color, ls=style)
            if all(v is not None for v in y_lo + y_hi):
                ax.fill_between(
                    xs, [float(v) for v in y_lo], [float(v) for v in y_hi], alpha=0.15, color=color
                )
        ax.legend()
        ax.set_xlabel(bench.xlabel or bench.x_names[0])
        ax.set_ylabel(bench.ylabel)
        ax.set_xscale("log" if bench.x_log else "linear")
        ax.set_yscale("log" if bench.y_log else "linear")
        if show_plots:
            plt.show()
        if save_path:
            fig.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
        if show_plots:
            plt.close(fig)

    def _run(
        self,
        bench: Benchmark,
        save_path: str,
        show_plots: bool,
        print_data: bool,
        diff_col: bool = False,
        save_precision: int = 6,
        **kwargs: Any,
    ) -> Any:
        columns, rows = self._measure(bench, **kwargs)
        table = ResultTable(columns, rows)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        if bench.plot_name:
            self._plot(bench, table, save_path, show_plots)
        shown = table.select(columns[: len(bench.x_names) + len(bench.line_names)])
        if diff_col and len(shown.columns) == 2:
            shown.columns.append("Diff")
            for row in shown.rows:
                row.append(row[1] - row[0])
        pandas = _optional("pandas")
        result: Any = shown
        if pandas is not None:
            result = pandas.DataFrame(shown.rows, columns=shown.columns)
        if print_data:
            print(bench.plot_name + ":")
            print(result.to_string())
        if save_path:
            path = os.path.join(save_path, f"{bench.plot_name}.csv")
            if pandas is not None:
                result.to_csv(path, float_format=f"%.{save_precision}f", index=False)
            else:
                shown.to_csv(path, save_precision)
        return result

    def run(
        self,
        show_plots: bool = False,
        print_data: bool = False,
        save_path: str = "",
        return_df: bool = False,
        **kwargs: Any,
    ) -> Any:
        """Run every benchmark: print its table (``print_data``), show its plot
        (``show_plots``), save ``<plot_name>.png``/``.csv`` and ``results.html`` under
        ``save_path``. With ``return_df``, return the table(s): pandas DataFrames when pandas is
        installed, else ``ResultTable``s."""
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = (
            [self.benchmarks] if isinstance(self.benchmarks, Benchmark) else self.benchmarks
        )
        results = []
        try:
            for bench in benchmarks:
                results.append(self._run(bench, save_path, show_plots, print_data, **kwargs))
        finally:
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, "results.html"), "w") as html:
                    html.write("<html><body>\n")
                    for bench in benchmarks[: len(results)]:
                        html.write(f'<image src="{bench.plot_name}.png"/>\n')
                    html.write("</body></html>\n")
        if return_df:
            return results[0] if single else results
        return None


def perf_report(benchmarks: Benchmark | list[Benchmark]) -> Callable[[Callable[..., Any]], Mark]:
    """Decorator: ``@perf_report(Benchmark(...))`` makes ``fn`` a ``Mark`` with ``.run(...)``."""
    return lambda fn: Mark(fn, benchmarks)


# ---------------------------------------------------------------- device peaks


def _device_properties(device: int | None) -> dict[str, int]:
    """What the peak formulas need of ``device`` (default: the current one), through
    ``triton.runtime.driver`` (``BackendUnavailableError`` without a GPU)."""
    import mytriton.runtime.driver as driver

    active: Any = driver.active
    if device is None:
        device = active.get_current_device()
    props = dict(active.utils.get_device_properties(device))
    props["major"] = active.get_device_capability(device)[0]
    return props


def get_dram_gbps(device: int | None = None) -> float:
    """Peak DRAM bandwidth of ``device`` (default: the current one) in GB/s."""
    props = _device_properties(device)
    mem_clock_khz = props["mem_clock_rate"]
    bus_width_bits = props["mem_bus_width"]
    return float(mem_clock_khz * bus_width_bits * 2 / 1e6 / 8)


_TENSORCORE_OPS = {  # dense ops per sub-core per clock on sm_80 and later
    "float32": 256,
    "int32": 256,
    "float16": 512,
    "bfloat16": 512,
    "int16": 512,
    "int8": 1024,
    "float8e4nv": 1024,
    "float8e4b15": 1024,
    "float8e5": 1024,
}
_SIMD_OPS = {"float32": 32, "float16": 64, "bfloat16": 64}
#: the other names (``fp16``, ``i32``) of the dtypes the peak tables know
_DTYPE_ALIASES = {
    alias: r.name
    for r in dtype_table.ROWS
    if r.name in _TENSORCORE_OPS
    for alias in (r.dtype_name, r.signature)
    if alias != r.name
}


def _dtype_name(dtype: Any) -> str:
    """``float16`` for ``torch.float16``, ``tl.float16``, ``numpy.float16`` or ``"fp16"``."""
    name = getattr(dtype, "name", None)
    if isinstance(dtype, type):  # numpy.float16
        import numpy as np

        name = np.dtype(dtype).name
    if not isinstance(name, str):
        name = str(dtype).removeprefix("torch.")
    return _DTYPE_ALIASES.get(name, name)


def _peak_tflops(
    table: dict[str, int],
    pre_ampere: dict[str, int],
    dtype: Any,
    clock_rate: float,
    device: int | None,
) -> float:
    props = _device_properties(device)
    name = _dtype_name(dtype)
    ops = (pre_ampere if props["major"] < 8 else table).get(name)
    if ops is None:
        raise RuntimeError(f"dtype {name} not supported")
    num_subcores = props["multiprocessor_count"] * 4
    return float(num_subcores * clock_rate * ops * 1e-9)


def get_max_tensorcore_tflops(dtype: Any, clock_rate: float, device: int | None = None) -> float:
    """Peak tensor-core TFLOP/s of ``device`` at ``clock_rate`` (kHz) for ``dtype``."""
    return _peak_tflops(_TENSORCORE_OPS, {"float16": 256}, dtype, clock_rate, device)


def get_max_simd_tflops(dtype: Any, clock_rate: float, device: int | None = None) -> float:
    """Peak CUDA-core (FMA) TFLOP/s of ``device`` at ``clock_rate`` (kHz) for ``dtype``."""
    return _peak_tflops(_SIMD_OPS, {"float32": 32, "float16": 64}, dtype, clock_rate, device)
