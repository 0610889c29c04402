"""``mytriton.reinterpret``: an array's memory passed to a kernel as elements of another dtype.

Triton's way to pass dtypes no array library has (``fp8e4b15``; fp8 from CuPy, which has no
fp8 dtypes): ``kernel[grid](triton.reinterpret(bytes_array, tl.float8e4b15))``. The kernel sees
a pointer to ``dtype``; the wrapped array must hold elements of the same size.
"""

from __future__ import annotations

from typing import Any

from mytriton.language import core


class TensorWrapper:
    """``base`` (a NumPy, CuPy or torch array) seen as an array of ``dtype`` (a ``tl`` dtype)."""

    def __init__(self, base: Any, dtype: core.dtype):
        self.base = base
        self.dtype = dtype
        self.data = base.data
        self.shape = base.shape

    def data_ptr(self) -> int:
        return int(self.base.data_ptr())

    def stride(self, *args: Any) -> Any:
        return self.base.stride(*args)

    def element_size(self) -> int:
        return int(self.dtype.primitive_bitwidth // 8)

    def __repr__(self) -> str:
        return f"TensorWrapper[{self.dtype}]({self.base!r})"


def reinterpret(tensor: Any, dtype: core.dtype) -> Any:
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
