"""What a kernel's TMA copies read: a tensor map of one host descriptor, in the form the
backend's kernels read it (``Backend.tensor_map``).

The compiled kernel says which of its tensor-map arguments it reads and with which box and
swizzle (``kernel.metadata["tensor_maps"]``, from ``ttg_tma``); the runtime asks the backend
for each, at a launch, from the descriptor's base array, shape and strides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mytriton.backends.arrays import ArrayInfo


@dataclass(frozen=True)
class TensorMapRequest:
    """A tensor map to make: the tensor (elements, outermost dimension first; the last stride
    is 1) whose base is kernel parameter ``base_param``, copied in ``box``es (outermost first)
    into tiles swizzled over ``swizzle`` bytes (0: none)."""

    base: Any
    info: ArrayInfo
    base_param: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    box: tuple[int, ...]
    swizzle: int

    @property
    def element_bytes(self) -> int:
        return max(1, self.info.dtype.primitive_bitwidth // 8)

    def key(self) -> tuple[Any, ...]:
        """Everything the map's bytes depend on (a map of one is a map of the other)."""
        i = self.info
        return (
            i.framework,
            i.device,
            i.address,
            i.dtype.name,
            self.base_param,
            self.shape,
            self.strides,
            self.box,
            self.swizzle,
        )
