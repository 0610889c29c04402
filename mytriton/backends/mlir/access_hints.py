"""``tl.load``/``tl.store``'s cache modifier and eviction policy for upstream MLIR, which has no
way to say them: a hinted ``llvm.load``/``llvm.store`` becomes ``llvm.inline_asm`` with the PTX
Triton emits (``ld.global.cg.v4.b32 {$0, $1, $2, $3}, [$4];``,
``st.global.L1::evict_first.b32 [$0], $1;``). The value moves as 32-bit words (``r``: up to
``v4``, so a ``vector<8xf16>`` is four packed words), or as one 16-bit word (``h``: an ``f16``, a
``vector<2xi8>``), or one byte through a 16-bit register (``ld.global.cg.b8``).

A masked access (an ``scf.if`` around it, ``gpu_lowering/memory``) becomes one predicated
inline PTX access, hinted or not (``predicate_masked_accesses``), which NVPTX would otherwise
branch around.

PTX has no form with both a cache operator and an eviction priority (ptxas: "Modifier
'.evict_last' cannot be combined with modifier '.cg'"): the cache modifier wins, as on the cuda
backend. A volatile load stays upstream's ``volatile_`` load (``ld.volatile``) without hints; a
``bool`` or pointer access keeps its plain load or store (the hint is dropped, the value is the
same).
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    VectorType,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

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
    _, letter, ptx, count = words
    asm_text = f"ld.global{hint}{_vec(count)}.{ptx} {_registers(0, count)}, [${count}];"
    constraints = ",".join([f"={letter}"] * count + ["l", _CLOBBER])
    value = _join(op, [op.ptr], asm_text, constraints, t)
    op.dereferenced_value.replace_all_uses_with(value)
    op.detach()
    op.erase()


def _join(
    op: Operation, operands: list[SSAValue], asm_text: str, constraints: str, t: Attribute
) -> SSAValue:
    """The inline PTX ``asm_text`` placed before ``op``, its words put back together as a
    ``t`` (``_words``)."""
    words = _words(t)
    assert words is not None
    reg, _, _, count = words
    struct = llvm.LLVMStructType.from_type_list([reg] * count)
    asm = llvm.InlineAsmOp(
        asm_text, constraints, operands, [struct if count > 1 else reg], has_side_effects=True
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
    return value


def _split(op: Operation, value: SSAValue) -> list[SSAValue]:
    """``value`` as the words that move it (``_words``), computed before ``op``."""
    words = _words(value.type)
    assert words is not None
    reg, _, _, count = words
    if _bytes(value.type) == 1:
        if value.type != IntegerType(8):
            value = _value(op, llvm.BitcastOp(value, IntegerType(8)))
        return [_value(op, llvm.ZExtOp(value, i16))]
    if count > 1:
        packed = _value(op, llvm.BitcastOp(value, VectorType(reg, [count])))
        return [_value(op, vector.ExtractOp(packed, [i], reg)) for i in range(count)]
    return [value if value.type == reg else _value(op, llvm.BitcastOp(value, reg))]


def _rewrite_store(op: llvm.StoreOp, hint: str) -> None:
    words = _words(op.value.type)
    if words is None:
        return
    _, letter, ptx, count = words
    parts = _split(op, op.value)
    asm_text = f"st.global{hint}{_vec(count)}.{ptx} [$0], {_registers(1, count)};"
    constraints = ",".join(["l"] + [letter] * count + [_CLOBBER])
    _insert(
        op, llvm.InlineAsmOp(asm_text, constraints, [op.ptr, *parts], [], has_side_effects=True)
    )
    op.detach()
    op.erase()


# ---- masked accesses: one predicated instruction instead of a branch ----


def predicate_masked_accesses(module: Operation) -> None:
    """Each masked global load or store of the lowering (``gpu_lowering/memory``: an
    ``scf.if`` around one ``llvm.load`` yielding it or ``other``, or around one ``llvm.store``)
    becomes one inline PTX instruction under the mask as its predicate, as Triton emits it
    (``mov.b32 $0, $6; ... @$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];``). NVPTX turns the
    ``scf.if`` into a branch around the access, which ptxas often keeps: the accesses of a
    row then cannot be scheduled together and their values stay live across the branches
    (registers, occupancy). A volatile access, or one of a ``bool`` or a pointer, keeps its
    branch."""
    for op in list(module.walk()):
        if isinstance(op, scf.IfOp):
            _predicate(op)


def _only(block: Block | None) -> list[Operation]:
    return list(block.ops) if block is not None else []


def _predicate(op: scf.IfOp) -> None:
    body = _only(op.true_region.blocks.first)
    if len(body) != 2 or not isinstance(body[1], scf.YieldOp):
        return
    access, yielded = body
    if LOWERED_VOLATILE_ATTR in access.attributes:
        return
    orelse = _only(op.false_region.blocks.first)
    if isinstance(access, llvm.LoadOp) and len(op.results) == 1 and len(orelse) == 1:
        other = orelse[0]
        if list(yielded.operands) == [access.dereferenced_value] and isinstance(other, scf.YieldOp):
            _predicated_load(op, access, other.operands[0])
    elif isinstance(access, llvm.StoreOp) and not op.results and len(orelse) <= 1:
        _predicated_store(op, access)


def _is_global(ptr: SSAValue) -> bool:
    t = ptr.type
    return isinstance(t, llvm.LLVMPointerType) and t.addr_space == IntAttr(1)


def _predicated_load(op: scf.IfOp, load: llvm.LoadOp, other: SSAValue) -> None:
    t = load.dereferenced_value.type
    words = _words(t)
    if words is None or other.type != t or not _is_global(load.ptr):
        return
    _, letter, ptx, count = words
    hint = qualifier(load) or ""
    fill = _split(op, other)
    moves = "\n\t".join(
        f"mov.b{16 if letter == 'h' else 32} ${i}, ${count + 2 + i};" for i in range(count)
    )
    access = f"@${count + 1} ld.global{hint}{_vec(count)}.{ptx} {_registers(0, count)}, [${count}];"
    constraints = ",".join([f"={letter}"] * count + ["l", "b"] + [letter] * count + [_CLOBBER])
    value = _join(op, [load.ptr, op.cond, *fill], f"{moves}\n\t{access}", constraints, t)
    op.results[0].replace_all_uses_with(value)
    op.detach()
    op.erase()


def _predicated_store(op: scf.IfOp, store: llvm.StoreOp) -> None:
    words = _words(store.value.type)
    if words is None or not _is_global(store.ptr):
        return
    _, letter, ptx, count = words
    hint = qualifier(store) or ""
    parts = _split(op, store.value)
    asm_text = f"@$0 st.global{hint}{_vec(count)}.{ptx} [$1], {_registers(2, count)};"
    constraints = ",".join(["b", "l"] + [letter] * count + [_CLOBBER])
    operands = [op.cond, store.ptr, *parts]
    _insert(op, llvm.InlineAsmOp(asm_text, constraints, operands, [], has_side_effects=True))
    op.detach()
    op.erase()
