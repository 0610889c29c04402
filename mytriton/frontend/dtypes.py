"""The dtypes kernels may use, and Triton's promotion rules between them.

One table maps ``tl`` dtypes to IR element types; extend it (and ``tt_semantics.numpy_dtype``)
to support another dtype everywhere.
"""

from __future__ import annotations

from xdsl.dialects.builtin import bf16, f16, f32, f64, i1, i8, i16, i32, i64
from xdsl.ir import Attribute

from mytriton.dialects.tt_types import PointerType, element_type
from mytriton.errors import KernelTypeError, SourceLocation
from mytriton.language import core

_TO_IR: dict[core.dtype, Attribute] = {
    core.int1: i1,
    core.int8: i8,
    core.int16: i16,
    core.int32: i32,
    core.int64: i64,
    core.float16: f16,
    core.bfloat16: bf16,
    core.float32: f32,
    core.float64: f64,
}
_FROM_IR: dict[Attribute, core.dtype] = {v: k for k, v in _TO_IR.items()}

SUPPORTED_DTYPES = tuple(_TO_IR)


def to_ir(d: core.dtype, loc: SourceLocation | None = None) -> Attribute:
    """The IR element type of ``d``; unsupported dtypes are a typed error."""
    if isinstance(d, core.pointer_type):
        return PointerType(to_ir(d.element_ty, loc))
    try:
        return _TO_IR[d]
    except KeyError:
        names = ", ".join(x.name for x in SUPPORTED_DTYPES)
        raise KernelTypeError(f"dtype {d} is not supported yet (supported: {names})", loc) from None


def from_ir(t: Attribute) -> core.dtype:
    """The ``tl`` dtype of a value of IR type ``t`` (its element type for blocks)."""
    e = element_type(t)
    if isinstance(e, PointerType):
        return core.pointer_type(from_ir(e.pointee))
    return _FROM_IR[e]


def kind_rank(d: core.dtype) -> int:
    """bool < int < float, Triton's first promotion criterion."""
    return {"bool": 0, "int": 1, "float": 2}[d.kind]


def promote(a: core.dtype, b: core.dtype) -> core.dtype:
    """Triton's promotion of two (non-pointer) dtypes: by kind, then by width. bfloat16 stays
    bfloat16 only with itself: with a float16 it gives float16, with an integer float32
    (Triton's ``computation_type_impl``; a Python scalar takes the tensor's dtype before this)."""
    if core.bfloat16 in (a, b) and a != b:
        other = b if a == core.bfloat16 else a
        return other if other.kind == "float" else core.float32
    if kind_rank(a) != kind_rank(b):
        return a if kind_rank(a) > kind_rank(b) else b
    return a if a.primitive_bitwidth >= b.primitive_bitwidth else b
