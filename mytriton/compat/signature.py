"""An ``ASTSource``'s specialization as the runtime's argument specs.

Triton describes a specialization by a type string per parameter (``"*fp32"`` a pointer,
``"*kfp16"`` a pointer to constants, ``"i32"``/``"u64"``/``"fp32"``/``"i1"`` scalars,
``"constexpr"``), compile-time values by path tuple (``(i,)``) and attributes by path tuple
(``[["tt.divisibility", 16]]``). mytriton's frontend takes one ``ArgSpec`` per parameter
(``frontend/signature.py``), as its JIT makes them from launch arguments.
"""

from __future__ import annotations

import hashlib
from typing import Any

from mytriton.dialects.tt import dtype_table
from mytriton.errors import CompilationError
from mytriton.frontend.signature import (
    DIVISIBILITY,
    ArgSpec,
    ConstexprArg,
    PointerArg,
    ScalarArg,
)
from mytriton.language import core


class SignatureError(CompilationError, ValueError):
    """An ``ASTSource`` whose signature, constants or attributes mytriton cannot compile; the
    message names the kernel and its ``def`` line."""


def _where(fn: Any) -> str:
    raw = getattr(fn, "fn", fn)
    code = getattr(raw, "__code__", None)
    name = getattr(raw, "__name__", repr(raw))
    if code is None:
        return f"kernel `{name}`"
    return f"kernel `{name}` ({code.co_filename}:{code.co_firstlineno})"


#: Triton's spellings of a bool that are no row's signature name (``i1`` is int1's)
_BOOL_SPELLINGS = ("B", "u1", "uint1")


def scalar_type(name: str) -> core.dtype:
    """The dtype of a Triton signature's scalar type name (``i32``, ``u8``, ``fp32``, ``i1``);
    a dtype's own name (``int32``) is one too."""
    if name in _BOOL_SPELLINGS:
        name = "i1"
    row = dtype_table.BY_SIGNATURE.get(name)
    return core.dtype(row.dtype_name if row is not None else name)


def _divisibility(attrs: Any) -> int:
    """16 where ``attrs`` (Triton's ``[["tt.divisibility", 16], ...]``) says so, else 1."""
    for entry in attrs or ():
        if len(entry) == 2 and entry[0] == "tt.divisibility" and entry[1] % DIVISIBILITY == 0:
            return DIVISIBILITY
    return 1


def argument_specs(src: Any) -> dict[str, ArgSpec]:
    """One spec per parameter of ``src.fn``, in order: a constant (from ``src.constants``,
    or an argument whose type is ``constexpr``), a pointer or a scalar."""
    names = list(src.fn.arg_names)
    specs: dict[str, ArgSpec] = {}
    for i, name in enumerate(names):
        if (i,) in src.constants:
            value = src.constants[(i,)]
            specs[name] = ConstexprArg(value.value if isinstance(value, core.constexpr) else value)
            continue
        ty = src.signature.get(name)
        if ty is None:
            raise SignatureError(
                f"{_where(src.fn)}: the signature has no type for parameter `{name}` and the "
                "constants no value"
            )
        if not isinstance(ty, str):
            raise SignatureError(
                f"{_where(src.fn)}: parameter `{name}` has the tuple type {ty!r}; triton.compile "
                "takes scalar, pointer and constexpr parameters (launch tuples through @jit)"
            )
        if ty == "constexpr":
            raise SignatureError(
                f"{_where(src.fn)}: constexpr parameter `{name}` has no value in the constants"
            )
        div = _divisibility(src.attrs.get((i,)))
        try:
            if ty.startswith("*"):
                element = ty[2:] if ty.startswith("*k") else ty[1:]
                specs[name] = PointerArg(scalar_type(element), div)
            else:
                dtype = scalar_type(ty)
                specs[name] = ScalarArg(dtype, div if dtype.is_int() else 1)
        except AssertionError:
            raise SignatureError(
                f"{_where(src.fn)}: parameter `{name}` has the type {ty!r}, which mytriton does "
                "not compile (scalars such as i32, u64, fp32, i1; pointers such as *fp16)"
            ) from None
    extra = [k for k in src.signature if k not in names]
    if extra:
        raise SignatureError(
            f"{_where(src.fn)}: the signature names {', '.join(map(repr, extra))}, not parameters "
            f"of the kernel ({', '.join(names)})"
        )
    return specs


def source_hash(src: Any) -> str:
    """The identity of a specialization: the kernel's source, attributes, types, constants."""
    fn = src.fn
    key = getattr(fn, "cache_key", None)
    if not isinstance(key, str):
        key = getattr(fn, "src", None) or getattr(getattr(fn, "fn", fn), "__qualname__", "")
    types = [v for _, v in sorted(src.signature.items())]
    constants = "-".join(
        getattr(v, "cache_key", None) or repr(v) for _, v in sorted(src.constants.items())
    )
    text = f"{key}-{src.attrs!s}-{types}-{constants}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
