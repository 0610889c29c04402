"""``tt.dot``: a block matrix product accumulated into a block, with Triton's rules for the
operand and accumulator element types (``DOT_ACCUMULATORS``), its input precisions and fp8
promotion interval. The attributes `ttg` writes on it (the instruction, the operands' staging,
whether it runs asynchronously) are checked by `ttg` (``DOT_ATTRIBUTE_CHECKS``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from xdsl.dialects.builtin import (
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    bf16,
    f16,
    f32,
    f64,
    i8,
    i32,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from mytriton.dialects.tt.traits import verify_error
from mytriton.dialects.tt.types import element_type, shape_of, type_str

# The accumulator element types each ``tt.dot`` operand element type allows (Triton's rules).
DOT_INPUT_PRECISIONS = ("tf32", "tf32x3", "bf16x3", "bf16x6", "ieee")
DOT_ACCUMULATORS: dict[Attribute, tuple[Attribute, ...]] = {
    i8: (i32,),
    f16: (f16, f32),
    Float8E4M3FNType(): (f16, f32),  # fp8e4nv and fp8e5: Hopper's fp8 warpgroup MMAs take them
    Float8E5M2Type(): (f16, f32),
    bf16: (f32,),
    f32: (f32,),
    f64: (f64,),
}
FP8_MMA_TYPES = {Float8E4M3FNType(), Float8E5M2Type()}  # a dot may take one of each
#: the checks of the dialects that put attributes on ``tt.dot`` (``ttg``'s: ``ttg/mma.py``),
#: run by its verifier: the attributes' types belong to those dialects, above this one
DOT_ATTRIBUTE_CHECKS: list[Callable[[DotOp], None]] = []


@irdl_op_definition
class DotOp(IRDLOperation):
    """``tl.dot(a, b, acc)``: ``a [M,K] @ b [K,N] + acc [M,N]``, accumulated in the accumulator's
    type: i8 operands into i32, f16 into f16 or f32, bf16 and f32 into f32, f64 into f64, fp8e4nv
    or fp8e5 (``f8E4M3FN``, ``f8E5M2``: either for each operand) into f16 or f32, each element as
    its float value (``tt-legalize-fp8-dots`` makes them f16 where no fp8 MMA runs the dot).

    ``input_precision`` (f32 operands; Triton's ``inputPrecision``): ``"tf32"`` lets tensor cores
    read the operands as TF32; the others ask for (about) f32 accuracy, which the CUDA-core dot
    gives (``tt-legalize-tf32x3-dots`` makes a ``"tf32x3"`` one three tf32 dots where those
    run on tensor cores). Absent: ieee.

    ``max_num_imprecise_acc`` (fp8 operands into f32; Triton's ``maxNumImpreciseAcc``): at most
    that many products of a row and column, rounded up to whole instructions, are summed in
    the tensor cores' accumulator (on Hopper, fewer bits than f32) before the partial sum is
    added into the f32 accumulator. Absent: all of K, the accumulator included."""

    name = "tt.dot"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    R: ClassVar = VarConstraint("R", base(TensorType))
    acc = operand_def(R)
    result = result_def(R)
    input_precision = opt_attr_def(StringAttr)
    max_num_imprecise_acc = opt_attr_def(IntegerAttr)
    # the `ttg` decisions about the dot (the instruction, its operands' shared-memory staging,
    # whether it runs asynchronously): their types belong to `ttg`, which checks them
    # (``DOT_ATTRIBUTE_CHECKS``: ``dialects/ttg/mma.py``)
    mma = opt_attr_def(Attribute, attr_name="ttg.mma")
    lhs_shared = opt_attr_def(Attribute, attr_name="ttg.lhs_shared")
    rhs_shared = opt_attr_def(Attribute, attr_name="ttg.rhs_shared")
    is_async = opt_attr_def(UnitAttr, attr_name="ttg.async")
    traits = traits_def(Pure())
    assembly_format = "$a `,` $b `,` $acc attr-dict `:` type($a) `*` type($b) `->` type($result)"

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        acc: SSAValue,
        input_precision: str | None = None,
        max_num_imprecise_acc: int | None = None,
    ):
        attributes: dict[str, Attribute] = {}
        if input_precision is not None:
            attributes["input_precision"] = StringAttr(input_precision)
        if max_num_imprecise_acc is not None:
            attributes["max_num_imprecise_acc"] = IntegerAttr(max_num_imprecise_acc, i32)
        super().__init__(operands=[a, b, acc], result_types=[acc.type], attributes=attributes)

    def verify_(self) -> None:
        self._verify_types()
        for check in DOT_ATTRIBUTE_CHECKS:
            check(self)

    def _verify_types(self) -> None:
        a, b, c = (shape_of(v.type) for v in (self.a, self.b, self.acc))
        if len(a) not in (2, 3) or len(b) != len(a):
            raise verify_error(
                self,
                f"operands must be rank-2 blocks (rank-3 for a batched dot), got ranks {len(a)} "
                f"and {len(b)}",
            )
        batch = a[:-2]
        if b[:-2] != batch:
            raise verify_error(self, f"batch dimensions differ: {list(a)} x {list(b)}")
        a, b = a[-2:], b[-2:]
        if a[1] != b[0]:
            raise verify_error(
                self, f"inner dimensions differ: [{a[0]}, {a[1]}] x [{b[0]}, {b[1]}]"
            )
        operand, accumulator = element_type(self.a.type), element_type(self.acc.type)
        fp8_pair = {operand, element_type(self.b.type)} <= FP8_MMA_TYPES
        if element_type(self.b.type) != operand and not fp8_pair:
            raise verify_error(
                self,
                f"operands must have one element type, got {type_str(self.a.type)} and "
                f"{type_str(self.b.type)}",
            )
        allowed = DOT_ACCUMULATORS.get(operand)
        if allowed is None:
            raise verify_error(self, f"unsupported operand type {type_str(self.a.type)}")
        if accumulator not in allowed:
            raise verify_error(
                self,
                f"accumulator of {operand} operands must hold "
                f"{' or '.join(str(t) for t in allowed)}, got {type_str(self.acc.type)}",
            )
        if c != (*batch, a[0], b[1]):
            raise verify_error(self, f"accumulator must be {[*batch, a[0], b[1]]}, got {list(c)}")
        if self.result.type != self.acc.type:
            raise verify_error(self, "result type must equal the accumulator type")
        precision = self.precision
        if precision not in DOT_INPUT_PRECISIONS:
            raise verify_error(
                self,
                f"input_precision must be one of {', '.join(DOT_INPUT_PRECISIONS)}, got "
                f"{precision!r}",
            )
        interval = self.promotion_interval
        if interval is not None:
            if not fp8_pair or accumulator != f32:
                raise verify_error(
                    self, "max_num_imprecise_acc is for fp8 operands into an f32 accumulator"
                )
            if not 1 <= interval <= a[1]:
                raise verify_error(
                    self, f"max_num_imprecise_acc must be 1 to K ({a[1]}), got {interval}"
                )

    @property
    def precision(self) -> str:
        """``input_precision``, ``"ieee"`` when absent."""
        return self.precision_setting or "ieee"

    @property
    def promotion_interval(self) -> int | None:
        """``max_num_imprecise_acc`` (None when absent: the tensor cores sum all of K)."""
        attr = self.max_num_imprecise_acc
        return attr.value.data if attr is not None else None

    @property
    def precision_setting(self) -> str | None:
        """``input_precision`` as set (None when absent)."""
        attr = self.input_precision
        return attr.data if attr is not None else None
