"""``triton.set_allocator``: where Triton gets global scratch memory at launch (TMA descriptors
built in a kernel, for one). mytriton's kernels that write their own tensor maps take their
scratch from it on launches with torch tensors (``runtime/global_scratch.py``), and from the
arrays' framework where none is set (Triton requires one)."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, Protocol


class Allocator(Protocol):
    def __call__(self, size: int, alignment: int, stream: int | None) -> Any: ...


class NullAllocator:
    """The allocator in place until one is set: it refuses to allocate."""

    def __call__(self, size: int, alignment: int, stream: int | None) -> Any:
        raise RuntimeError(
            "Kernel requires a runtime memory allocation, but no allocator was set. "
            "Use triton.set_allocator to specify an allocator."
        )


_NULL_ALLOCATOR = NullAllocator()

_allocator: ContextVar[Allocator] = ContextVar("_allocator", default=_NULL_ALLOCATOR)


def set_allocator(allocator: Allocator) -> None:
    """Record the allocator for kernels that need global scratch memory."""
    _allocator.set(allocator)
