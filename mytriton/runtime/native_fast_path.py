"""The native fast path of one launch plan: the guards of ``fast_path.py`` and the launch, run
by ``native/fast_launch.c`` instead of generated Python (a launch then costs little more than
the driver's ``cuLaunchKernel``).

This module turns a plan into the C object's specification: per parameter one guard (its kind
and what it expects), per runtime argument its ABI kind, the launch options, environment and
globals (the objects compiled in) the plan was made under, and the launch itself
(``NativeLaunch``). Where a plan has an argument
the C guards do not cover, or the module cannot be built, it returns None and the runtime keeps
the Python fast path.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from mytriton.backends.nvidia.device_launcher import NativeLaunch
from mytriton.runtime import native_build
from mytriton.runtime.fast_path import environment_store
from mytriton.runtime.guards import Guard, guard_of
from mytriton.runtime.specialization import constexpr_key

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
    global_guards: tuple[tuple[Any, ...], ...],
    general: Callable[[Any, tuple[Any, ...], dict[str, Any]], Any],
    normalize: Callable[[Any], tuple[int, int, int]],
) -> Any | None:
    """The C fast path of the plan these ``values`` and ``options`` (the launch's own
    keyword options) got under ``environment`` and with the globals of ``global_guards``
    (``global_values.fast_guards``); None where it cannot be made."""
    module = native_build.load()
    store = environment_store()
    params = list(signature.parameters.values())
    if module is None or store is None or len(params) > MAX_PARAMS:
        return None
    guards = []
    for p, v in zip(params, values, strict=True):
        fact = guard_of(v, p.name in constexprs, p.name in no_value, p.name in no_alignment)
        if fact is None:
            return None
        guards.append(_packed(fact))
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
        global_guards,
    )


_GUARDS = {
    "const_int": G_CONST_INT,
    "constexpr": G_CONST_OTHER,
    "none": G_NONE,
    "int": G_INT,
    "float": G_FLOAT,
    "bool": G_BOOL,
    "torch": G_TORCH,
    "cupy": G_CUPY,
}


def _packed(g: Guard) -> tuple[Any, ...]:
    """``g`` as ``fast_launch.c`` reads it: ``(guard, type, dtype, device, value, key,
    int_kind, not_one, divisible, aligned)``, -1 for an unchecked divisibility or alignment."""
    const = g.value if g.kind == "const_int" else 0
    key = g.value if g.kind == "constexpr" else None
    divisible = -1 if g.divisible is None else int(g.divisible)
    aligned = -1 if g.aligned is None else int(g.aligned)
    return (
        _GUARDS[g.kind], g.type, g.dtype, g.device, const, key,
        g.int_kind, int(g.not_one), divisible, aligned,
    )  # fmt: skip
