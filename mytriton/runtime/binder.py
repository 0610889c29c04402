"""A kernel's binder: a function with the kernel's own parameter list, generated once per
``@jit`` function, that binds a launch's arguments the way Python binds a call (positions,
keywords, defaults: in C, not through ``inspect``) and describes them for the launch-plan key.

``bind(*args, **kwargs)`` returns ``(values, options, described)``: every parameter's value in
order, the keywords that are not parameters (launch options such as ``num_warps``), and per
parameter what of its value decides the specialization (``describe`` below), computed without
loops. A value it cannot describe cheaply raises ``Unsure``, and arguments that do not bind
raise ``TypeError``: the caller then takes the slow path, which reports errors properly.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from mytriton.frontend.signature import DIVISIBILITY
from mytriton.runtime.specialization import (
    I32_MAX,
    I32_MIN,
    I64_MAX,
    I64_MIN,
    constexpr_key,
    int_kind,
)
from mytriton.tools.tensor_descriptor import TensorDescriptor

Binder = Callable[..., tuple[tuple[Any, ...], dict[str, Any], tuple[Any, ...]]]


class Unsure(Exception):
    """An argument the fast path cannot describe cheaply: take the slow path."""


def _int(v: int) -> Any:
    # int32, int64 or uint64 (specialization.int_dtype), 1, divisible (out of range: no plan
    # matches, the slow path raises the OverflowError)
    return (int, int_kind(v), v == 1, v % DIVISIBILITY == 0)


def _torch(v: Any) -> Any:
    return (type(v), v.dtype, v.device, v.data_ptr() % DIVISIBILITY == 0)


def _cupy(v: Any) -> Any:
    return (type(v), v.dtype, v.device.id, v.data.ptr % DIVISIBILITY == 0)


def _numpy(v: Any) -> Any:
    return (np.ndarray, v.dtype, v.ctypes.data % DIVISIBILITY == 0)


def _itself(v: Any) -> Any:
    return type(v)


def _none(v: Any) -> Any:
    return (None, None)


def _unsure(v: Any) -> Any:
    raise Unsure


def _descriptor(v: Any) -> Any:
    """A host descriptor (ours or Triton's class): what its specialization holds (the base's
    description, block shape, padding, the powers of two dividing its shape and strides) and
    what Triton's checks of it read, so that a plan found by this key is one whose checks
    passed; anything unusual (ranks that disagree, a last stride not 1, entries out of the
    int32 / int64 range) goes the slow way, which reports it."""
    shape, strides, block = v.shape, v.strides, v.block_shape
    rank = len(shape)
    if not rank or len(strides) != rank or len(block) != rank or strides[-1] != 1:
        raise Unsure
    sizes = [int(x) for x in shape]
    steps = [int(x) for x in strides]
    if min(sizes) < I32_MIN or max(sizes) > I32_MAX or min(steps) < I64_MIN or max(steps) > I64_MAX:
        raise Unsure
    return (
        type(v),
        describe(v.base),
        tuple(block),
        v.padding,
        tuple([_pow2_dividing(x) for x in sizes]),
        tuple([_pow2_dividing(x) for x in steps]),
    )


def _pow2_dividing(x: int) -> int:
    """``min(axis_info.pow2_dividing(x), DIVISIBILITY)``, as the specialization marks it."""
    return DIVISIBILITY if x % DIVISIBILITY == 0 else x & -x


_DESCRIBERS: dict[type, Callable[[Any], Any]] = {
    int: _int,
    float: _itself,
    bool: _itself,
    type(None): _none,
    np.ndarray: _numpy,
}


def describer(t: type) -> Callable[[Any], Any]:
    """How to describe a runtime argument of type ``t`` (found once per type)."""
    found = _DESCRIBERS.get(t)
    if found is None:
        module = t.__module__
        if module.startswith("torch") and hasattr(t, "data_ptr"):  # nn.Parameter too
            found = _torch
        elif module.startswith("cupy") and hasattr(t, "data"):
            found = _cupy
        elif t is TensorDescriptor or (
            t.__name__ == "TensorDescriptor" and module == "triton.tools.tensor_descriptor"
        ):
            found = _descriptor
        else:
            found = _unsure
        _DESCRIBERS[t] = found
    return found


def describe(v: Any) -> Any:
    """What of one runtime argument's value decides the specialization (cheap to compute)."""
    return describer(type(v))(v)


def options_key(options: dict[str, Any]) -> tuple[Any, ...]:
    """The launch options as part of a plan key (``4`` and ``4.0`` and ``True`` kept apart)."""
    return tuple([(k, type(v), v) for k, v in options.items()])


def _in_range(low: int, high: int) -> Callable[[Any], Any]:
    """How to describe an argument whose integer values must lie in ``[low, high]`` (an
    annotated narrow type's): out of range, no plan matches and the slow path raises."""

    def describe_in_range(v: Any) -> Any:
        d = describe(v)
        return (d, low <= v <= high) if type(v) is int else d

    return describe_in_range


def make_binder(
    name: str,
    signature: inspect.Signature,
    constexprs: frozenset[str],
    ranges: Mapping[str, tuple[int, int]] | None = None,
) -> Binder | None:
    """The binder of a kernel with this signature, or None for parameters it does not handle
    (``*args``, keyword-only: the frontend rejects them) or names it cannot use; a parameter
    in ``ranges`` is described with whether its integer value lies in its range."""
    params = list(signature.parameters.values())
    names = [p.name for p in params]
    if any(
        p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD
        or p.name.startswith("_mt_")
        or keyword.iskeyword(p.name)
        for p in params
    ):
        return None
    namespace: dict[str, Any] = {
        "_mt_described": _DESCRIBERS,
        "_mt_describer": describer,
        "_mt_constexpr": constexpr_key,
        "_mt_int": int,
        "_mt_type": type,
    }
    header: list[str] = []
    described: list[str] = []
    for i, p in enumerate(params):
        if p.default is inspect.Parameter.empty:
            header.append(p.name)
        else:
            namespace[f"_mt_default{i}"] = p.default
            header.append(f"{p.name}=_mt_default{i}")
        v = p.name
        if p.name in constexprs:
            described.append(f"(_mt_int, {v}) if _mt_type({v}) is _mt_int else _mt_constexpr({v})")
        elif ranges and p.name in ranges:
            namespace[f"_mt_ranged{i}"] = _in_range(*ranges[p.name])
            described.append(f"_mt_ranged{i}({v})")
        else:
            described.append(
                f"(_mt_described.get(_mt_type({v})) or _mt_describer(_mt_type({v})))({v})"
            )
    source = (
        f"def bind({', '.join([*header, '**_mt_options'])}):\n"
        f"    return ({''.join(n + ', ' for n in names)}), _mt_options, "
        f"({''.join(d + ', ' for d in described)})\n"
    )
    exec(compile(source, f"<mytriton binder of {name}>", "exec"), namespace)
    binder: Binder = namespace["bind"]
    return binder
