"""Host-side tensor descriptors (``triton.tools.tensor_descriptor.TensorDescriptor``).

A kernel argument that describes a strided tensor and the block shape the kernel loads and
stores it in; inside the kernel it is what ``tl.make_tensor_descriptor`` returns
(``desc.load(offsets)``, ``desc.store(offsets, value)``, ``desc.shape``...). The launch passes
its base as a pointer, its shape as int32 and its strides as int64 scalars; the block shape,
the padding and the element type are part of the specialization (``block_shape`` may be changed
between launches, as Triton's autotuned tutorials do in a ``pre_hook``). The checks are
Triton 3.6's, at construction, in its order and with its exception types: rank 1 to 5, a
16-byte aligned base, blocks of powers of two (a ``ValueError``), 16-byte multiple strides, a
positive shape, a contiguous last dimension (``AssertionError``s). A launch checks them again,
and rows of at least 16 bytes (Triton's driver refuses fewer when it makes the tensor map).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mytriton.backends.arrays import ArrayInfo, describe_array, is_array
from mytriton.errors import DescriptorAssertionError, DescriptorValueError

MAX_RANK = 5
ALIGNMENT = 16  # bytes: the base and every stride but the last


@dataclass
class TensorDescriptor:
    """``base`` (an array), its ``shape`` and ``strides`` in elements, and the ``block_shape``
    a kernel moves; out-of-bounds elements of a load read ``padding`` (``"zero"`` or
    ``"nan"``)."""

    base: Any
    shape: list[int]
    strides: list[int]
    block_shape: list[int]
    padding: str = "zero"

    def __post_init__(self) -> None:
        self.shape, self.strides = list(self.shape), list(self.strides)
        self.block_shape = list(self.block_shape)
        self.check()

    def check(self) -> ArrayInfo:
        """Triton's checks, in its order and with its exception types (``AssertionError``, a
        ``ValueError`` for a block size that is not a power of two) and words; the base's
        metadata."""
        rank = len(self.shape)
        for name, values in (("strides", self.strides), ("block_shape", self.block_shape)):
            if len(values) != rank:
                raise DescriptorAssertionError(
                    f"TensorDescriptor: rank mismatch: {name} has {len(values)} entries for a "
                    f"rank-{rank} shape"
                )
        if not 1 <= rank <= MAX_RANK:
            raise DescriptorAssertionError(
                f"TensorDescriptor: rank must be 1 to {MAX_RANK}, got {rank}"
            )
        if not is_array(self.base):
            raise DescriptorAssertionError(
                f"TensorDescriptor: base must be an array, got {type(self.base).__name__}"
            )
        info = describe_array(self.base, "TensorDescriptor's base")
        size = max(info.dtype.primitive_bitwidth // 8, 1)
        if info.address % ALIGNMENT:
            raise DescriptorAssertionError("TensorDescriptor: base must be 16-byte aligned")
        for i, b in enumerate(self.block_shape):
            if not isinstance(b, int) or isinstance(b, bool) or b < 1 or b & (b - 1):
                raise DescriptorValueError(
                    f"TensorDescriptor: block_shape {self.block_shape}: Shape element {i} must "
                    "be a power of 2"
                )
        if any((s * size) % ALIGNMENT for s in self.strides[:-1]):
            raise DescriptorAssertionError(
                f"TensorDescriptor: strides must be 16-byte aligned: strides {self.strides} of "
                f"{size}-byte elements must be multiples of 16 bytes (but the last)"
            )
        if any(d <= 0 for d in self.shape):
            raise DescriptorAssertionError(
                f"TensorDescriptor: shape must be positive, got {self.shape}"
            )
        if self.strides[-1] != 1:
            raise DescriptorAssertionError(
                f"TensorDescriptor: Last dimension must be contiguous (stride 1), got strides "
                f"{self.strides}"
            )
        if self.padding not in ("zero", "nan"):
            raise DescriptorAssertionError(
                f"TensorDescriptor: Illegal value for padding: {self.padding!r} (use 'zero' or "
                "'nan')"
            )
        if self.padding == "nan" and info.dtype.kind != "float":
            raise DescriptorAssertionError(
                f"TensorDescriptor: Padding option `nan` is only supported for floating point "
                f"tensors, not {info.dtype}"
            )
        return info

    def validate(self) -> ArrayInfo:
        """At a launch: Triton's checks again (the fields may have changed since), and what a
        GPU's tensor map needs, which Triton leaves to the driver at its launch: rows of at
        least 16 bytes. The base's metadata."""
        info = self.check()
        size = max(info.dtype.primitive_bitwidth // 8, 1)
        if self.block_shape[-1] * size < ALIGNMENT:
            raise DescriptorValueError(
                "TensorDescriptor: the block shape must have at least 16 bytes in the last "
                f"dimension, got {self.block_shape[-1]} * {size} bytes"
            )
        return info

    @staticmethod
    def from_tensor(
        tensor: Any, block_shape: Sequence[int], padding: str = "zero"
    ) -> TensorDescriptor:
        """A descriptor of the whole of ``tensor`` (NumPy, CuPy or torch), strides from it."""
        return TensorDescriptor(
            tensor, list(tensor.shape), element_strides(tensor), list(block_shape), padding
        )


def as_descriptor(value: Any) -> TensorDescriptor | None:
    """``value`` as a host descriptor: itself, or one of Triton's own class (its module is
    ``triton.tools.tensor_descriptor``) copied; None for anything else."""
    if isinstance(value, TensorDescriptor):
        return value
    t = type(value)
    if t.__name__ == "TensorDescriptor" and t.__module__ == "triton.tools.tensor_descriptor":
        return TensorDescriptor(
            value.base, value.shape, value.strides, value.block_shape, value.padding
        )
    return None


def element_strides(tensor: Any) -> list[int]:
    """``tensor``'s strides in elements (torch's ``stride()``; NumPy's and CuPy's bytes over
    the element size)."""
    stride = getattr(tensor, "stride", None)
    if callable(stride):
        return [int(s) for s in stride()]
    itemsize = int(tensor.dtype.itemsize)
    return [int(s) // itemsize for s in tensor.strides]
