"""Tensor maps the kernel writes itself: which ``tt.make_tensor_map`` a TMA copy may read, and
how software pipelining records one it reads (``dialects/tt/tensor_map.py``).

A map qualifies when it is made at the kernel's top level (once per program, before any loop
reads it) and its tensor satisfies the copy engine's alignment wherever the kernel runs: the
base a multiple of 16 bytes and the outer stride a multiple of 16 bytes, as the axis analysis
proves them from the launch's specialization (Triton's ``tt.divisibility``), the last stride 1
(the frontend's rule). Recording the first map also gives the kernel its global scratch: an
``!tt.ptr<i8>`` last argument, whose ``GLOBAL_SCRATCH_ATTR`` bytes per program the runtime
allocates at each launch.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, IntegerAttr, i64
from xdsl.ir import OpResult, SSAValue

from mytriton.dialects.tt.core import TENSOR_MAP_TYPE
from mytriton.dialects.tt.tensor_map import (
    GLOBAL_SCRATCH_ATTR,
    SCRATCH_SLOT_BYTES,
    MakeTensorMapOp,
    global_scratch,
)
from mytriton.dialects.tt.types import byte_size
from mytriton.passes.analysis.axis_info import AxisAnalysis

#: bytes: the copy engine's alignment of a tensor's base and of its strides
TMA_ALIGNMENT = 16
SCRATCH_NAME = "global_scratch"


def made_map(value: SSAValue, kernel: func.FuncOp) -> MakeTensorMapOp | None:
    """The ``tt.make_tensor_map`` at ``kernel``'s top level that defines ``value``, if any."""
    if not isinstance(value, OpResult) or not isinstance(value.op, MakeTensorMapOp):
        return None
    return value.op if value.op.parent_block() is kernel.body.block else None


def aligned_for_tma(op: MakeTensorMapOp, axis: AxisAnalysis) -> bool:
    """Whether the axis analysis proves the base and the strides but the last 16-byte
    aligned (the module doc)."""
    size = byte_size(op.element.pointee)
    if axis[op.base].element_divisibility(0) % TMA_ALIGNMENT:
        return False
    return all(
        (axis[s].element_divisibility(0) * size) % TMA_ALIGNMENT == 0 for s in op.strides[:-1]
    )


def record_device_map(
    kernel: func.FuncOp, op: MakeTensorMapOp, box: tuple[int, ...], swizzle: int, span: int
) -> bool:
    """Record that TMA copies read ``op``'s map in ``box``es with ``swizzle`` (and spans of
    ``span`` rotated groups), giving it a scratch slot; False where it is read otherwise
    already (one map, one box: the second use stays a load)."""
    known = op.copies()
    if known is not None:
        return known[:3] == (box, swizzle, span)
    used = global_scratch(kernel)
    if not used:
        _add_scratch_argument(kernel)
    op.record(box, swizzle, span, used // SCRATCH_SLOT_BYTES)
    kernel.attributes[GLOBAL_SCRATCH_ATTR] = IntegerAttr(used + SCRATCH_SLOT_BYTES, i64)
    return True


def scratch_argument(kernel: func.FuncOp) -> SSAValue:
    """The kernel's global scratch (its last argument, where ``global_scratch`` is not 0)."""
    assert global_scratch(kernel), "a kernel that writes tensor maps"
    return kernel.body.block.args[-1]


def _add_scratch_argument(kernel: func.FuncOp) -> None:
    block = kernel.body.block
    arg = block.insert_arg(TENSOR_MAP_TYPE, len(block.args))
    arg.name_hint = SCRATCH_NAME
    t = kernel.function_type
    kernel.function_type = FunctionType.from_lists(
        [*t.inputs.data, TENSOR_MAP_TYPE], list(t.outputs.data)
    )
    if kernel.arg_attrs is not None:
        kernel.arg_attrs = ArrayAttr([*kernel.arg_attrs.data, DictionaryAttr({})])
