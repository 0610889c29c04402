"""Triton's standard library reductions and scans, written as ``@jit`` functions over
``tl.reduce`` and ``tl.associative_scan`` (so every backend sees ordinary ``tt.reduce`` and
``tt.scan`` ops): ``argmax``/``argmin``, ``xor_sum``, ``reduce_or``, ``cumsum``, ``cumprod``,
and the combine functions ``tl.max``/``tl.min(return_indices=True)`` use.

Semantics follow Triton 3.6: ``argmax`` keeps the first maximum (``tie_break_left``) and
compares with ``>``, so a NaN never wins a comparison (which element a NaN-holding row reports
then depends on the combination order); ``cumsum`` of integers narrower than 32 bits sums in
32 bits of their signedness unless ``dtype`` is given; bfloat16 is scanned in float32.
"""

from __future__ import annotations

from typing import Any

import mytriton.language as tl
from mytriton.language import core
from mytriton.language.constexpr_functions import constexpr_function
from mytriton.runtime.jit import jit

# ---- combine functions ----


@jit
def _argmax_combine(
    value1: Any, index1: Any, value2: Any, index2: Any, tie_break_left: tl.constexpr
) -> Any:
    tie = (value1 == value2 and index1 < index2) if tie_break_left else False
    gt = value1 > value2 or tie
    return tl.where(gt, value1, value2), tl.where(gt, index1, index2)


@jit
def _argmax_combine_tie_break_left(value1: Any, index1: Any, value2: Any, index2: Any) -> Any:
    return _argmax_combine(value1, index1, value2, index2, True)


@jit
def _argmax_combine_tie_break_fast(value1: Any, index1: Any, value2: Any, index2: Any) -> Any:
    return _argmax_combine(value1, index1, value2, index2, False)


@jit
def _argmin_combine(
    value1: Any, index1: Any, value2: Any, index2: Any, tie_break_left: tl.constexpr
) -> Any:
    tie = (value1 == value2 and index1 < index2) if tie_break_left else False
    lt = value1 < value2 or tie
    return tl.where(lt, value1, value2), tl.where(lt, index1, index2)


@jit
def _argmin_combine_tie_break_left(value1: Any, index1: Any, value2: Any, index2: Any) -> Any:
    return _argmin_combine(value1, index1, value2, index2, True)


@jit
def _argmin_combine_tie_break_fast(value1: Any, index1: Any, value2: Any, index2: Any) -> Any:
    return _argmin_combine(value1, index1, value2, index2, False)


# by ``tie_break_left``: what ``tl.max``/``tl.min(..., return_indices=True)`` reduce with
argmax_combine = {True: _argmax_combine_tie_break_left, False: _argmax_combine_tie_break_fast}
argmin_combine = {True: _argmin_combine_tie_break_left, False: _argmin_combine_tie_break_fast}


@jit
def _sum_combine(a: Any, b: Any) -> Any:
    return a + b


@jit
def _prod_combine(a: Any, b: Any) -> Any:
    return a * b


@jit
def _xor_combine(a: Any, b: Any) -> Any:
    return a ^ b


@jit
def _or_combine(a: Any, b: Any) -> Any:
    return a | b


# ---- reductions ----


@jit
def argmax(input: Any, axis: Any, tie_break_left: Any = True, keep_dims: Any = False) -> Any:
    """The index along ``axis`` of the maximum (the first one with ``tie_break_left``)."""
    _, index = tl.max(
        input,
        axis,
        return_indices=True,
        return_indices_tie_break_left=tie_break_left,
        keep_dims=keep_dims,
    )
    return index


@jit
def argmin(input: Any, axis: Any, tie_break_left: Any = True, keep_dims: Any = False) -> Any:
    """The index along ``axis`` of the minimum (the first one with ``tie_break_left``)."""
    _, index = tl.min(
        input,
        axis,
        return_indices=True,
        return_indices_tie_break_left=tie_break_left,
        keep_dims=keep_dims,
    )
    return index


@jit
def xor_sum(input: Any, axis: Any = None, keep_dims: Any = False) -> Any:
    """The bitwise xor of the elements along ``axis`` (integers only)."""
    tl.static_assert(input.dtype.is_int(), "xor_sum only supported for integers")
    return tl.reduce(input, axis, _xor_combine, keep_dims=keep_dims)


@jit
def reduce_or(input: Any, axis: Any, keep_dims: Any = False) -> Any:
    """The bitwise or of the elements along ``axis`` (integers only)."""
    tl.static_assert(input.dtype.is_int(), "reduce_or only supported for integers")
    return tl.reduce(input, axis, _or_combine, keep_dims=keep_dims)


# ---- scans ----


@jit
def cumsum(input: Any, axis: Any = 0, reverse: Any = False, dtype: Any = None) -> Any:
    """Inclusive prefix sums along ``axis`` (from the end with ``reverse``); in ``dtype`` when
    given, else integers narrower than 32 bits in 32 bits of their signedness."""
    if input.dtype == tl.bfloat16:
        input = input.to(tl.float32)
    if dtype is not None:
        input = input.to(dtype)
    elif input.dtype.is_int() and input.dtype.primitive_bitwidth < 32:
        input = input.to(tl.uint32 if input.dtype.is_int_unsigned() else tl.int32)
    return tl.associative_scan(input, axis, _sum_combine, reverse)


@jit
def cumprod(input: Any, axis: Any = 0, reverse: Any = False) -> Any:
    """Inclusive prefix products along ``axis`` (from the end with ``reverse``)."""
    if input.dtype == tl.bfloat16:
        input = input.to(tl.float32)
    return tl.associative_scan(input, axis, _prod_combine, reverse)


# ---- compile-time helpers (Triton's ``tl.standard._log2`` & co., which libraries reuse) ----


@constexpr_function
def _log2(i: int) -> int:
    """The floor of ``log2(i)`` (0 for ``i <= 1``), at compile time."""
    log2 = 0
    while i > 1:
        i >>= 1
        log2 += 1
    return log2


@constexpr_function
def _is_power_of_two(i: int) -> bool:
    return i > 0 and i & (i - 1) == 0


_get_int_dtype = constexpr_function(core.get_int_dtype)


def __getattr__(name: str) -> Any:
    # Triton's ``tl.standard`` holds its standard library (``zeros_like``, ``sum``, ``sort``...),
    # which are ``tl.<name>`` here: the same objects
    if not name.startswith("__") and name in tl.__all__:
        return getattr(tl, name)
    raise AttributeError(f"module 'mytriton.language.standard' has no attribute {name!r}")
