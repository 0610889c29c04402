"""Turning launch arguments into the frontend's argument specs and a cheap cache key.

The key follows the seed's rule, argument kinds and dtypes (framework independent) plus the
values of constexprs, refined as Triton does: integers equal to 1 are compiled in, and
integers divisible by 16 and 16-byte aligned arrays are marked so (``tt.divisibility``). Arrays
become pointers, Python ints i32, floats f32, bools i1; ``None`` and ``tl.constexpr(...)``
values are compile-time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mytriton.backends.arrays import ArrayInfo, describe_array, is_array
from mytriton.errors import LaunchError
from mytriton.frontend import ArgSpec, ConstexprArg, PointerArg, ScalarArg
from mytriton.frontend.signature import DIVISIBILITY
from mytriton.language import core

I32_MIN, I32_MAX = -(2**31), 2**31 - 1

_NP_SCALARS: dict[type, core.dtype] = {
    np.float32: core.float32,
    np.int32: core.int32,
    np.bool_: core.int1,
}


def scalar_dtype(name: str, value: Any) -> core.dtype:
    if isinstance(value, (bool, np.bool_)):
        return core.int1
    if isinstance(value, int):
        if not I32_MIN <= value <= I32_MAX:
            raise LaunchError(
                f"argument `{name}` = {value} does not fit in int32 (int64 is not supported yet)"
            )
        return core.int32
    if isinstance(value, float):
        return core.float32
    d = _NP_SCALARS.get(type(value))
    if d is not None:
        return d
    if isinstance(value, np.integer):
        if not I32_MIN <= int(value) <= I32_MAX:
            raise LaunchError(f"argument `{name}` = {value} does not fit in int32")
        return core.int32
    if isinstance(value, np.floating):
        return core.float32
    raise LaunchError(
        f"argument `{name}` has type {type(value).__name__}; kernels take arrays, numbers, "
        "booleans, None and tl.constexpr values"
    )


def constexpr_key(v: Any) -> Any:
    """A cache key for a compile-time value that tells apart what ``==`` conflates: ``0.0`` and
    ``-0.0``, ``1`` and ``1.0`` and ``True`` (as part of a tuple), and that matches a NaN
    with itself (``nan != nan`` would recompile on every launch)."""
    t = type(v)
    if t is core.constexpr:
        return (t, constexpr_key(v.value))
    if t is float:
        return (float, v.hex())
    if t is tuple or t is list:
        return (t, tuple(constexpr_key(x) for x in v))
    return (t, v)


def specialize(
    names: Sequence[str], constexpr_params: frozenset[str], values: Sequence[Any]
) -> tuple[dict[str, ArgSpec], tuple[Any, ...], list[Any], list[ArrayInfo | None]]:
    """Specs per parameter, the cache key, the runtime argument values and their array infos."""
    specs: dict[str, ArgSpec] = {}
    key: list[Any] = []
    runtime: list[Any] = []
    infos: list[ArrayInfo | None] = []
    for name, value in zip(names, values, strict=True):
        if (
            name in constexpr_params
            or value is None
            or isinstance(value, (core.constexpr, core.dtype))
        ):
            v = value.value if isinstance(value, core.constexpr) else value
            try:
                hash(v)
            except TypeError:
                if isinstance(v, list):
                    v = tuple(v)
                else:
                    raise LaunchError(
                        f"constexpr argument `{name}` must be hashable, got {v!r}"
                    ) from None
            specs[name] = ConstexprArg(v)
            key.append(("c", constexpr_key(v)))
        elif is_array(value):
            info = describe_array(value, f"argument `{name}`")
            if not info.contiguous:
                raise LaunchError(
                    f"argument `{name}` is not C-contiguous; pass a contiguous array "
                    "(np.ascontiguousarray / .contiguous())"
                )
            div = DIVISIBILITY if info.address % DIVISIBILITY == 0 else 1
            specs[name] = PointerArg(info.dtype, div)
            key.append(("p", info.dtype.name, div))
            runtime.append(value)
            infos.append(info)
        elif type(value) is int and value == 1:
            # Triton's rule: an integer equal to 1 (a unit stride) is compiled in as a constant
            specs[name] = ConstexprArg(1)
            key.append(("c", "int", 1))
        else:
            d = scalar_dtype(name, value)
            div = DIVISIBILITY if d == core.int32 and int(value) % DIVISIBILITY == 0 else 1
            specs[name] = ScalarArg(d, div)
            key.append(("s", d.name, div))
            runtime.append(value)
            infos.append(None)
    return specs, tuple(key), runtime, infos
