"""What launching a lowered kernel needs, apart from its binary: a plain record, so that a
kernel taken from the disk cache is launched without importing the lowering or xDSL's
dialects (``passes/gpu_lowering/abi.py`` reads it off a ``gpu`` module)."""

from __future__ import annotations

from dataclasses import dataclass

#: shared memory a program may have without asking for more: static ``__shared__`` arrays stop
#: here, and a launch with more dynamic shared memory must first raise the function's limit
STATIC_SHARED_LIMIT = 48 * 1024


@dataclass(frozen=True)
class KernelSignature:
    """What launching the kernel needs: its name, parameter kinds, thread-block shape and
    dynamic shared memory bytes.

    ``params`` holds ``"ptr"``, ``"i32"``, ``"i64"``, ``"f32"`` or ``"f64"`` per parameter (a
    scalar's kind is its dtype-table row's ``abi``: ``dialects/tt/dtype_table.py``).
    ``shared``: the dynamic shared memory to launch with (0 for a kernel whose shared buffers
    are static arrays; see ``gpu_lowering/dynamic_shared.py``).
    """

    name: str
    params: tuple[str, ...]
    block: tuple[int, int, int]
    shared: int = 0


def descriptor_leaves(rank: int) -> list[str]:
    """The names of a host descriptor's function arguments (after its parameter's), in order:
    its base, shape, strides but the last, and the tensor map the runtime makes where the
    compiled kernel copies blocks by TMA (``ttg_tma``; else any pointer, never read)."""
    r = range(rank)
    return ["base", *(f"shape{d}" for d in r), *(f"stride{d}" for d in r[:-1]), "tensor_map"]
