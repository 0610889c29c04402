"""Host-side tensor descriptors (``triton.tools.tensor_descriptor.TensorDescriptor``).

A kernel argument that describes a strided tensor and the block shape the kernel loads and
stores it in; inside the kernel it is what ``tl.make_tensor_descriptor`` returns
(``desc.load(offsets)``, ``desc.store(offsets, value)``, ``desc.shape``...). The launch passes
its base as a pointer, its shape as int32 and its strides as int64 scalars; the block shape,
the padding and the element type are part of the specialization (``block_shape`` may be changed
between launches, as Triton's autotuned tutorials do in a ``pre_hook``). The checks are
Triton 3.6's: rank 1 to 5, a contiguous last dimension, a 16-byte aligned base and 16-byte
multiple strides, blocks of powers of two; and, at launch only, at least 16 bytes a block row
(Triton's constructor allows less: libraries make descriptors with a placeholder block such as
``[1, 1]`` and set the real one in an autotune ``pre_hook``, as Liger-Kernel's MLP does).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mytriton.backends.arrays import ArrayInfo, describe_array, is_array
from mytriton.errors import LaunchError

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
        self.validate(launch=False)

    def validate(self, launch: bool = True) -> ArrayInfo:
        """Triton's checks (the launch repeats them: ``block_shape`` may have changed), with
        the row size of the block only at ``launch``; the base's metadata."""
        rank = len(self.shape)
        if not 1 <= rank <= MAX_RANK:
            raise LaunchError(f"TensorDescriptor: rank must be 1 to {MAX_RANK}, got {rank}")
        for name, values in (("strides", self.strides), ("block_shape", self.block_shape)):
            if len(values) != rank:
                raise LaunchError(
                    f"TensorDescriptor: {name} has {len(values)} entries for a rank-{rank} shape"
                )
        if not is_array(self.base):
            raise LaunchError(
                f"TensorDescriptor: base must be an array, got {type(self.base).__name__}"
            )
        info = describe_array(self.base, "TensorDescriptor's base")
        size = max(info.dtype.primitive_bitwidth // 8, 1)
        if info.address % ALIGNMENT:
            raise LaunchError("TensorDescriptor: base must be 16-byte aligned")
        if self.strides[-1] != 1:
            raise LaunchError(
                f"TensorDescriptor: the last dimension must be contiguous (stride 1), got "
                f"strides {self.strides}"
            )
        if any((s * size) % ALIGNMENT for s in self.strides[:-1]):
            raise LaunchError(
                f"TensorDescriptor: strides {self.strides} of {size}-byte elements must be "
                "multiples of 16 bytes (but the last)"
            )
        for b in self.block_shape:
            if not isinstance(b, int) or b < 1 or b & (b - 1):
                raise LaunchError(
                    f"TensorDescriptor: block_shape {self.block_shape} must be powers of two"
                )
        if launch and self.block_shape[-1] * size < ALIGNMENT:
            raise LaunchError(
                "TensorDescriptor: the block shape must have at least 16 bytes in the last "
                f"dimension, got {self.block_shape[-1]} * {size} bytes"
            )
        if self.padding not in ("zero", "nan"):
            raise LaunchError(
                f"TensorDescriptor: padding must be 'zero' or 'nan', got {self.padding!r}"
            )
        if self.padding == "nan" and info.dtype.kind != "float":
            raise LaunchError(f"TensorDescriptor: padding 'nan' needs floats, not {info.dtype}")
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
