"""The global scratch of a launch: the memory a kernel that writes its own tensor maps (a
``tl.make_tensor_descriptor`` whose blocks are TMA copies, ``dialects/tt/tensor_map.py``) keeps
them in, ``kernel.metadata["global_scratch"]`` bytes per program, passed as the kernel's last
argument.

Each launch gets its own, from the allocator ``triton.set_allocator`` recorded where one is
and the arrays are torch's (Triton's way, told the launch's stream), else from the framework and
device of the launch's arrays: CUDA torch and CuPy allocate in stream order on the stream the
kernel runs on (the current one, or the one the launch names), so the memory is not reused
before the kernel is done with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from mytriton.backends.arrays import ArrayInfo, describe_array
from mytriton.backends.compiled import CompiledKernel
from mytriton.runtime._allocation import NullAllocator, _allocator

#: the alignment the kernel's slots need (a tensor map: 64 bytes; CUDA allocations give 256)
SCRATCH_ALIGNMENT = 128
SCRATCH = "the kernel's global scratch"


def scratch_bytes(kernel: CompiledKernel) -> int:
    """Bytes of global scratch one program of ``kernel`` needs (0: none)."""
    return int(kernel.metadata.get("global_scratch", 0))


class GlobalScratch:
    """Makes each launch's scratch, like the arrays of the launch that planned it."""

    def __init__(self, per_program: int, infos: Sequence[ArrayInfo | None]):
        self.per_program = per_program
        first = next((i for i in infos if i is not None), None)
        self.framework = first.framework if first is not None else "numpy"
        self.device = first.device if first is not None else None

    @cached_property
    def info(self) -> ArrayInfo:
        """What a plan's launcher knows of the scratch (its framework and device)."""
        return describe_array(self.allocate(1), SCRATCH)

    def allocate(self, programs: int, stream: int | None = None) -> Any:
        """The scratch of a launch of ``programs`` programs on ``stream`` (a raw ``CUstream``;
        None: the current stream)."""
        size = max(self.per_program * programs, 1)
        if self.framework == "torch":
            allocator = _allocator.get()
            if not isinstance(allocator, NullAllocator):
                return allocator(size, SCRATCH_ALIGNMENT, stream)
            import torch

            if self.device is None:
                return torch.empty(size, dtype=torch.int8)
            where = torch.device("cuda", self.device)
            if stream is None:
                return torch.empty(size, dtype=torch.int8, device=where)
            with torch.cuda.stream(torch.cuda.ExternalStream(stream, device=where)):
                return torch.empty(size, dtype=torch.int8, device=where)
        if self.device is not None:
            import cupy

            with cupy.cuda.Device(self.device):
                if stream is None:
                    return cupy.empty(size, np.int8)
                with cupy.cuda.ExternalStream(stream):
                    return cupy.empty(size, np.int8)
        return np.zeros(size, np.int8)


def with_scratch(
    kernel: CompiledKernel,
    grid: tuple[int, int, int],
    args: Sequence[Any],
    infos: list[ArrayInfo | None],
    stream: int | None = None,
) -> tuple[Any, ...]:
    """``args`` with the scratch a launch of ``kernel`` over ``grid`` on ``stream`` needs
    appended (and its info appended to ``infos``), or ``args`` unchanged for a kernel that needs
    none."""
    per_program = scratch_bytes(kernel)
    if not per_program:
        return tuple(args)
    scratch = GlobalScratch(per_program, infos)
    array = scratch.allocate(grid[0] * grid[1] * grid[2], stream)
    infos.append(describe_array(array, SCRATCH))
    return (*args, array)
