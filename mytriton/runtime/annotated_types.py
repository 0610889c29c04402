"""Scalar parameters typed by their annotation, as Triton 3.6 types them.

``def k(X, v: tl.int8)`` (or ``"tl.uint16"``, ``"int8"``, ``float``, ``bool``...) makes ``v`` a
runtime parameter of that type, whatever Python number a launch passes: the kernel sees
``%v: i8``, and the launcher passes the value as that type (the GPU ABI widens it and the
kernel narrows it again: ``gpu_lowering/driver.py``). An integer annotation keeps the
divisibility specialization but not the "equal to 1 is a constant" one; a float or bool
annotation specializes on nothing. Other annotations (pointers, ``torch.Tensor``, ``int`` on a
tensor argument) change nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from mytriton.dialects.tt import dtype_table
from mytriton.language import core

#: the C spellings Triton also takes (``type_canonicalisation``), beside each non-fp8 row's
#: names in the dtype table (``tl`` name, dtype name, signature type): dtype name by spelling
_C_SPELLINGS = {"bool": "int1", "uint1": "int1", "u1": "int1", "half": "fp16", "float": "fp32"}
_C_SPELLINGS |= {"double": "fp64", "int": "int32"}
_BY_SPELLING = {
    spelling: row.dtype_name
    for row in dtype_table.ROWS
    if row.kind != "fp8"  # no fp8 scalar parameters
    for spelling in (row.name, row.dtype_name, row.signature)
} | _C_SPELLINGS


def is_constexpr_annotation(annotation: Any) -> bool:
    """``tl.constexpr`` (or a text naming it): a compile-time parameter."""
    if annotation is core.constexpr or isinstance(annotation, core.constexpr):
        return True
    return isinstance(annotation, str) and annotation.split(".")[-1] == "constexpr"


def scalar_annotation(annotation: Any) -> core.dtype | None:
    """The scalar type an annotation names (``tl.int8``, ``"tl.int8"``, ``"i8"``,
    ``"int8_t"``, ``int``, ``float``, ``bool``), or None."""
    if isinstance(annotation, core.dtype):
        text = annotation.name
    elif isinstance(annotation, type):
        text = annotation.__name__
    elif isinstance(annotation, str):
        text = annotation.strip().removeprefix("tl.")
    else:
        return None
    name = _BY_SPELLING.get(text.replace("_t", ""))
    return core.dtype(name) if name is not None else None


def annotated_scalars(parameters: Mapping[str, Any], constexprs: frozenset[str]) -> dict[str, Any]:
    """The parameters (name -> ``inspect.Parameter``) an annotation types, and their dtypes."""
    typed = {}
    for name, param in parameters.items():
        if name in constexprs:
            continue
        d = scalar_annotation(param.annotation)
        if d is not None:
            typed[name] = d
    return typed


def int_range(d: core.dtype) -> tuple[int, int]:
    """The values of the integer type ``d``."""
    bits = d.int_bitwidth
    if d.is_int_unsigned():
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def checked_ranges(annotated: Mapping[str, core.dtype]) -> dict[str, tuple[int, int]]:
    """The annotated integer parameters whose values a launch must check against the type's
    range itself (the launch plans' integer guards check the int32, int64 and uint64 ranges
    only), and those ranges: a value out of range is a typed error, not its low bits."""
    return {
        name: int_range(d)
        for name, d in annotated.items()
        if d.is_int() and not d.is_int1() and (d.int_bitwidth < 32 or d.is_int_unsigned())
    }


def is_number(value: Any) -> bool:
    """A value an annotated scalar parameter takes: a Python or NumPy number or bool."""
    return isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating))
