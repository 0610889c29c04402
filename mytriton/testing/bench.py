"""``do_bench`` and ``do_bench_cudagraph``: a callable's time per call in milliseconds, and the
statistics they return (quantiles, or the ``return_mode``'s summary)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from mytriton.errors import BackendUnavailableError
from mytriton.testing import timers

RETURN_MODES = ("min", "max", "mean", "median", "all")


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
    timer = timers.device_timer()
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
    torch = timers.torch_cuda()
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
