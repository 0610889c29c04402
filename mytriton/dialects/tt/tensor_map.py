"""``tt.make_tensor_map``: the tensor map of a ``tl.make_tensor_descriptor`` made in the kernel,
so that its blocks' loads may be TMA copies like a host descriptor's.

The frontend writes one beside each in-kernel descriptor and names it as the tensor map of
the descriptor's loads (``tt.load ... tensor_map %m[...]``); everything but software
pipelining ignores it, and a map no load reads is dead code::

    %m = tt.make_tensor_map %base, [%rows, %cols], [%stride0, %c1] : !tt.ptr<f16>

``ttg-pipeline``, where it turns such a load into TMA copies (sm_90), records on the op how
the copies read it, as ``ttg.tensor_maps`` records a host map's: ``box`` (outermost first),
``swizzle`` (bytes), ``span`` (the rotated 8-row groups whose span map follows, 0 for none)
and ``slot``, the map's place in the kernel's global scratch (``GLOBAL_SCRATCH_ATTR``). The
lowering then writes the map there, once per program, before the copies read it
(``gpu_lowering/tensor_map_create.py``); a map without a box lowers to nothing.

The interpreter has no tensor maps: the op's value there is the tensor's base.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.memory import TENSOR_MAP_TYPE
from mytriton.dialects.tt.types import PointerType, type_str

#: the kernel attribute giving the bytes of global scratch each program needs for the tensor
#: maps it writes (one ``SCRATCH_SLOT_BYTES`` slot a map); the runtime passes the scratch as
#: the kernel's last argument
GLOBAL_SCRATCH_ATTR = "ttg.global_scratch"
#: a map's slot: the map, and its span map 128 bytes on (``ttg_tma.SPAN_MAP_OFFSET``)
SCRATCH_SLOT_BYTES = 256
MAX_RANK = 5
SWIZZLES = (0, 32, 64, 128)


@irdl_op_definition
class MakeTensorMapOp(IRDLOperation):
    """``tt.make_tensor_map %base, [shape...], [strides...]``: the tensor map of the tensor at
    ``base`` (module doc); shape i32, strides i64 in elements, outermost first."""

    name = "tt.make_tensor_map"
    base = operand_def(PointerType)
    shape = var_operand_def(i32)
    strides = var_operand_def(i64)
    result = result_def(TENSOR_MAP_TYPE)
    box = opt_prop_def(DenseArrayBase)
    swizzle = opt_prop_def(IntegerAttr[I64])
    span = opt_prop_def(IntegerAttr[I64])
    slot = opt_prop_def(IntegerAttr[I64])
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:` type($base)"

    def __init__(self, base: SSAValue, shape: Sequence[SSAValue], strides: Sequence[SSAValue]):
        super().__init__(
            operands=[base, list(shape), list(strides)], result_types=[TENSOR_MAP_TYPE]
        )

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def element(self) -> PointerType:
        t = self.base.type
        assert isinstance(t, PointerType)
        return t

    def copies(self) -> tuple[tuple[int, ...], int, int, int] | None:
        """(box, swizzle, span, slot) as the pipeline recorded them, None before."""
        if self.box is None or self.swizzle is None or self.span is None or self.slot is None:
            return None
        box = tuple(int(b) for b in self.box.get_values())
        return box, self.swizzle.value.data, self.span.value.data, self.slot.value.data

    def record(self, box: Sequence[int], swizzle: int, span: int, slot: int) -> None:
        self.box = DenseArrayBase.from_list(i64, list(box))
        self.swizzle = IntegerAttr(swizzle, i64)
        self.span = IntegerAttr(span, i64)
        self.slot = IntegerAttr(slot, i64)

    def verify_(self) -> None:
        if not 1 <= self.rank <= MAX_RANK:
            raise VerifyException(
                f"{self.name}: a tensor has 1 to {MAX_RANK} dims, not {self.rank}"
            )
        if len(self.strides) != self.rank:
            raise VerifyException(
                f"{self.name}: {self.rank} dims need {self.rank} strides, not {len(self.strides)}"
            )
        if isinstance(self.element.pointee, PointerType):
            raise VerifyException(
                f"{self.name}: the base must point to scalars, not {type_str(self.base.type)}"
            )
        recorded = (self.box, self.swizzle, self.span, self.slot)
        if any(r is not None for r in recorded) and any(r is None for r in recorded):
            raise VerifyException(f"{self.name}: box, swizzle, span and slot go together")
        found = self.copies()
        if found is None:
            return
        box, swizzle, span, slot = found
        if len(box) != self.rank or not all(1 <= b <= 256 for b in box):
            raise VerifyException(
                f"{self.name}: the box needs {self.rank} dims of 1 to 256, not {list(box)}"
            )
        if swizzle not in SWIZZLES:
            raise VerifyException(f"{self.name}: the swizzle must be one of {SWIZZLES} bytes")
        if span < 0 or slot < 0:
            raise VerifyException(f"{self.name}: span and slot must not be negative")
        if span and self.rank != 2:
            raise VerifyException(f"{self.name}: only a 2-d map has a span map, not {self.rank}-d")


def global_scratch(kernel: func.FuncOp) -> int:
    """The bytes of global scratch one program of ``kernel`` needs (0: none, no argument)."""
    found = kernel.attributes.get(GLOBAL_SCRATCH_ATTR)
    return found.value.data if isinstance(found, IntegerAttr) else 0


def module_global_scratch(module: Operation) -> int:
    """``global_scratch`` of the kernel of ``module`` (its metadata's)."""
    for op in module.walk():
        if isinstance(op, func.FuncOp):
            return global_scratch(op)
    return 0


TT_TENSOR_MAP_OPS: Sequence[type[IRDLOperation]] = (MakeTensorMapOp,)
