"""Shared memory past 48 KiB: the kernel's buffers as views of dynamic shared memory.

Static ``__shared__`` arrays (our ``memref.global``s in address space 3) may total 48 KiB a
program; more (up to the device's opt-in maximum) must be *dynamic* shared memory, sized at
launch. When a kernel's buffers exceed the static limit, each ``memref.get_global @smem_i`` of
the lowered kernel becomes, once at its entry::

    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %w = memref.view %dyn[%offset][] : ... to memref<N x T, #gpu.address_space<workgroup>>
    %smem_i = memref.memory_space_cast %w : ... to memref<N x T, 3>

(each buffer at the offset ``shared_alloc`` gives it, at its alignment: 16 bytes, 1024 for
swizzled tiles; buffers never live at once may share bytes; the cast gives back the type every
other op of the kernel uses), and the kernel records the bytes
to launch with in ``DYNAMIC_SHARED_ATTR``: the runtime passes them to ``cuLaunchKernel`` and
raises the function's dynamic shared memory limit to them. Kernels within 48 KiB keep their
static arrays.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, gpu, memref
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, i32
from xdsl.ir import Operation, SSAValue

from mytriton.dialects.nvgpu.upstream import WORKGROUP, DynamicSharedMemoryOp
from mytriton.passes.gpu_lowering.abi import DYNAMIC_SHARED_ATTR
from mytriton.passes.gpu_lowering.context import SharedBuffer


def use_dynamic_shared_memory(
    kernel: gpu.FuncOp, buffers: Sequence[SharedBuffer], offsets: Sequence[int], total: int
) -> None:
    """Rewrite ``kernel``'s shared buffers as views of dynamic shared memory at ``offsets``
    (module doc), ``total`` bytes in all."""
    body = kernel.body.block
    first = body.first_op
    assert first is not None
    entry: list[Operation] = []
    dyn = DynamicSharedMemoryOp()
    entry.append(dyn)
    views: dict[str, SSAValue] = {}
    for b, offset in zip(buffers, offsets, strict=True):
        at = arith.ConstantOp(IntegerAttr(offset, IndexType()))
        workgroup = MemRefType(b.type.element_type, b.type.get_shape(), memory_space=WORKGROUP)
        view = memref.ViewOp(dyn.result, at.result, [], workgroup)
        cast = memref.MemorySpaceCastOp(view.results[0], b.type)
        cast.results[0].name_hint = b.name
        entry += [at, view, cast]
        views[b.name] = cast.results[0]
    for op in entry:
        op.location = kernel.location
    body.insert_ops_before(entry, first)
    for op in list(kernel.walk()):
        if isinstance(op, memref.GetGlobalOp):
            name = op.name_.root_reference.data
            if name in views:
                op.memref.replace_all_uses_with(views[name])
                op.detach()
                op.erase()
    kernel.attributes[DYNAMIC_SHARED_ATTR] = IntegerAttr(total, i32)
