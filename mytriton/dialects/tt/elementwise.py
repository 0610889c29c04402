"""Elementwise `tt` ops: arithmetic, comparison, boolean logic, select, math and casts, gathered.

They act on scalars or on blocks alike; operands of one op always have the same shape (the
frontend inserts ``tt.splat``/``tt.broadcast`` first, as Triton does). Each op names its NumPy
semantics (``semantics``); ``evaluate`` is both the constant folder's and the interpreter's
rule, so what folds at compile time is exactly what runs.

The ops are defined by family, a module each: ``elementwise_base`` (``ElementwiseOp``),
``arithmetic`` (binary arithmetic, bitwise logic, ``maximum``/``minimum``), ``compare``
(``cmp``, ``select``), ``unary`` (negation, ``abs``, the exact float functions) and ``casts``
(``cast``, ``bitcast``); this module re-exports them under the names the rest of mytriton
uses and lists them for the dialect (``TT_ELEMENTWISE_OPS``).
"""

from __future__ import annotations

from collections.abc import Sequence

from mytriton.dialects.tt.arithmetic import (
    BINARY_OPS,
    AddOp,
    AndOp,
    BinaryOp,
    DivOp,
    ExtremumOp,
    MaximumOp,
    MinimumOp,
    MulOp,
    OrOp,
    PropagateNan,
    PropagateNanAttr,
    RemOp,
    ShlOp,
    ShrOp,
    SubOp,
    XorOp,
)
from mytriton.dialects.tt.casts import BitcastOp, CastOp, ConversionOp
from mytriton.dialects.tt.compare import CmpOp, CmpPredicate, CmpPredicateAttr, SelectOp
from mytriton.dialects.tt.elementwise_base import Array, ElementwiseOp
from mytriton.dialects.tt.unary import (
    UNARY_OPS,
    AbsOp,
    CeilOp,
    CosOp,
    Exp2Op,
    ExpOp,
    FloorOp,
    Log2Op,
    LogOp,
    NegOp,
    RsqrtOp,
    SinOp,
    SqrtOp,
    UnaryOp,
)

__all__ = [
    "BINARY_OPS",
    "TT_ELEMENTWISE_OPS",
    "UNARY_OPS",
    "AbsOp",
    "AddOp",
    "AndOp",
    "Array",
    "BinaryOp",
    "BitcastOp",
    "CastOp",
    "CeilOp",
    "CmpOp",
    "CmpPredicate",
    "CmpPredicateAttr",
    "ConversionOp",
    "CosOp",
    "DivOp",
    "ElementwiseOp",
    "Exp2Op",
    "ExpOp",
    "ExtremumOp",
    "FloorOp",
    "Log2Op",
    "LogOp",
    "MaximumOp",
    "MinimumOp",
    "MulOp",
    "NegOp",
    "OrOp",
    "PropagateNan",
    "PropagateNanAttr",
    "RemOp",
    "RsqrtOp",
    "SelectOp",
    "ShlOp",
    "ShrOp",
    "SinOp",
    "SqrtOp",
    "SubOp",
    "UnaryOp",
    "XorOp",
]

TT_ELEMENTWISE_OPS: Sequence[type[ElementwiseOp]] = (
    *BINARY_OPS,
    CmpOp,
    SelectOp,
    *UNARY_OPS,
    CastOp,
    BitcastOp,
)
