"""Global loads and stores carrying ``tl.load``/``tl.store``'s options (``docs/gpu-ir.md``):
an eviction policy is inline PTX with Triton's ``L1::evict_first``/``L1::evict_last``
qualifier (the value moved as 32-bit words, or one 16-/8-bit word); a cache modifier alone is
CUDA's intrinsic (``__ldcg``, ``__stcs``...); a volatile load reads through a ``volatile``
pointer. PTX has no form with both a cache operator and an eviction priority: the cache
modifier wins. Each function returns the C++ statements, or None for a plain access."""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt.debug import (
    LOWERED_CACHE_ATTR,
    LOWERED_EVICT_ATTR,
    LOWERED_VOLATILE_ATTR,
)

_LOAD_CALLS = {"ca": "__ldca", "cg": "__ldcg", "cv": "__ldcv", "cs": "__ldcs"}
_STORE_CALLS = {"wb": "__stwb", "cg": "__stcg", "cs": "__stcs", "wt": "__stwt"}
#: the C++ types CUDA's cache-hinted intrinsics have overloads for: every scalar type of the
#: dtype table but ``bool`` (f16 and bf16 are ``unsigned short`` bits), and the vector types
_INTRINSIC_TYPES = frozenset(
    {
        *(r.cpp for r in dtype_table.ROWS if r.cpp is not None and r.kind != "bool"),
        "float2",
        "float4",
        "int2",
        "int4",
        "uint2",
        "uint4",
    }
)


def _string(op: Operation, name: str) -> str | None:
    attr = op.attributes.get(name)
    return attr.data if isinstance(attr, StringAttr) else None


def _words(nbytes: int) -> tuple[str, str, str, int]:
    """(C++ word type, constraint, PTX type, count) moving ``nbytes`` bytes."""
    if nbytes >= 4:
        return "unsigned", "r", "b32", nbytes // 4
    return "unsigned short", "h", "b16" if nbytes == 2 else "b8", 1


def _vector(count: int) -> str:
    return f".v{count}" if count > 1 else ""


def load_statements(
    op: Operation, ctype: str, nbytes: int, ptr: str, name: str
) -> list[str] | None:
    """The statements defining ``name`` (of ``ctype``, ``nbytes`` bytes) from ``ptr``."""
    cache, evict = _string(op, LOWERED_CACHE_ATTR), _string(op, LOWERED_EVICT_ATTR)
    if LOWERED_VOLATILE_ATTR in op.attributes:
        return [f"{ctype} {name} = *(volatile {ctype}*){ptr};"]
    if cache is not None and ctype in _INTRINSIC_TYPES and cache in _LOAD_CALLS:
        return [f"{ctype} {name} = {_LOAD_CALLS[cache]}((const {ctype}*){ptr});"]
    if evict is None or ctype == "bool":
        return None
    word, letter, ptx, count = _words(nbytes)
    regs = ", ".join(f"%{i}" for i in range(count))
    regs = f"{{{regs}}}" if count > 1 else regs
    outs = ", ".join(f'"={letter}"(mt_w[{i}])' for i in range(count))
    asm = f"ld.global.L1::{evict}{_vector(count)}.{ptx} {regs}, [%{count}];"
    copy = (
        f"unsigned char mt_b = (unsigned char)mt_w[0]; {name} = *({ctype}*)&mt_b;"
        if nbytes == 1
        else f"{name} = *({ctype}*)mt_w;"
    )
    return [
        f"{ctype} {name};",
        f'{{ {word} mt_w[{count}]; asm volatile("{asm}" : {outs} : "l"({ptr}) : "memory"); '
        f"{copy} }}",
    ]


def store_statements(
    op: Operation, ctype: str, nbytes: int, ptr: str, value: str
) -> list[str] | None:
    """The statements storing ``value`` (of ``ctype``, ``nbytes`` bytes) at ``ptr``."""
    cache, evict = _string(op, LOWERED_CACHE_ATTR), _string(op, LOWERED_EVICT_ATTR)
    if cache is not None and ctype in _INTRINSIC_TYPES and cache in _STORE_CALLS:
        return [f"{_STORE_CALLS[cache]}(({ctype}*){ptr}, {value});"]
    if evict is None or ctype == "bool":
        return None
    word, letter, ptx, count = _words(nbytes)
    regs = ", ".join(f"%{i + 1}" for i in range(count))
    regs = f"{{{regs}}}" if count > 1 else regs
    if nbytes == 1:
        words = "unsigned short mt_w[1] = {*(const unsigned char*)&mt_t};"
    else:
        words = f"const {word}* mt_w = (const {word}*)&mt_t;"
    ins = ", ".join(f'"{letter}"(mt_w[{i}])' for i in range(count))
    asm = f"st.global.L1::{evict}{_vector(count)}.{ptx} [%0], {regs};"
    return [
        f'{{ {ctype} mt_t = {value}; {words} asm volatile("{asm}" :: "l"({ptr}), {ins} : '
        '"memory"); }'
    ]
