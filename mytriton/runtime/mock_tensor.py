"""``MockTensor``: a stand-in for an array in ``kernel.warmup`` (Triton's class), so a kernel
compiles for a pointer dtype without an array: ``kernel.warmup(torch.float32, ..., grid=...)``
or ``kernel.warmup(MockTensor(torch.float32), ...)``. Its address is taken as 16-byte aligned,
as Triton does; launching with one is an error (there is no memory behind it)."""

from __future__ import annotations

from typing import Any

from mytriton.backends.arrays import _dtype_of
from mytriton.language import core


class MockTensor:
    """An array of ``dtype`` (a torch, NumPy or tl dtype) with no memory."""

    def __init__(self, dtype: Any, shape: list[int] | None = None):
        self.dtype = dtype
        self.shape = [1] if shape is None else list(shape)

    def tl_dtype(self, what: str) -> core.dtype:
        """The element dtype, as an array of this dtype would have it."""
        if isinstance(self.dtype, core.dtype):
            return self.dtype
        return _dtype_of(str(self.dtype).removeprefix("torch."), what)

    @staticmethod
    def wrap_dtype(arg: Any) -> Any:
        """``arg`` as a ``MockTensor`` where it is a torch dtype, else itself."""
        if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
            return MockTensor(arg)
        return arg
