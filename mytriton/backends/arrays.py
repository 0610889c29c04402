"""Array arguments from NumPy, CuPy, PyTorch or any DLPack/CUDA-array-interface producer.

``describe_array`` turns an argument into framework-independent metadata (dtype, device,
contiguity, data pointer) without importing frameworks the user did not pass; ``host_arrays``
gives the CPU backends NumPy arrays in native byte order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from mytriton.errors import LaunchError
from mytriton.language import core

_NUMPY_DTYPES: dict[str, core.dtype] = {
    "float32": core.float32,
    "int32": core.int32,
    "bool": core.int1,
    "float16": core.float16,
    "float64": core.float64,
    "int64": core.int64,
    "int8": core.int8,
    "int16": core.int16,
}


@dataclass(frozen=True)
class ArrayInfo:
    """What the launcher needs to know about one array argument."""

    framework: str  # "numpy", "cupy", "torch"
    dtype: core.dtype
    device: int | None  # CUDA device ordinal, None for host memory
    contiguous: bool
    nbytes: int
    address: int  # of the first element (its alignment is part of the specialization)

    @property
    def on_gpu(self) -> bool:
        return self.device is not None


def _dtype_of(name: str, what: str) -> core.dtype:
    d = _NUMPY_DTYPES.get(name)
    if d is None:
        raise LaunchError(f"{what} has dtype {name}, which kernels cannot take")
    return d


def is_array(x: Any) -> bool:
    """Whether ``x`` is passed to a kernel as a pointer (anything with a data pointer and dtype)."""
    if isinstance(x, np.ndarray):
        return True
    mod = type(x).__module__
    if mod.startswith("torch") and hasattr(x, "data_ptr"):
        return True
    return hasattr(x, "__cuda_array_interface__") or (
        hasattr(x, "data_ptr") and hasattr(x, "dtype")
    )


def describe_array(x: Any, what: str) -> ArrayInfo:
    """Metadata of an array argument, or a ``LaunchError`` naming what is wrong with it."""
    if isinstance(x, np.ndarray):
        return ArrayInfo(
            "numpy",
            _dtype_of(x.dtype.name, what),
            None,
            bool(x.flags["C_CONTIGUOUS"]),
            x.nbytes,
            x.ctypes.data,
        )
    mod = type(x).__module__
    if mod.startswith("torch"):
        name = str(x.dtype).removeprefix("torch.")
        dev = x.device
        device = dev.index if dev.type == "cuda" else None
        if dev.type == "cuda" and device is None:
            device = 0
        if dev.type not in ("cpu", "cuda"):
            raise LaunchError(f"{what} is a torch tensor on device {dev}, which is not supported")
        return ArrayInfo(
            "torch",
            _dtype_of(name, what),
            device,
            bool(x.is_contiguous()),
            x.numel() * x.element_size(),
            int(x.data_ptr()),
        )
    if mod.startswith("cupy"):
        return ArrayInfo(
            "cupy",
            _dtype_of(x.dtype.name, what),
            int(x.device.id),
            bool(x.flags.c_contiguous),
            int(x.nbytes),
            int(x.data.ptr),
        )
    raise LaunchError(f"{what}: unsupported array type {type(x).__module__}.{type(x).__name__}")


def as_host_numpy(x: Any) -> np.ndarray:
    """A NumPy view of a host array (zero-copy for CPU torch tensors), written in place."""
    if isinstance(x, np.ndarray):
        return x
    mod = type(x).__module__
    if mod.startswith("torch"):
        return x.detach().numpy()
    raise LaunchError(f"{type(x).__name__} is not a host array")


#: the alignment (bytes) a native copy keeps from its array: launches specialize on it
_COPY_ALIGNMENT = 16


@contextmanager
def host_arrays(args: Sequence[Any], infos: Sequence[ArrayInfo | None]) -> Iterator[list[Any]]:
    """``args`` with each host array as a NumPy array in native byte order.

    A NumPy array may be byte-swapped (``dtype('>f4')`` on a little-endian host); kernels compute
    on native numbers, so such arrays run on a native copy that is written back, in the array's
    byte order, when the launch ends (also when it fails, as in-place writes would have been).
    Swapped arguments that share memory share one copy, so aliasing is kept.
    """
    host = [
        as_host_numpy(a) if info is not None else a for a, info in zip(args, infos, strict=True)
    ]
    arrays = [(i, a) for i, a in enumerate(host) if isinstance(a, np.ndarray)]
    if all(a.dtype.isnative for _, a in arrays):
        yield host
        return
    write_back: list[tuple[np.ndarray, np.ndarray]] = []
    for group in _sharing_memory(arrays):
        if all(a.dtype.isnative for _, a in group):
            continue
        for (i, a), copy in zip(group, _native_copies([a for _, a in group]), strict=True):
            host[i] = copy
            if a.flags.writeable:
                write_back.append((a, copy))
    try:
        yield host
    finally:
        for a, copy in write_back:
            a[...] = copy


def overlapping_groups(spans: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Indices of byte spans ``[lo, hi)`` grouped by overlap, each group in address order;
    empty spans stand alone at the end. Arrays in one group share memory."""
    groups: list[list[int]] = []
    end = -1
    for i in sorted((i for i, (lo, hi) in enumerate(spans) if hi > lo), key=lambda i: spans[i]):
        lo, hi = spans[i]
        if groups and lo < end:
            groups[-1].append(i)
            end = max(end, hi)
        else:
            groups.append([i])
            end = hi
    return groups + [[i] for i, (lo, hi) in enumerate(spans) if hi <= lo]


def _sharing_memory(arrays: list[tuple[int, np.ndarray]]) -> list[list[tuple[int, np.ndarray]]]:
    """The arrays grouped by overlapping memory (empty arrays alone)."""
    groups = overlapping_groups([_span(a) for _, a in arrays])
    return [[arrays[i] for i in group] for group in groups]


def _span(a: np.ndarray) -> tuple[int, int]:
    lo = int(a.ctypes.data)
    return lo, lo + a.nbytes


def _native_copies(group: list[np.ndarray]) -> list[np.ndarray]:
    """Native-order copies of arrays sharing memory, as views of one buffer laid out like theirs
    (same offsets, same alignment): a store through one is seen through the others."""
    size = group[0].dtype.itemsize
    base = min(_span(a)[0] for a in group)
    if any(
        a.dtype.isnative or a.dtype.itemsize != size or (_span(a)[0] - base) % size for a in group
    ):
        kinds = ", ".join(sorted({a.dtype.str for a in group}))
        raise LaunchError(
            f"array arguments share memory with mixed byte orders or element sizes ({kinds}); "
            "pass native-byte-order arrays (a.astype(a.dtype.newbyteorder('=')))"
        )
    end = max(_span(a)[1] for a in group)
    raw = np.empty(end - base + _COPY_ALIGNMENT, np.uint8)
    start = (base - raw.ctypes.data) % _COPY_ALIGNMENT
    buf = raw[start : start + end - base]
    for a in group:
        lo = _span(a)[0] - base
        buf[lo : lo + a.nbytes] = a.reshape(-1).view(np.uint8)
    buf.view(f"u{size}").byteswap(inplace=True)
    copies = []
    for a in group:
        lo = _span(a)[0] - base
        copy = buf[lo : lo + a.nbytes].view(a.dtype.newbyteorder("=")).reshape(a.shape)
        copy.setflags(write=a.flags.writeable)
        copies.append(copy)
    return copies
