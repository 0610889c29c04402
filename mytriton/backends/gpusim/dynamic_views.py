"""Views of dynamic shared memory: past 48 KiB the lowering cuts the kernel's buffers out of
its *dynamic* shared memory (``gpu.dynamic_shared_memory``, then ``memref.view`` at a constant
byte offset, then ``memref.memory_space_cast`` to address space 3:
``mytriton/passes/gpu_lowering/dynamic_shared.py``). ``dynamic_views`` finds and checks them
when a kernel is loaded; ``shared_memory.SharedMemory`` places each in the program's window.

Views may overlap where the lowering reuses bytes of buffers never live at once
(``passes/gpu_lowering/shared_alloc.py``): each view stays a buffer of its own, with shared
addresses of its own, and ``shared_aliases`` checks every access against the views sharing its
bytes.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, NoneAttr
from xdsl.ir import Attribute, SSAValue

from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.dialects.nvgpu.upstream import WORKGROUP, DynamicSharedMemoryOp
from mytriton.passes.gpu_lowering.abi import DYNAMIC_SHARED_ATTR

#: the byte alignment of a view's offset in dynamic shared memory (docs/gpu-ir.md): like static
#: buffers, so a thread's 16-byte vector accesses and ``ldmatrix`` rows stay aligned
DYNAMIC_VIEW_ALIGNMENT = 16
#: what the simulator holds for a ``gpu.dynamic_shared_memory`` value (only views read it)
DYNAMIC_REGION = "dynamic shared memory"


def is_shared_space(space: Attribute) -> bool:
    """Address space 3 or ``#gpu.address_space<workgroup>``: shared memory."""
    return space == WORKGROUP or (isinstance(space, IntegerAttr) and space.value.data == 3)


@dataclass(frozen=True)
class DynamicView:
    """A buffer cut out of the kernel's dynamic shared memory by a ``memref.view``."""

    op: memref.ViewOp
    name: str
    offset: int  #: bytes from the dynamic region's start
    type: MemRefType

    @property
    def dtype(self) -> np.dtype:
        return dtype_of(self.type.element_type)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.type.get_shape())) * self.dtype.itemsize


def _view_name_hint(view: memref.ViewOp) -> str | None:
    """The name the lowering gave the buffer: its ``memory_space_cast``'s name hint (the value
    every other op uses), else the view's own."""
    for use in view.result.uses:
        cast = use.operation
        if isinstance(cast, memref.MemorySpaceCastOp) and cast.dest.name_hint:
            return cast.dest.name_hint
    return view.result.name_hint


def _view(op: memref.ViewOp, limit: int) -> tuple[int, MemRefType]:
    """The constant byte offset and the type of a view of dynamic shared memory, checked."""
    shift = op.byte_shift.owner
    value = shift.value if isinstance(shift, arith.ConstantOp) else None
    if not isinstance(value, IntegerAttr):
        raise SimulationError(
            "gpusim models views of dynamic shared memory at constant byte offsets only (an "
            "arith.constant index)",
            op,
        )
    offset = value.value.data
    t = op.result.type
    if (
        op.sizes
        or not isinstance(t, MemRefType)
        or not isinstance(t.layout, NoneAttr)
        or any(d < 0 for d in t.get_shape())
    ):
        raise SimulationError(
            f"gpusim models views of dynamic shared memory as static-shape memrefs with the "
            f"identity layout only, not {op.result.type}",
            op,
        )
    if not is_shared_space(t.memory_space):
        raise SimulationError(f"a view of dynamic shared memory must stay shared, not {t}", op)
    try:
        itemsize = dtype_of(t.element_type).itemsize
    except SimulationError as e:
        raise SimulationError(e.message, op) from None
    if offset < 0 or offset % DYNAMIC_VIEW_ALIGNMENT:
        raise SimulationError(
            f"a view of dynamic shared memory at byte {offset}: offsets must be non-negative "
            f"multiples of {DYNAMIC_VIEW_ALIGNMENT} (docs/gpu-ir.md)",
            op,
        )
    end = offset + int(np.prod(t.get_shape())) * itemsize
    if end > limit:
        raise SimulationError(
            f"the view {t} at byte {offset} of dynamic shared memory runs past its end: bytes "
            f"{offset} to {end}, but the kernel launches with {limit} "
            f"({DYNAMIC_SHARED_ATTR})",
            op,
        )
    return offset, t


def dynamic_views(fn: gpu.FuncOp, taken: Collection[str] = ()) -> dict[SSAValue, DynamicView]:
    """The buffers ``fn`` cuts out of dynamic shared memory, by the ``memref.view`` result that
    is each: at constant, 16-byte aligned byte offsets (possibly overlapping: module doc), within
    the kernel's
    ``mytriton.dynamic_shared_memory`` bytes (a ``SimulationError`` otherwise). Each is named by
    its name hint (``smem``), made unique with its offset (``smem+1024``) where several views
    share one or it is among ``taken`` (the static buffers' names)."""
    regions = [op for op in fn.walk() if isinstance(op, DynamicSharedMemoryOp)]
    if not regions:
        return {}
    attr = fn.attributes.get(DYNAMIC_SHARED_ATTR)
    if not isinstance(attr, IntegerAttr):
        raise SimulationError(
            f"the kernel uses gpu.dynamic_shared_memory but has no {DYNAMIC_SHARED_ATTR} "
            "attribute (the bytes of dynamic shared memory it launches with)",
            regions[0],
        )
    limit = attr.value.data
    views: list[tuple[memref.ViewOp, int, MemRefType]] = []
    for region in regions:
        for use in region.result.uses:
            view = use.operation
            if not isinstance(view, memref.ViewOp) or use.index != 0:
                raise SimulationError(
                    "gpusim models gpu.dynamic_shared_memory only as the source of memref.view "
                    f"ops (a typed buffer at a constant offset), not of {view.name}",
                    view,
                )
            views.append((view, *_view(view, limit)))
    views.sort(key=lambda v: v[1])
    hints = [_view_name_hint(v) or "dynamic_smem" for v, _, _ in views]
    out: dict[SSAValue, DynamicView] = {}
    used = set(taken)
    for (op, offset, t), hint in zip(views, hints, strict=True):
        name = hint
        if hints.count(hint) > 1 or name in used:
            name = f"{hint}+{offset}"
        while name in used:
            name += "'"
        used.add(name)
        out[op.result] = DynamicView(op, name, offset, t)
    return out
