"""The clocks ``do_bench`` reads: CUDA events through torch where ``torch.cuda`` is available,
else through CuPy (events, and a CuPy buffer for the L2 flush), else the host's
``time.perf_counter`` (no flush, nothing to synchronize)."""

from __future__ import annotations

import time
from typing import Any, Protocol

L2_FLUSH_BYTES = 256 * 1000 * 1000  # Triton's flush buffer: 256 MB of int32 zeroed per call


class Event(Protocol):
    def record(self) -> None: ...
    def elapsed_ms(self, end: Event) -> float: ...


class Timer(Protocol):
    """What ``do_bench`` needs from a device: events, a barrier and an L2 flush."""

    def event(self) -> Event: ...
    def synchronize(self) -> None: ...
    def flush_cache(self) -> None: ...


class _TorchEvent:
    def __init__(self, torch: Any) -> None:
        self.event = torch.cuda.Event(enable_timing=True)

    def record(self) -> None:
        self.event.record()

    def elapsed_ms(self, end: Event) -> float:
        assert isinstance(end, _TorchEvent)
        return float(self.event.elapsed_time(end.event))


class _TorchTimer:
    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.cache = torch.empty(L2_FLUSH_BYTES // 4, dtype=torch.int32, device="cuda")

    def event(self) -> Event:
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

    def elapsed_ms(self, end: Event) -> float:
        assert isinstance(end, _CupyEvent)
        return float(self.cupy.cuda.get_elapsed_time(self.event, end.event))


class _CupyTimer:
    def __init__(self, cupy: Any) -> None:
        self.cupy = cupy
        self.cache = cupy.empty(L2_FLUSH_BYTES // 4, dtype=cupy.int32)

    def event(self) -> Event:
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

    def elapsed_ms(self, end: Event) -> float:
        assert isinstance(end, _HostEvent)
        return (end.t - self.t) * 1e3


class _HostTimer:
    """No GPU: host wall-clock time, nothing to synchronize and no cache flush."""

    def event(self) -> Event:
        return _HostEvent()

    def synchronize(self) -> None:
        pass

    def flush_cache(self) -> None:
        pass


def torch_cuda() -> Any | None:
    """The ``torch`` module when it can use a CUDA device, else ``None``."""
    try:
        import torch
    except ImportError:
        return None
    try:
        return torch if torch.cuda.is_available() else None
    except Exception:  # a broken driver install
        return None


def cupy_cuda() -> Any | None:
    """The ``cupy`` module when it finds a CUDA device, else ``None``."""
    try:
        import cupy
    except ImportError:
        return None
    try:
        return cupy if cupy.cuda.runtime.getDeviceCount() > 0 else None
    except Exception:  # no driver
        return None


def device_timer() -> Timer:
    """The clock of the best device present: torch's events, CuPy's, or the host's."""
    torch = torch_cuda()
    if torch is not None:
        return _TorchTimer(torch)
    cupy = cupy_cuda()
    if cupy is not None:
        return _CupyTimer(cupy)
    return _HostTimer()
