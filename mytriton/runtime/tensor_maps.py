"""The tensor maps of a launch: for each tensor-map argument a compiled kernel reads (its TMA
copies, ``kernel.metadata["tensor_maps"]``), the backend's map of that launch's descriptor, in
place of the placeholder the specialization passed (``unread_map``).

Maps are kept per backend and request (``TensorMapRequest.key``: base address, shape, strides,
box...), so launches over the same tensors encode and copy each map once; the oldest go first
past ``CACHED_MAPS``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from mytriton.backends import Backend
from mytriton.backends.arrays import ArrayInfo, describe_array
from mytriton.backends.tensor_maps import TensorMapRequest

CACHED_MAPS = 256

_cache: OrderedDict[tuple[Any, ...], tuple[Any, ArrayInfo]] = OrderedDict()


def fill_tensor_maps(
    maps: Mapping[str, Any],
    backend: Backend,
    runtime: list[Any],
    infos: list[ArrayInfo | None],
) -> None:
    """Put the map of each entry of ``maps`` (argument index -> [box, swizzle]) into
    ``runtime`` and its metadata into ``infos``. A descriptor's arguments are its base, its
    shape, its strides but the last, then the map (``frontend._descriptor_leaves``)."""
    for key, (box, swizzle) in maps.items():
        at = int(key)
        rank = len(box)
        first = at - 2 * rank
        info = infos[first]
        assert info is not None, "a descriptor's base is an array"
        shape = tuple(int(v) for v in runtime[first + 1 : first + 1 + rank])
        strides = (*(int(v) for v in runtime[first + 1 + rank : at]), 1)
        request = TensorMapRequest(
            runtime[first], info, first, shape, strides, tuple(box), int(swizzle)
        )
        runtime[at], infos[at] = _tensor_map(backend, request)


def _tensor_map(backend: Backend, request: TensorMapRequest) -> tuple[Any, ArrayInfo]:
    key = (backend.name, *request.key())
    found = _cache.get(key)
    if found is not None:
        _cache.move_to_end(key)
        return found
    made = backend.tensor_map(request)
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
