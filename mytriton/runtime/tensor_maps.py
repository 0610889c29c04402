"""The tensor maps of a launch: for each tensor-map argument a compiled kernel reads (its TMA
copies, ``kernel.metadata["tensor_maps"]``), the backend's map of that launch's descriptor, in
place of the placeholder the specialization passed (``unread_map``).

Maps are kept per backend and request (``TensorMapRequest.key``: base address, shape, strides,
box...), so launches over the same tensors encode and copy each map once; the oldest go first
past ``CACHED_MAPS``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from mytriton.backends import Backend
from mytriton.backends.arrays import ArrayInfo, array_address, describe_array
from mytriton.backends.nvidia.tensor_maps import TensorMapRequest, map_key

CACHED_MAPS = 256

_cache: OrderedDict[tuple[Any, ...], tuple[Any, ArrayInfo]] = OrderedDict()


def fill_tensor_maps(
    maps: Mapping[str, Any],
    backend: Backend,
    runtime: list[Any],
    infos: list[ArrayInfo | None],
) -> None:
    """Put the map of each entry of ``maps`` (argument index -> [box, swizzle, span]) into
    ``runtime`` and its metadata into ``infos``. A descriptor's arguments are its base, its
    shape, its strides but the last, then the map (``signature.descriptor_leaves``)."""
    for entry in _entries(maps, infos):
        request = entry.request(runtime, infos[entry.first])
        runtime[entry.at], infos[entry.at] = _tensor_map(backend, request)


class LaunchMaps:
    """The tensor maps of each launch of one plan: its bases keep the framework, device and
    element type the plan was made for (``binder._descriptor``), so a launch's map is found
    from the base's address, shape and strides; only a map not made yet needs the base
    described."""

    def __init__(
        self, maps: Mapping[str, Any], backend: Backend, infos: Sequence[ArrayInfo | None]
    ):
        self.backend = backend
        self.entries = _entries(maps, infos)

    def fill(self, runtime: list[Any]) -> None:
        """Put each map into ``runtime`` (a launch's arguments, the plan's layout)."""
        for e in self.entries:
            shape, strides = e.shape_strides(runtime)
            base = runtime[e.first]
            address = array_address(base)
            key = map_key(e.info, address, e.first, shape, strides, e.box, e.swizzle, e.span)
            runtime[e.at] = _cached_map(self.backend, key, partial(e.launch_request, runtime))[0]


@dataclass(frozen=True)
class _Entry:
    """A tensor map the kernel reads: at argument ``at``, of the descriptor whose base is
    argument ``first`` (described by ``info`` at planning)."""

    at: int
    first: int
    box: tuple[int, ...]
    swizzle: int
    span: int
    info: ArrayInfo

    def shape_strides(self, runtime: Sequence[Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        rank = len(self.box)
        shape = tuple([int(v) for v in runtime[self.first + 1 : self.first + 1 + rank]])
        return shape, (*(int(v) for v in runtime[self.first + 1 + rank : self.at]), 1)

    def launch_request(self, runtime: Sequence[Any]) -> TensorMapRequest:
        """The request of a launch's arguments, its base described anew."""
        return self.request(runtime, describe_array(runtime[self.first], "TensorDescriptor's base"))

    def request(self, runtime: Sequence[Any], info: ArrayInfo | None) -> TensorMapRequest:
        assert info is not None, "a descriptor's base is an array"
        shape, strides = self.shape_strides(runtime)
        base = runtime[self.first]
        return TensorMapRequest(
            base, info, self.first, shape, strides, self.box, self.swizzle, self.span
        )


def _entries(maps: Mapping[str, Any], infos: Sequence[ArrayInfo | None]) -> list[_Entry]:
    found = []
    for key, (box, swizzle, span) in maps.items():
        at = int(key)
        first = at - 2 * len(box)
        info = infos[first]
        assert info is not None, "a descriptor's base is an array"
        found.append(_Entry(at, first, tuple(box), int(swizzle), int(span), info))
    return found


def _tensor_map(backend: Backend, request: TensorMapRequest) -> tuple[Any, ArrayInfo]:
    return _cached_map(backend, request.key(), lambda: request)


def _cached_map(
    backend: Backend, key: tuple[Any, ...], request: Callable[[], TensorMapRequest]
) -> tuple[Any, ArrayInfo]:
    """The backend's map of ``key`` (``TensorMapRequest.key``) and its metadata, made from
    ``request()`` where the cache does not hold it."""
    key = (backend.name, *key)
    found = _cache.get(key)
    if found is not None:
        _cache.move_to_end(key)
        return found
    made = backend.tensor_map(request())
    found = (made, describe_array(made, "a tensor map"))
    _cache[key] = found
    while len(_cache) > CACHED_MAPS:
        _cache.popitem(last=False)
    return found


_unread: dict[tuple[str, int | None], tuple[Any, ArrayInfo]] = {}


def unread_map(info: ArrayInfo) -> tuple[Any, ArrayInfo]:
    """What a launch passes for a tensor map until it knows the kernel reads it, with its
    metadata: one int8 of memory of the base's framework and device (made once), never read."""
    key = (info.framework, info.device)
    found = _unread.get(key)
    if found is None:
        array: Any
        if info.framework == "torch":
            import torch

            where = "cpu" if info.device is None else f"cuda:{info.device}"
            array = torch.zeros(1, dtype=torch.int8, device=where)
        elif info.device is not None:
            import cupy

            with cupy.cuda.Device(info.device):
                array = cupy.zeros(1, np.int8)
        else:
            array = np.zeros(1, np.int8)
        found = _unread[key] = (array, describe_array(array, "a tensor map's placeholder"))
    return found
