"""The native fast path of one launch plan: the guards of ``fast_path.py`` and the launch, run
by ``native/fast_launch.c`` instead of generated Python (a launch then costs little more than
the driver's ``cuLaunchKernel``).

This module turns a plan into the C object's specification: per parameter one guard (its kind
and what it expects), per runtime argument its ABI kind, the launch options and environment the
plan was made under, and the launch itself (``NativeLaunch``). Where a plan has an argument
the C guards do not cover, or the module cannot be built, it returns None and the runtime keeps
the Python fast path.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from mytriton.backends.device_launcher import NativeLaunch
from mytriton.frontend.signature import DIVISIBILITY
from mytriton.runtime import native_build
from mytriton.runtime.binder import describer
from mytriton.runtime.fast_path import environment_store
from mytriton.runtime.specialization import constexpr_key, int_kind

# guards and ABI kinds, as numbered in fast_launch.c
G_CONST_INT, G_CONST_OTHER, G_NONE, G_INT, G_FLOAT, G_BOOL, G_TORCH, G_CUPY = range(8)
_PASS = {"ptr": 0, "i32": 1, "i64": 2, "f32": 3, "f64": 4}
# the ABI kinds each runtime guard may feed
_FEEDS = {
    G_INT: ("i32", "i64"),
    G_FLOAT: ("f32",),
    G_BOOL: ("i32",),
    G_TORCH: ("ptr",),
    G_CUPY: ("ptr",),
}
MAX_PARAMS = 64
_I64_MIN = -(2**63)


class _Missing:
    """A parameter without a default (the C binder reports the launch to the general path)."""


_MISSING = _Missing()


def make_native_fast_path(
    *,
    signature: inspect.Signature,
    constexprs: frozenset[str],
    no_value: frozenset[str],
    no_alignment: frozenset[str],
    values: Sequence[Any],
    options: dict[str, Any],
    environment: tuple[tuple[bytes, ...], tuple[bytes | None, ...]],
    runtime_indices: tuple[int, ...],
    native: NativeLaunch,
    kernel: Any,
    general: Callable[[Any, tuple[Any, ...], dict[str, Any]], Any],
    normalize: Callable[[Any], tuple[int, int, int]],
) -> Any | None:
    """The C fast path of the plan these ``values`` and ``options`` (the launch's own
    keyword options) got under ``environment``; None where it cannot be made."""
    module = native_build.load()
    store = environment_store()
    params = list(signature.parameters.values())
    if module is None or store is None or len(params) > MAX_PARAMS:
        return None
    guards = []
    for p, v in zip(params, values, strict=True):
        guard = _guard(v, p.name in constexprs, p.name in no_value, p.name in no_alignment)
        if guard is None:
            return None
        guards.append(guard)
    if len(runtime_indices) != len(native.params):
        return None
    for i, kind in zip(runtime_indices, native.params, strict=True):
        if kind not in _FEEDS.get(guards[i][0], ()):
            return None  # an argument the C guards cannot pass as this ABI kind
    names_values = list(zip(*environment, strict=True))
    return module.make(
        tuple(p.name for p in params),
        tuple(_MISSING if p.default is inspect.Parameter.empty else p.default for p in params),
        _MISSING,
        tuple(guards),
        runtime_indices,
        tuple(_PASS[k] for k in native.params),
        dict(options) if options else None,
        store,
        tuple(k for k, v in names_values if v is None),
        tuple((k, v) for k, v in names_values if v is not None),
        normalize,
        kernel,
        general,
        native.on_error,
        constexpr_key,
        native.launch_address,
        native.function,
        native.block,
        native.stream_of,
        native.stream_arg,
        *(native.switch or (None, None)),
        native.device,
        native.after,
    )


def _guard(
    value: Any, is_constexpr: bool, no_value: bool, no_alignment: bool
) -> tuple[Any, ...] | None:
    """``(guard, type, dtype, device, value, key, int_kind, not_one, divisible, aligned)`` of
    one parameter's value, as ``fast_path._guard`` checks it; None: no C guard for it."""
    t = type(value)
    unchecked = -1
    if is_constexpr or value is None:
        if value is None:
            return (G_NONE, None, None, 0, 0, None, 0, 0, unchecked, unchecked)
        if t is int and _I64_MIN <= value < 2**63:
            return (G_CONST_INT, None, None, 0, value, None, 0, 0, unchecked, unchecked)
        return (G_CONST_OTHER, None, None, 0, 0, constexpr_key(value), 0, 0, unchecked, unchecked)
    if t is int:
        if value == 1 and not no_value:
            return (G_CONST_INT, None, None, 0, 1, None, 0, 0, unchecked, unchecked)
        kind = int_kind(value)
        if kind > 2:
            return None
        divisible = unchecked
        if not no_value and not no_alignment:
            divisible = int(value % DIVISIBILITY == 0)
        not_one = int(not no_value)
        return (G_INT, None, None, 0, 0, None, kind, not_one, divisible, unchecked)
    if t is float:
        return (G_FLOAT, None, None, 0, 0, None, 0, 0, unchecked, unchecked)
    if t is bool:
        return (G_BOOL, None, None, 0, 0, None, 0, 0, unchecked, unchecked)
    kind_of = describer(t).__name__
    if kind_of == "_torch":
        guard, device = G_TORCH, value.get_device()
    elif kind_of == "_cupy":
        guard, device = G_CUPY, value.device.id
    else:
        return None
    aligned = unchecked
    if not no_value and not no_alignment:
        aligned = int(describer(t)(value)[-1])
    return (guard, t, value.dtype, device, 0, None, 0, 0, unchecked, aligned)
