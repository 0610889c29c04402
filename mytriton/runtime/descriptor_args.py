"""A host tensor descriptor's runtime arguments, at every launch: its base, its int32 shape,
its int64 strides but the last, and its tensor map (or the placeholder of a map the kernel does
not read). ``specialize`` makes them on a launch that compiles or plans; a launch plan's
``runtime`` (``descriptor_runtime``) makes them again for each later launch that matches the
plan, so that launches with descriptors reuse their plan as launches with arrays do (before,
each went through binding, specialization and a new plan: ~200 us a launch on the H200).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mytriton.backends import Backend
from mytriton.backends.arrays import ArrayInfo
from mytriton.errors import ArgumentOverflowError
from mytriton.frontend import ConstexprArg, DescriptorArg
from mytriton.language import core
from mytriton.runtime.tensor_maps import LaunchMaps, unread_map


def descriptor_scalars(name: str, desc: Any) -> tuple[list[int], list[int]]:
    """The shape (int32) and the strides but the last (int64) of descriptor ``name`` (a
    ``TensorDescriptor``, or Triton's), checked."""
    shape = [_checked(name, "shape", v, core.int32) for v in desc.shape]
    strides = [_checked(name, "strides", v, core.int64) for v in desc.strides[:-1]]
    return shape, strides


def descriptor_arguments(
    desc: Any, info: ArrayInfo, scalars: Sequence[int]
) -> tuple[list[Any], list[ArrayInfo | None]]:
    """The runtime arguments of one descriptor and their array infos; the tensor map's place
    holds a placeholder until the launch knows the kernel reads the map (``fill_tensor_maps``)."""
    unread, unread_info = unread_map(info)
    return [desc.base, *scalars, unread], [info, *(None for _ in scalars), unread_info]


def descriptor_runtime(
    specs: Mapping[str, Any],
    names: Sequence[str],
    runtime: Sequence[Any],
    infos: Sequence[ArrayInfo | None],
    maps: Mapping[str, Any] | None,
    backend: Backend,
) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """A plan's ``runtime``: a launch's runtime arguments out of its parameters' values (those
    of a plan whose specialization has descriptors, made from ``runtime`` and ``infos``, its
    first launch's), the tensor maps the kernel reads filled in. The plan's key
    (``binder._descriptor``) holds what the specialization checked: the ranges of shapes and
    strides, the base's framework, device and element type, so a map the kernel does not read
    keeps the plan's placeholder."""
    picks: list[tuple[int, int]] = []  # (parameter, its rank where a descriptor, else 0)
    unread: list[Any] = []  # per descriptor, the plan's argument in its tensor map's place
    at = 0
    for i, n in enumerate(names):
        spec = specs[n]
        if isinstance(spec, ConstexprArg):
            continue
        if isinstance(spec, DescriptorArg):
            picks.append((i, spec.rank))
            at += 2 * spec.rank
            unread.append(runtime[at])
        else:
            picks.append((i, 0))
        at += 1
    launch_maps = LaunchMaps(maps, backend, infos) if maps else None

    def launch_runtime(values: Sequence[Any]) -> tuple[Any, ...]:
        flat: list[Any] = []
        placeholders = iter(unread)
        for i, rank in picks:
            v = values[i]
            if not rank:
                flat.append(v)
                continue
            # ours or Triton's class (the same fields), as the plan's key described it
            flat.append(v.base)
            flat.extend([int(x) for x in v.shape])
            flat.extend([int(x) for x in v.strides[:-1]])
            flat.append(next(placeholders))
        if launch_maps is not None:
            launch_maps.fill(flat)
        return tuple(flat)

    return launch_runtime


def _checked(name: str, what: str, value: Any, d: core.dtype) -> int:
    v = int(value)
    bits = d.primitive_bitwidth
    if not -(2 ** (bits - 1)) <= v < 2 ** (bits - 1):
        raise ArgumentOverflowError(
            f"argument `{name}`: TensorDescriptor {what} entry {v} does not fit in {d}"
        )
    return v
