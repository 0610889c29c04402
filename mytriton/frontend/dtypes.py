"""The dtypes kernels may use, and Triton's promotion rules between them.

Each ``tl`` dtype's IR element type is its row's in the dtype table (``dialects/tt/
dtype_table.py``): add a row there to support another dtype everywhere.
"""

from __future__ import annotations

from xdsl.ir import Attribute

from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt.types import PointerType, element_type
from mytriton.errors import KernelTypeError, SourceLocation
from mytriton.language import core

# unsigned integers keep their signedness in `tt` (``ui32``): each op reads it from the type,
# and the lowering picks the unsigned arith op (divui, cmpi ult, extui, uitofp, shrui)
_TO_IR: dict[core.dtype, Attribute] = {core.DTYPES[r.dtype_name]: r.ir for r in dtype_table.ROWS}
_FROM_IR: dict[Attribute, core.dtype] = {v: k for k, v in _TO_IR.items()}

SUPPORTED_DTYPES = tuple(_TO_IR)


def to_ir(d: core.dtype, loc: SourceLocation | None = None) -> Attribute:
    """The IR element type of ``d``; unsupported dtypes are a typed error."""
    if isinstance(d, core.pointer_type):
        return PointerType(to_ir(d.element_ty, loc), const=d.const)
    ir = _TO_IR.get(d)
    if ir is None:
        names = ", ".join(x.name for x in SUPPORTED_DTYPES)
        raise KernelTypeError(f"dtype {d} is not supported yet (supported: {names})", loc)
    return ir


def from_ir(t: Attribute) -> core.dtype:
    """The ``tl`` dtype of a value of IR type ``t`` (its element type for blocks)."""
    e = element_type(t)
    if isinstance(e, PointerType):
        return core.pointer_type(from_ir(e.pointee), const=e.is_const)
    return _FROM_IR[e]


def kind_rank(d: core.dtype) -> int:
    """bool < int < float, Triton's first promotion criterion."""
    return {"bool": 0, "int": 1, "float": 2}[d.kind]


def promote(a: core.dtype, b: core.dtype, loc: SourceLocation | None = None) -> core.dtype:
    """Triton's promotion of two (non-pointer) dtypes: by kind, then by width. bfloat16 stays
    bfloat16 only with itself: with a float16 it gives float16, with an integer float32
    (Triton's ``computation_type_impl``; a Python scalar takes the tensor's dtype before this).
    Integers of mixed signedness follow C: the unsigned one wins unless the signed one is wider.
    fp8 promotes like Triton's too; with an integer it is a typed error (at ``loc``)."""
    if a.is_fp8() or b.is_fp8():
        return _promote_fp8(a, b, loc)
    if core.bfloat16 in (a, b) and a != b:
        other = b if a == core.bfloat16 else a
        return other if other.kind == "float" else core.float32
    if kind_rank(a) != kind_rank(b):
        return a if kind_rank(a) > kind_rank(b) else b
    if a.kind == "int" and a.is_int_unsigned() != b.is_int_unsigned():
        unsigned, signed = (a, b) if a.is_int_unsigned() else (b, a)
        return unsigned if unsigned.int_bitwidth >= signed.int_bitwidth else signed
    return a if a.primitive_bitwidth >= b.primitive_bitwidth else b


HALF_FLOATS = (core.float16, core.bfloat16)


def computation_type(
    a: core.dtype, b: core.dtype, loc: SourceLocation | None = None, *, div_or_mod: bool = False
) -> core.dtype:
    """The dtype Triton computes ``a op b`` in (``computation_type_impl``): ``promote``, except
    that ``/`` and ``%`` (``div_or_mod``) of a float16 or bfloat16 result go to float32 (PTX has
    no half division): ``int / f16`` converts the integer straight to float32, not through f16.
    Two different fp8s still divide in float16, as in Triton."""
    d = promote(a, b, loc)
    if div_or_mod and d in HALF_FLOATS and not (a.is_fp8() and b.is_fp8()):
        return core.float32
    return d


def _promote_fp8(a: core.dtype, b: core.dtype, loc: SourceLocation | None) -> core.dtype:
    """Two fp8s stay fp8 when equal, else float16; with float16/32/64 that one, with bfloat16
    float32 (Triton's ``computation_type_impl``); Triton rejects fp8 with an integer."""
    if a.is_fp8() and b.is_fp8():
        return a if a == b else core.float16
    other = b if a.is_fp8() else a
    if other.kind != "float":
        raise KernelTypeError(
            f"unexpected type {a} and {b}: Triton does not combine fp8 with integers "
            "(convert with .to(tl.float32))",
            loc,
        )
    return core.float32 if other == core.bfloat16 else other
