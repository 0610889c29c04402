"""``tl.load``/``tl.store``'s cache modifier and eviction policy for upstream MLIR, which has no
way to say them: a hinted ``llvm.load``/``llvm.store`` becomes ``llvm.inline_asm`` with the PTX
Triton emits (``ld.global.cg.v4.b32 {$0, $1, $2, $3}, [$4];``,
``st.global.L1::evict_first.b32 [$0], $1;``). The value moves as 32-bit words (``r``: up to
``v4``, so a ``vector<8xf16>`` is four packed words), or as one 16-bit word (``h``: an ``f16``, a
``vector<2xi8>``), or one byte through a 16-bit register (``ld.global.cg.b8``). A masked access
is already under an ``scf.if`` (``gpu_lowering/memory``): the PTX needs no predicate.

PTX has no form with both a cache operator and an eviction priority (ptxas: "Modifier
'.evict_last' cannot be combined with modifier '.cg'"): the cache modifier wins, as on the cuda
backend. A volatile load stays upstream's ``volatile_`` load (``ld.volatile``) without hints; a
``bool`` or pointer access keeps its plain load or store (the hint is dropped, the value is the
same).
"""

from __future__ import annotations

from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue

from mytriton.dialects.tt.debug import (
    LOWERED_CACHE_ATTR,
    LOWERED_EVICT_ATTR,
    LOWERED_VOLATILE_ATTR,
)
from mytriton.dialects.tt.types import byte_size

_CLOBBER = "~{memory}"


def _bytes(t: Attribute) -> int:
    """The bytes a ``t`` (a scalar or a ``vector``) occupies in memory."""
    if isinstance(t, VectorType):
        return byte_size(t.element_type) * t.element_count()
    return byte_size(t)


def _string(op: Operation, name: str) -> str | None:
    attr = op.attributes.pop(name, None)
    return attr.data if isinstance(attr, StringAttr) else None


def qualifier(op: Operation) -> str | None:
    """The PTX qualifier of ``op``'s hints (``.cg``, ``.L1::evict_first``; the cache modifier
    when both), removing them from ``op``; None when it has none or is volatile."""
    cache, evict = _string(op, LOWERED_CACHE_ATTR), _string(op, LOWERED_EVICT_ATTR)
    if LOWERED_VOLATILE_ATTR in op.attributes:
        return None
    if cache is not None:
        return f".{cache}"
    return f".L1::{evict}" if evict is not None else None


def _words(t: Attribute) -> tuple[Attribute, str, str, int] | None:
    """(register type, constraint, PTX type, count) moving a ``t``; None for ``bool``, pointers
    and sizes PTX words cannot hold."""
    elem = t.element_type if isinstance(t, VectorType) else t
    if isinstance(elem, llvm.LLVMPointerType) or elem == IntegerType(1):
        return None
    nbytes = _bytes(t)
    if nbytes in (4, 8, 16):
        return i32, "r", "b32", nbytes // 4
    if nbytes in (1, 2):
        return i16, "h", "b16" if nbytes == 2 else "b8", 1
    return None


def _registers(first: int, count: int) -> str:
    names = ", ".join(f"${first + i}" for i in range(count))
    return f"{{{names}}}" if count > 1 else names


def _vec(count: int) -> str:
    return f".v{count}" if count > 1 else ""


def rewrite_hinted_access(op: Operation) -> None:
    """Replace a hinted ``llvm.load``/``llvm.store`` by inline PTX; drop the hints otherwise."""
    hint = qualifier(op)
    if op.attributes.pop(LOWERED_VOLATILE_ATTR, None) is not None:
        op.properties["volatile_"] = UnitAttr()
    if hint is None:
        return
    if isinstance(op, llvm.LoadOp):
        _rewrite_load(op, hint)
    elif isinstance(op, llvm.StoreOp):
        _rewrite_store(op, hint)


def _insert(op: Operation, new: Operation) -> Operation:
    """``new`` placed before ``op``, with ``op``'s location."""
    block = op.parent_block()
    assert block is not None
    new.location = op.location
    block.insert_op_before(new, op)
    return new


def _value(op: Operation, new: Operation) -> SSAValue:
    return _insert(op, new).results[0]


def _rewrite_load(op: llvm.LoadOp, hint: str) -> None:
    t = op.dereferenced_value.type
    words = _words(t)
    if words is None:
        return
    reg, letter, ptx, count = words
    asm_text = f"ld.global{hint}{_vec(count)}.{ptx} {_registers(0, count)}, [${count}];"
    constraints = ",".join([f"={letter}"] * count + ["l", _CLOBBER])
    struct = llvm.LLVMStructType.from_type_list([reg] * count)
    asm = llvm.InlineAsmOp(
        asm_text, constraints, [op.ptr], [struct if count > 1 else reg], has_side_effects=True
    )
    value = _value(op, asm)
    if count > 1:
        parts = [
            _value(op, llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), value, reg))
            for i in range(count)
        ]
        vt = VectorType(reg, [count])
        value = _value(op, vector.BroadcastOp(parts[0], vt))
        for i, part in enumerate(parts[1:], start=1):
            value = _value(op, vector.InsertOp(part, value, [i]))
    elif _bytes(t) == 1:
        value = _value(op, llvm.TruncOp(value, IntegerType(8)))
    if value.type != t:
        value = _value(op, llvm.BitcastOp(value, t))
    op.dereferenced_value.replace_all_uses_with(value)
    op.detach()
    op.erase()


def _rewrite_store(op: llvm.StoreOp, hint: str) -> None:
    value = op.value
    words = _words(value.type)
    if words is None:
        return
    reg, letter, ptx, count = words
    if _bytes(value.type) == 1:
        if value.type != IntegerType(8):
            value = _value(op, llvm.BitcastOp(value, IntegerType(8)))
        parts = [_value(op, llvm.ZExtOp(value, i16))]
    elif count > 1:
        packed = _value(op, llvm.BitcastOp(value, VectorType(reg, [count])))
        parts = [_value(op, vector.ExtractOp(packed, [i], reg)) for i in range(count)]
    else:
        parts = [value if value.type == reg else _value(op, llvm.BitcastOp(value, reg))]
    asm_text = f"st.global{hint}{_vec(count)}.{ptx} [$0], {_registers(1, count)};"
    constraints = ",".join(["l"] + [letter] * count + [_CLOBBER])
    _insert(
        op, llvm.InlineAsmOp(asm_text, constraints, [op.ptr, *parts], [], has_side_effects=True)
    )
    op.detach()
    op.erase()
