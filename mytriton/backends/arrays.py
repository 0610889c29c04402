"""Array arguments from NumPy, CuPy, PyTorch or any DLPack/CUDA-array-interface producer.

``describe_array`` turns an argument into framework-independent metadata (dtype, device, data
pointer) without importing frameworks the user did not pass. Arrays may have any strides (views,
transposes, negative and zero strides): as in Triton, the kernel gets the address of element
``[0, ..., 0]`` and indexes with the strides it is passed. ``host_arrays`` gives the CPU backends
NumPy arrays in native byte order, and ``host_memory`` the memory block each one points into.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from mytriton.backends.tensor_wrapper import TensorWrapper, tl_dtype
from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.semantics import bfloat16_dtype, numpy_dtype
from mytriton.errors import LaunchError
from mytriton.language import core

#: the dtype of an array, by its NumPy (ml_dtypes for bfloat16 and fp8) or torch dtype name:
#: the two share these names, as in Triton's table (fp8e4b15 has no array dtype of its own)
_NUMPY_DTYPES: dict[str, core.dtype] = {
    r.numpy: core.DTYPES[r.dtype_name] for r in dtype_table.ROWS if r.array
}


@dataclass(frozen=True)
class ArrayInfo:
    """What the launcher needs to know about one array argument."""

    framework: str  # "numpy", "cupy", "torch"
    dtype: core.dtype
    device: int | None  # CUDA device ordinal, None for host memory
    nbytes: int  # of its elements
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
    if isinstance(x, TensorWrapper):
        return _describe_wrapper(x, what)
    if isinstance(x, np.ndarray):
        return ArrayInfo(
            "numpy",
            _dtype_of(x.dtype.name, what),
            None,
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
            x.numel() * x.element_size(),
            int(x.data_ptr()),
        )
    if mod.startswith("cupy"):
        return ArrayInfo(
            "cupy",
            _dtype_of(x.dtype.name, what),
            int(x.device.id),
            int(x.nbytes),
            int(x.data.ptr),
        )
    raise LaunchError(f"{what}: unsupported array type {type(x).__module__}.{type(x).__name__}")


def array_address(x: Any) -> int:
    """The address of the first element of an array ``describe_array`` described (its
    ``address``, without the rest of the description)."""
    while isinstance(x, TensorWrapper):
        x = x.base
    if isinstance(x, np.ndarray):
        return int(x.ctypes.data)
    if type(x).__module__.startswith("torch"):
        return int(x.data_ptr())
    return int(x.data.ptr)


def _describe_wrapper(x: TensorWrapper, what: str) -> ArrayInfo:
    """A ``mytriton.reinterpret`` array: its base's memory, elements of the wrapper's dtype."""
    d = tl_dtype(x.dtype)
    if d is None:
        raise LaunchError(f"{what} is reinterpreted as {x.dtype!r}, which names no tl dtype")
    base = describe_array(x.base, what)
    if max(1, base.dtype.primitive_bitwidth // 8) != max(1, d.primitive_bitwidth // 8):
        raise LaunchError(
            f"{what}: cannot reinterpret an array of {base.dtype} as {d} (the element sizes differ)"
        )
    return ArrayInfo(base.framework, d, base.device, base.nbytes, base.address)


def as_host_numpy(x: Any) -> np.ndarray:
    """A NumPy view of a host array (zero-copy for CPU torch tensors), written in place."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, TensorWrapper):
        d = tl_dtype(x.dtype)
        if d is None:
            raise LaunchError(f"an array reinterpreted as {x.dtype!r}, which names no tl dtype")
        # the dtype the CPU backends hold its elements in (fp8e4b15's too: ml_dtypes' container)
        return as_host_numpy(x.base).view(numpy_dtype(dtype_table.BY_DTYPE_NAME[d.name].ir))
    mod = type(x).__module__
    if mod.startswith("torch"):
        return _torch_view(x.detach())
    raise LaunchError(f"{type(x).__name__} is not a host array")


def _torch_view(x: Any) -> np.ndarray:
    """``x.numpy()`` (same strides) as a view into an array over the tensor's whole storage, so
    that ``host_memory`` sees the memory block it points into, as for a NumPy view."""
    try:
        view = _torch_numpy(x)
    except (TypeError, RuntimeError) as e:  # a dtype NumPy lacks, a lazy conjugate...
        raise LaunchError(f"a CPU torch tensor the CPU backends cannot read: {e}") from None
    storage = x.untyped_storage()
    start, size = int(storage.data_ptr()), int(storage.nbytes())
    lo, hi = element_span(view)
    if view.size == 0 or not start <= lo <= hi <= start + size:
        return view
    block = _bytes_at(start, size, x, writeable=True)
    return np.ndarray(
        view.shape, view.dtype, buffer=block, offset=_address(view) - start, strides=view.strides
    )


def _torch_numpy(x: Any) -> np.ndarray:
    """``x.numpy()``; a bfloat16 or fp8 tensor, which NumPy cannot hold, as its bits viewed as
    ml_dtypes' type of the same name."""
    name = str(x.dtype).removeprefix("torch.")
    if name == "bfloat16":
        import torch

        return x.view(torch.int16).numpy().view(bfloat16_dtype())
    fmt = tt_fp8.format_named(name)
    if fmt is not None:
        import torch

        return x.view(torch.uint8).numpy().view(tt_fp8.container_dtype(fmt))
    return x.numpy()


# ------------------------------------------------------------------ the memory a view points into


@dataclass(frozen=True)
class HostMemory:
    """How a CPU backend addresses a host array: ``raw`` holds the bytes of the memory block the
    array points into (its base array's), from the first whole element on the array's element
    grid, and ``origin`` is the byte offset of element ``[0, ..., 0]`` in it.

    A pointer may move anywhere in ``raw``: a view's neighbours in its base are memory a GPU
    kernel may touch too, and only an access outside the block is out of bounds. ``raw`` is the
    caller's memory (stores land in place), read-only where the array is.
    """

    raw: np.ndarray
    origin: int


def host_memory(a: np.ndarray) -> HostMemory:
    """The memory block a host array (any strides) points into, and where its first element is."""
    lo, hi = memory_block(a)
    first = _address(a)
    start = lo + (first - lo) % a.dtype.itemsize
    raw = _bytes_at(start, max(hi - start, 0), a, writeable=bool(a.flags.writeable))
    return HostMemory(raw, first - start)


def memory_block(a: np.ndarray) -> tuple[int, int]:
    """Byte span ``[lo, hi)`` of the memory block ``a`` points into: that of the array at the end
    of its ``.base`` chain (the one owning the memory), widened to cover ``a``'s own elements."""
    owner = a
    while True:
        base = owner.base
        if isinstance(base, np.ndarray):
            owner = base
            continue
        inner = getattr(base, "base", None)
        if hasattr(base, "__array_interface__") and isinstance(inner, np.ndarray):
            owner = inner  # the wrapper np.lib.stride_tricks.as_strided puts between
        else:
            break
    lo, hi = element_span(a)
    owner_lo, owner_hi = element_span(owner)
    if owner_hi > owner_lo:
        return min(lo, owner_lo), max(hi, owner_hi)
    return lo, hi


def element_span(a: np.ndarray) -> tuple[int, int]:
    """Byte span ``[lo, hi)`` of an array's elements, whatever its strides (empty if it is)."""
    lo = hi = _address(a)
    if a.size == 0:
        return lo, lo
    for n, stride in zip(a.shape, a.strides, strict=True):
        step = (n - 1) * stride
        if step < 0:
            lo += step
        else:
            hi += step
    return lo, hi + a.dtype.itemsize


def _address(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


class _Bytes:
    """``size`` bytes at ``address`` in NumPy's array interface, keeping ``owner`` (what holds the
    memory) alive as long as the array made from it. An array built on it is the end of its
    ``.base`` chain, so ``memory_block`` of a view into it stops there."""

    def __init__(self, address: int, size: int, owner: object, writeable: bool):
        self.__array_interface__ = {
            "data": (address, not writeable),
            "shape": (size,),
            "typestr": "|u1",
            "version": 3,
        }
        self.owner = owner


def _bytes_at(address: int, size: int, owner: object, writeable: bool) -> np.ndarray:
    return np.asarray(_Bytes(address, size, owner, writeable))


# ------------------------------------------------------------------ byte order


#: the alignment (bytes) a native copy keeps from its array: launches specialize on it
_COPY_ALIGNMENT = 16


@contextmanager
def host_arrays(args: Sequence[Any], infos: Sequence[ArrayInfo | None]) -> Iterator[list[Any]]:
    """``args`` with each host array as a NumPy array in native byte order.

    A NumPy array may be byte-swapped (``dtype('>f4')`` on a little-endian host); kernels compute
    on native numbers, so such arrays run on a native copy of the memory block they point into,
    written back in the arrays' byte order when the launch ends (also when it fails, as in-place
    writes would have been). Swapped arguments that share memory share one copy, so aliasing is
    kept, and a view keeps its strides.
    """
    host = [
        as_host_numpy(a) if info is not None else a for a, info in zip(args, infos, strict=True)
    ]
    arrays = [(i, a) for i, a in enumerate(host) if isinstance(a, np.ndarray)]
    if all(a.dtype.isnative for _, a in arrays):
        yield host
        return
    write_back: list[Callable[[], None]] = []
    for group in _sharing_memory(arrays):
        if all(a.dtype.isnative for _, a in group):
            continue
        copies, restore = _native_copies([a for _, a in group])
        for (i, _), copy in zip(group, copies, strict=True):
            host[i] = copy
        write_back.append(restore)
    try:
        yield host
    finally:
        for restore in write_back:
            restore()


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
    """The arrays grouped by overlapping memory blocks (empty arrays alone)."""
    groups = overlapping_groups([memory_block(a) for _, a in arrays])
    return [[arrays[i] for i in group] for group in groups]


def _native_copies(group: list[np.ndarray]) -> tuple[list[np.ndarray], Callable[[], None]]:
    """Native-order copies of byte-swapped arrays sharing memory: views with their strides into
    one copy of their memory blocks, aligned like them, so a store through one is seen through
    the others; and the function that writes the copy back, in their byte order."""
    size = group[0].dtype.itemsize
    blocks = [memory_block(a) for a in group]
    base = min(lo for lo, _ in blocks)
    end = max(hi for _, hi in blocks)
    phases = {(_address(a) - base) % size for a in group}
    if len(phases) > 1 or any(a.dtype.isnative or a.dtype.itemsize != size for a in group):
        kinds = ", ".join(sorted({a.dtype.str for a in group}))
        raise LaunchError(
            f"array arguments share memory with mixed byte orders or element sizes ({kinds}); "
            "pass native-byte-order arrays (a.astype(a.dtype.newbyteorder('=')))"
        )
    raw = np.empty(end - base + _COPY_ALIGNMENT, np.uint8)
    address = raw.ctypes.data + (base - raw.ctypes.data) % _COPY_ALIGNMENT
    copy = _bytes_at(address, end - base, raw, writeable=True)
    copy[...] = _bytes_at(base, end - base, group, writeable=False)
    phase = phases.pop()
    elements = copy[phase : phase + (end - base - phase) // size * size].view(f"u{size}")
    elements.byteswap(inplace=True)
    copies = []
    for a in group:
        offset = _address(a) - base
        c = np.ndarray(
            a.shape, a.dtype.newbyteorder("="), buffer=copy, offset=offset, strides=a.strides
        )
        c.setflags(write=a.flags.writeable)
        copies.append(c)

    def restore() -> None:
        elements.byteswap(inplace=True)
        for a, (lo, hi) in zip(group, blocks, strict=True):
            if a.flags.writeable:
                _bytes_at(lo, hi - lo, a, writeable=True)[...] = copy[lo - base : hi - base]

    return copies, restore
