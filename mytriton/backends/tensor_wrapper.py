"""``mytriton.reinterpret``: an array's memory passed to kernels as elements of another dtype.

Triton's way to pass dtypes no array library has (``fp8e4b15``; fp8 from CuPy, which has no
fp8 dtypes): ``kernel[grid](triton.reinterpret(bytes_array, tl.float8e4b15))``. The kernel sees
a pointer to ``dtype``; the wrapped array must hold elements of the same size. As in Triton,
``dtype`` may be a ``tl`` dtype or any dtype that names one: ``torch.float8_e4m3fn``,
``np.dtype("float32")``, ``"fp32"`` (``tl_dtype`` reads it).
"""

from __future__ import annotations

import sys
from typing import Any

from mytriton.dialects.tt import dtype_table
from mytriton.language import core


def _names() -> dict[str, core.dtype]:
    """Every spelling of a dtype Triton's ``canonicalize_dtype`` reads: ``tl`` names
    (``float8e4nv``, ``fp32``), short forms (``i32``, ``u8``, ``bf16``) and NumPy/torch names."""
    names: dict[str, core.dtype] = {}
    for r in dtype_table.ROWS:
        d = core.DTYPES[r.dtype_name]
        names.update({r.name: d, r.dtype_name: d, r.signature: d})
        if r.array:
            names[r.numpy] = d
    # C's and torch's other spellings, which no row holds
    names.update(
        uint1=core.int1,
        u1=core.int1,
        half=core.float16,
        float=core.float32,
        double=core.float64,
        int=core.int32,
    )
    return names


_DTYPE_NAMES = _names()


def tl_dtype(dtype: Any) -> core.dtype | None:
    """The ``tl`` dtype ``dtype`` names (the part of ``str(dtype)`` after its last dot, as
    Triton reads it: ``torch.float16`` and ``np.dtype("float16")`` are ``tl.float16``); None
    where it names none."""
    if isinstance(dtype, core.dtype):
        return dtype if dtype in core.DTYPES.values() else None
    return _DTYPE_NAMES.get(str(dtype).split(".")[-1])


class TensorWrapper:
    """``base`` (a NumPy, CuPy or torch array) seen as an array of ``dtype`` (a ``tl`` dtype or
    a dtype naming one, kept as given, as in Triton)."""

    def __init__(self, base: Any, dtype: Any):
        self.base = base
        self.dtype = dtype
        self.data = base.data
        self.shape = base.shape

    def data_ptr(self) -> int:
        return int(self.base.data_ptr())

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def element_size(self) -> int:
        d = tl_dtype(self.dtype)
        if d is None:
            raise TypeError(f"{self.dtype!r} names no dtype")
        return max(1, d.primitive_bitwidth // 8)

    @property
    def device(self) -> Any:
        return getattr(self.base, "device", "cpu")  # NumPy < 2 arrays have none

    # Triton's wrapper methods (tests build outputs with them); each applies the base array's
    # own method (torch's, else the NumPy/CuPy equivalent) and keeps the reinterpretation.

    def new_empty(self, *sizes: Any) -> TensorWrapper:
        """An uninitialised wrapper of ``sizes`` (one sequence, or the sizes themselves)."""
        shape = tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], int) else sizes
        if hasattr(self.base, "new_empty"):  # torch
            return TensorWrapper(self.base.new_empty(shape), self.dtype)
        return TensorWrapper(_array_module(self.base).empty(shape, self.base.dtype), self.dtype)

    def clone(self) -> TensorWrapper:
        base = self.base.clone() if hasattr(self.base, "clone") else self.base.copy()
        return TensorWrapper(base, self.dtype)

    def copy_(self, other: TensorWrapper) -> None:
        if hasattr(self.base, "copy_"):  # torch
            self.base.copy_(other.base)
        else:
            self.base[...] = other.base

    def cpu(self) -> TensorWrapper:
        if hasattr(self.base, "cpu"):  # torch
            return TensorWrapper(self.base.cpu(), self.dtype)
        if hasattr(self.base, "get"):  # CuPy
            return TensorWrapper(self.base.get(), self.dtype)
        return TensorWrapper(self.base, self.dtype)

    def to(self, device: Any) -> TensorWrapper:
        """torch only, as Triton's (a NumPy or CuPy base has no ``to``)."""
        return TensorWrapper(self.base.to(device), self.dtype)

    def __repr__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base!r})"


def _array_module(array: Any) -> Any:
    """``numpy`` or ``cupy``: the package of ``array``'s type."""
    return sys.modules[type(array).__module__.split(".")[0]]


def reinterpret(tensor: Any, dtype: Any) -> Any:
    """``tensor``'s memory as elements of ``dtype`` (back to ``tensor.base`` when ``tensor`` is a
    wrapper and ``dtype`` its base's own dtype, as in Triton)."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr") or hasattr(tensor, "__cuda_array_interface__"):
        return TensorWrapper(tensor, dtype)
    if hasattr(tensor, "__array_interface__"):  # NumPy arrays
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"Cannot reinterpret a {type(tensor)}.")
