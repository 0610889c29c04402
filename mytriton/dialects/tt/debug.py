"""`tt` ops for debugging and for the compiler's eyes only: ``tt.print`` (``tl.device_print``),
``tt.assert`` (``tl.device_assert``, only built in debug mode), ``tt.assume`` (``tl.assume``)
and ``tt.elementwise_inline_asm`` (``tl.inline_asm_elementwise``).

``tl.debug_barrier`` is upstream's ``gpu.barrier`` already at the `tt` level, as in Triton; the
hints ``tl.multiple_of``/``max_contiguous``/``max_constancy`` are ``tt.divisibility``/
``tt.contiguity``/``tt.constancy`` attributes on the hinted value's op (``passes/axis_info``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, IntegerAttr, StringAttr, UnitAttr, i32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import MemoryWriteEffect

from mytriton.dialects.tt.traits import verify_error
from mytriton.dialects.tt.types import (
    PointerType,
    element_type,
    is_block,
    is_bool,
    is_float,
    is_int,
    shape_of,
    type_str,
)

#: Triton's hint attributes, one entry per dimension of the hinted value (``passes/axis_info``)
HINT_ATTRIBUTES = ("tt.divisibility", "tt.contiguity", "tt.constancy")

#: ``tl.load``/``tl.store`` options on ``tt.load``/``tt.store`` (Triton's TTIR names): the cache
#: modifier without its dot (``"cg"``), the eviction policy, and ``volatile`` (a unit attribute)
CACHE_ATTR, EVICT_ATTR, VOLATILE_ATTR = "cache", "evict", "isVolatile"
#: ... and on the ``llvm.load``/``llvm.store`` the lowering emits (``docs/gpu-ir.md``): the CUDA
#: printer honours them (``backends/cuda/hinted_access``); for MLIR, volatile becomes upstream's
#: ``volatile_`` and the others inline PTX (``backends/mlir/access_hints``)
LOWERED_CACHE_ATTR, LOWERED_EVICT_ATTR = "mytriton.cache", "mytriton.evict"
LOWERED_VOLATILE_ATTR = "mytriton.volatile"


def _check_condition(op: IRDLOperation, cond: SSAValue) -> None:
    if not is_bool(cond.type):
        raise verify_error(op, f"condition must be i1 or a block of i1, got {type_str(cond.type)}")


@irdl_op_definition
class PrintOp(IRDLOperation):
    """``tl.device_print(prefix, *args, hex=...)``: print every element of each operand, one
    line per element: ``pid (x, y, z) idx (i, j)<prefix><value>`` (Triton's format; the prefix
    already reads `` name: ``)."""

    name = "tt.print"
    prefix = prop_def(StringAttr)
    hex = opt_prop_def(UnitAttr)
    args = var_operand_def()
    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$prefix attr-dict (`,` $args^ `:` type($args))?"

    def __init__(self, prefix: str, args: Sequence[SSAValue], hex: bool = False):
        props: dict[str, Attribute] = {"prefix": StringAttr(prefix)}
        if hex:
            props["hex"] = UnitAttr()
        super().__init__(operands=[list(args)], properties=props)

    def verify_(self) -> None:
        for v in self.args:
            e = element_type(v.type)
            if isinstance(e, PointerType) or not (is_int(e) or is_float(e)):
                raise verify_error(self, f"can print integers and floats, got {type_str(v.type)}")


@irdl_op_definition
class AssertOp(IRDLOperation):
    """``tl.device_assert(cond, msg)``: every element of ``condition`` must be true; a false one
    stops the kernel, reporting ``message``, the program and the kernel's source line."""

    name = "tt.assert"
    condition = operand_def()
    message = prop_def(StringAttr)
    traits = traits_def(MemoryWriteEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$condition `,` $message attr-dict `:` type($condition)"

    def __init__(self, condition: SSAValue, message: str):
        super().__init__(operands=[condition], properties={"message": StringAttr(message)})

    def verify_(self) -> None:
        _check_condition(self, self.condition)


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """``tl.assume(cond)``: the compiler may take ``condition`` to be true (false is undefined
    behaviour; the interpreter and gpusim report it). Lowered to ``llvm.intr.assume``."""

    name = "tt.assume"
    condition = operand_def()
    traits = traits_def(MemoryWriteEffect())  # no result: without an effect, DCE erases it
    assembly_format = "$condition attr-dict `:` type($condition)"

    def __init__(self, condition: SSAValue):
        super().__init__(operands=[condition])

    def verify_(self) -> None:
        _check_condition(self, self.condition)


@irdl_op_definition
class ElementwiseInlineAsmOp(IRDLOperation):
    """``tl.inline_asm_elementwise``: run PTX ``asm_string`` on every ``packed_element``
    elements of the (same-shaped) operands, giving one result per output dtype.

    ``constraints`` are LLVM's (outputs ``=r`` first, then inputs); ``pure`` says the asm has no
    side effects. Only the GPU backends can run it."""

    name = "tt.elementwise_inline_asm"
    asm_string = prop_def(StringAttr)
    constraints = prop_def(StringAttr)
    pure = opt_prop_def(UnitAttr)
    packed_element = prop_def(IntegerAttr[I32])
    args = var_operand_def()
    results_ = var_result_def()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$asm_string attr-dict (`,` $args^ `:` type($args))? `->` type($results_)"

    def __init__(
        self,
        asm: str,
        constraints: str,
        args: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        pure: bool,
        pack: int,
    ):
        props: dict[str, Attribute] = {
            "asm_string": StringAttr(asm),
            "constraints": StringAttr(constraints),
            "packed_element": IntegerAttr(pack, i32),
        }
        if pure:
            props["pure"] = UnitAttr()
        super().__init__(operands=[list(args)], result_types=[list(result_types)], properties=props)

    @property
    def pack(self) -> int:
        return self.packed_element.value.data

    def verify_(self) -> None:
        if not self.results:
            raise verify_error(self, "needs at least one result")
        pack = self.pack
        if pack < 1 or pack & (pack - 1):
            raise verify_error(self, f"packed_element must be a power of two, got {pack}")
        shapes = {shape_of(v.type) for v in (*self.args, *self.results)}
        if len(shapes) > 1:
            raise verify_error(self, "operands and results must all have one shape")
        blocks = {is_block(v.type) for v in (*self.args, *self.results)}
        if len(blocks) > 1:
            raise verify_error(self, "operands and results must be all blocks or all scalars")
        for v in (*self.args, *self.results):
            e = element_type(v.type)
            if not (is_int(e) or is_float(e) or isinstance(e, PointerType)):
                raise verify_error(self, f"unsupported type {type_str(v.type)}")


TT_DEBUG_OPS: Sequence[type[IRDLOperation]] = (
    PrintOp,
    AssertOp,
    AssumeOp,
    ElementwiseInlineAsmOp,
)
