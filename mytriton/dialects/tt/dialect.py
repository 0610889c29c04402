"""The ``tt`` dialect object, built once from the op lists of its modules."""

from __future__ import annotations

from xdsl.ir import Dialect

from mytriton.dialects.tt.atomic import TT_ATOMIC_ATTRS, TT_ATOMIC_OPS
from mytriton.dialects.tt.core import TT_CORE_OPS, ProgramAxisAttr
from mytriton.dialects.tt.debug import TT_DEBUG_OPS
from mytriton.dialects.tt.elementwise import (
    TT_ELEMENTWISE_OPS,
    CmpPredicateAttr,
    PropagateNanAttr,
)
from mytriton.dialects.tt.math import TT_MATH_OPS
from mytriton.dialects.tt.pointer_casts import TT_POINTER_CAST_OPS
from mytriton.dialects.tt.shape import SHAPE_OPS
from mytriton.dialects.tt.sreg import TT_SREG_OPS
from mytriton.dialects.tt.tensor_map import TT_TENSOR_MAP_OPS
from mytriton.dialects.tt.traits import TTConstantMaterialization, bound_blocks
from mytriton.dialects.tt.types import PointerType

TT = Dialect(
    "tt",
    [
        *TT_CORE_OPS,
        *TT_ELEMENTWISE_OPS,
        *TT_POINTER_CAST_OPS,
        *TT_MATH_OPS,
        *SHAPE_OPS,
        *TT_DEBUG_OPS,
        *TT_ATOMIC_OPS,
        *TT_TENSOR_MAP_OPS,
        *TT_SREG_OPS,
    ],
    [PointerType, ProgramAxisAttr, CmpPredicateAttr, PropagateNanAttr, *TT_ATOMIC_ATTRS],
    [TTConstantMaterialization()],
)
bound_blocks(TT.operations)
