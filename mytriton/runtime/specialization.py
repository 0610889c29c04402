"""Turning launch arguments into the frontend's argument specs and a cheap cache key.

The key follows the seed's rule, argument kinds and dtypes (framework independent) plus the
values of constexprs, refined as Triton does: integers equal to 1 are compiled in, and
integers divisible by 16 and arrays whose first element is 16-byte aligned are marked so
(``tt.divisibility``); an array's strides and contiguity are not part of the key. Arrays
become pointers, Python ints i32, floats f32, bools i1; ``None`` and ``tl.constexpr(...)``
values are compile-time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mytriton.backends.arrays import ArrayInfo, describe_array, is_array
from mytriton.dialects.tt import dtype_table
from mytriton.errors import ArgumentOverflowError, LaunchError
from mytriton.frontend import (
    ArgSpec,
    ConstexprArg,
    DescriptorArg,
    PointerArg,
    ScalarArg,
    TupleArg,
)
from mytriton.frontend.signature import DIVISIBILITY
from mytriton.language import core
from mytriton.passes.analysis.axis_info import pow2_dividing
from mytriton.runtime.annotated_types import int_range, is_number
from mytriton.runtime.dependencies import is_jit
from mytriton.runtime.descriptor_args import descriptor_arguments, descriptor_scalars
from mytriton.runtime.mock_tensor import MockTensor
from mytriton.tools.tensor_descriptor import TensorDescriptor, as_descriptor

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1

_NP_SCALARS: dict[type, core.dtype] = {
    np.float32: core.float32,
    np.int32: core.int32,
    np.bool_: core.int1,
}


def int_kind(value: int) -> int:
    """0: int32, 1: int64, 2: uint64, 3: out of range (what ``int_dtype`` decides, cheaply)."""
    if I32_MIN <= value <= I32_MAX:
        return 0
    if -(2**63) <= value < 2**63:
        return 1
    return 2 if 2**63 <= value < 2**64 else 3


def int_dtype(name: str, value: int) -> core.dtype:
    """Triton's rule for an integer argument: int32 when it fits, else int64, else uint64."""
    if I32_MIN <= value <= I32_MAX:
        return core.int32
    if -(2**63) <= value < 2**63:
        return core.int64
    if 2**63 <= value < 2**64:
        return core.uint64
    raise ArgumentOverflowError(f"argument `{name}` = {value} does not fit in int64 or uint64")


def scalar_dtype(name: str, value: Any) -> core.dtype:
    if isinstance(value, (bool, np.bool_)):
        return core.int1
    if isinstance(value, int):
        return int_dtype(name, value)
    if isinstance(value, float):
        return core.float32
    d = _NP_SCALARS.get(type(value))
    if d is not None:
        return d
    if isinstance(value, np.integer):
        return int_dtype(name, int(value))
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
    if is_jit(v):
        # its source may be replaced (``_unsafe_update_src`` swaps its function object)
        return (t, v, SourceVersion(v.fn))
    return (t, v)


class SourceVersion:
    """The function object a ``@jit`` value compiles from, in a compile-time value's key:
    equal only to itself (``_unsafe_update_src`` swaps it, so a replaced source recompiles).
    The disk cache's key describes the ``@jit`` value beside it by its fingerprint (its source
    as replaced), so this part's stable text is a constant."""

    __slots__ = ("fn",)

    def __init__(self, fn: Any):
        self.fn = fn

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SourceVersion) and other.fn is self.fn

    def __hash__(self) -> int:
        return id(self.fn)

    def __stable_text__(self) -> str:
        return "source-version"


def specialize(
    names: Sequence[str],
    constexpr_params: frozenset[str],
    values: Sequence[Any],
    no_value: frozenset[str] = frozenset(),
    no_alignment: frozenset[str] = frozenset(),
    annotated: Mapping[str, core.dtype] | None = None,
) -> tuple[dict[str, ArgSpec], tuple[Any, ...], list[Any], list[ArrayInfo | None]]:
    """Specs per parameter, the cache key, the runtime argument values and their array infos.

    Parameters in ``no_value`` (``@jit(do_not_specialize=...)``) are neither compiled in when
    equal to 1 nor marked divisible by 16; those in ``no_alignment``
    (``do_not_specialize_on_alignment``) are only not marked divisible. A number passed to a
    parameter ``annotated`` with a scalar type has that type (``annotated_types.py``)."""
    specs: dict[str, ArgSpec] = {}
    key: list[Any] = []
    runtime: list[Any] = []
    infos: list[ArrayInfo | None] = []
    for name, value in zip(names, values, strict=True):
        aligned = name not in no_value and name not in no_alignment
        spec: ArgSpec
        part: tuple[Any, ...]
        if (
            name in constexpr_params
            or value is None
            or isinstance(value, (core.constexpr, core.dtype))
        ):
            spec, part = _constexpr_spec(name, value)
        elif isinstance(value, MockTensor):  # warmup only: no memory, taken as aligned
            d = value.tl_dtype(f"argument `{name}`")
            div = DIVISIBILITY if aligned else 1
            spec, part = PointerArg(d, div), ("p", d.name, div)
            runtime.append(value)
            infos.append(None)
        elif is_array(value):
            # any strides: the kernel indexes with the strides it is passed, as in Triton
            info = describe_array(value, f"argument `{name}`")
            div = DIVISIBILITY if aligned and info.address % DIVISIBILITY == 0 else 1
            spec, part = PointerArg(info.dtype, div), ("p", info.dtype.name, div)
            runtime.append(value)
            infos.append(info)
        elif annotated and name in annotated and is_number(value):
            spec, part = _annotated_spec(name, annotated[name], value, aligned, name in no_value)
            runtime.append(value)
            infos.append(None)
        elif type(value) is int and value == 1 and name not in no_value:
            # Triton's rule: an integer equal to 1 (a unit stride) is compiled in as a constant
            spec, part = ConstexprArg(1), ("c", "int", 1)
        elif is_tuple_argument(value):
            spec, part = _tuple_spec(
                name, value, name in no_value, name in no_alignment, runtime, infos
            )
        elif is_jit(value):  # a @jit function passed to call: compiled in, as Triton does
            spec, part = ConstexprArg(value), ("c", constexpr_key(value))
        elif (desc := as_descriptor(value)) is not None:
            spec, part = _descriptor_spec(name, desc, aligned, runtime, infos)
        else:
            spec, part = _scalar_spec(name, value, aligned)
            runtime.append(value)
            infos.append(None)
        specs[name] = spec
        key.append(part)
    return specs, tuple(key), runtime, infos


def _constexpr_spec(name: str, value: Any) -> tuple[ConstexprArg, tuple[Any, ...]]:
    """A compile-time argument's spec and key part (a list stands for its tuple)."""
    v = value.value if isinstance(value, core.constexpr) else value
    try:
        hash(v)
    except TypeError:
        if isinstance(v, list):
            v = tuple(v)
        else:
            raise LaunchError(f"constexpr argument `{name}` must be hashable, got {v!r}") from None
    return ConstexprArg(v), ("c", constexpr_key(v))


def _descriptor_spec(
    name: str,
    desc: TensorDescriptor,
    aligned: bool,
    runtime: list[Any],
    infos: list[ArrayInfo | None],
) -> tuple[DescriptorArg, tuple[Any, ...]]:
    """A host tensor descriptor's spec and key part; its runtime leaves (base, shape,
    strides) go to ``runtime``/``infos``."""
    info = desc.validate()  # its fields may have changed since it was made
    # validate() refused a base not 16-byte aligned
    div = DIVISIBILITY if aligned else 1
    shape, strides = descriptor_scalars(name, desc)
    spec = DescriptorArg(
        info.dtype,
        tuple(desc.block_shape),
        desc.padding,
        div,
        tuple(min(pow2_dividing(v), DIVISIBILITY) for v in shape) if aligned else (),
        tuple(min(pow2_dividing(v), DIVISIBILITY) for v in strides) if aligned else (),
    )
    part = (
        "d",
        info.dtype.name,
        spec.block_shape,
        spec.padding,
        div,
        spec.shape_divisibility,
        spec.stride_divisibility,
    )
    leaves, leaf_infos = descriptor_arguments(desc, info, [*shape, *strides])
    runtime.extend(leaves)
    infos.extend(leaf_infos)
    return spec, part


def _scalar_spec(name: str, value: Any, aligned: bool) -> tuple[ScalarArg, tuple[Any, ...]]:
    """A number's spec and key part: its dtype, and whether an integer divides by 16."""
    d = scalar_dtype(name, value)
    div = DIVISIBILITY if aligned and d.kind == "int" and int(value) % DIVISIBILITY == 0 else 1
    return ScalarArg(d, div), ("s", d.name, div)


def _annotated_spec(
    name: str, d: core.dtype, value: Any, aligned: bool, no_value: bool
) -> tuple[ScalarArg, tuple[Any, ...]]:
    """The spec of a number passed to a parameter annotated with the scalar type ``d``: an
    integer type keeps the divisibility specialization, and a 1 is compiled apart (though
    not in: Triton keys it apart), a float or bool type specializes on nothing (Triton's
    rule); an integer type takes integers only, in its range."""
    if not (d.is_int() and not d.is_int1()):
        return ScalarArg(d, 1), ("s", d.name, 1)
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise LaunchError(f"argument `{name}` is annotated {d} and needs an integer, got {value!r}")
    low, high = int_range(d)
    if not low <= int(value) <= high:
        raise ArgumentOverflowError(
            f"argument `{name}` = {int(value)} does not fit its annotation {d}"
        )
    div = DIVISIBILITY if aligned and int(value) % DIVISIBILITY == 0 else 1
    one = not no_value and int(value) == 1
    return ScalarArg(d, div), ("s", d.name, div, "one") if one else ("s", d.name, div)


def is_tuple_argument(value: Any) -> bool:
    """A tuple, a ``NamedTuple`` or another tuple subclass (``torch.Size``): Triton's tuple
    arguments."""
    return isinstance(value, tuple)


def _tuple_spec(
    name: str,
    value: tuple[Any, ...],
    no_value: bool,
    no_alignment: bool,
    runtime: list[Any],
    infos: list[ArrayInfo | None],
) -> tuple[TupleArg, tuple[Any, ...]]:
    """A tuple argument's spec and key part; its runtime elements go to ``runtime``/``infos``
    depth first. Each element is specialized as an argument of its own would be."""
    elements: list[ArgSpec] = []
    parts: list[Any] = []
    for i, item in enumerate(value):
        where = f"{name}[{i}]"
        if is_tuple_argument(item):
            tuple_spec, part = _tuple_spec(where, item, no_value, no_alignment, runtime, infos)
            elements.append(tuple_spec)
            parts.append(part)
            continue
        if item is None or isinstance(item, (core.constexpr, core.dtype)) or is_jit(item):
            v = item.value if isinstance(item, core.constexpr) else item
            elements.append(ConstexprArg(v))
            parts.append(("c", constexpr_key(v)))
            continue
        if as_descriptor(item) is not None:
            raise LaunchError(
                f"argument `{where}`: a tensor descriptor inside a tuple argument "
                "is not supported; pass it as an argument of its own"
            )
        sub_no_value = frozenset([where]) if no_value else frozenset()
        sub_no_alignment = frozenset([where]) if no_alignment else frozenset()
        specs, key, leaves, leaf_infos = specialize(
            [where], frozenset(), [item], sub_no_value, sub_no_alignment
        )
        elements.append(specs[where])
        parts.append(key[0])
        runtime.extend(leaves)
        infos.extend(leaf_infos)
    kind = type(value) if hasattr(type(value), "_fields") else tuple  # a NamedTuple stays one
    return TupleArg(tuple(elements), kind), ("t", kind, tuple(parts))


def tuple_leaves(spec: TupleArg, value: tuple[Any, ...], out: list[Any]) -> None:
    """Append the runtime elements of a tuple argument ``value`` (specialized as ``spec``)."""
    for s, v in zip(spec.elements, value, strict=True):
        if isinstance(s, TupleArg):
            tuple_leaves(s, v, out)
        elif not isinstance(s, ConstexprArg):
            out.append(v)


def tuple_runtime(
    specs: dict[str, ArgSpec], names: Sequence[str]
) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """A plan's ``values -> runtime arguments`` where some parameters are tuples: their
    runtime elements flattened in place, depth first, as the kernel's function takes them."""
    order = [(i, specs[n]) for i, n in enumerate(names) if not isinstance(specs[n], ConstexprArg)]

    def runtime(values: Sequence[Any]) -> tuple[Any, ...]:
        out: list[Any] = []
        for i, spec in order:
            if isinstance(spec, TupleArg):
                tuple_leaves(spec, values[i], out)
            else:
                out.append(values[i])
        return tuple(out)

    return runtime


def signature_type_name(d: core.dtype) -> str:
    """Triton's short name of a scalar type in a signature: ``i32``, ``u64``, ``fp32``..."""
    row = dtype_table.BY_DTYPE_NAME.get(d.name)
    return row.signature if row is not None else d.name


class SpecializationProxy:
    """What ``@jit(repr=fn)`` receives, as in Triton: ``signature`` maps each parameter to its
    type (``"i32"``, ``"*fp32"``, ``"constexpr"``) and ``constants`` maps the compile-time ones
    (constexprs and integers equal to 1) to their values."""

    def __init__(self, specs: dict[str, ArgSpec]):
        self.signature: dict[str, str] = {}
        self.constants: dict[str, Any] = {}
        for name, spec in specs.items():
            if isinstance(spec, ConstexprArg):
                self.signature[name] = "constexpr"
                self.constants[name] = spec.value
            elif isinstance(spec, PointerArg):
                self.signature[name] = "*" + signature_type_name(spec.dtype)
            elif isinstance(spec, DescriptorArg):
                shape = list(spec.block_shape)
                self.signature[name] = f"tensordesc<{signature_type_name(spec.dtype)}{shape}>"
            elif isinstance(spec, TupleArg):
                self.signature[name] = "tuple"
            else:
                self.signature[name] = signature_type_name(spec.dtype)
