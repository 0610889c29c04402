"""``gpusim`` as a backend: the real lowering, executed by the simulator on host arrays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.arrays import ArrayInfo, host_arrays
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.gpusim.launch import SimKernel
from mytriton.backends.gpusim.tensor_maps import encode_gpusim_tensor_map
from mytriton.backends.lowering_stages import LOWERING_STAGES
from mytriton.backends.nvidia.tensor_maps import TensorMapRequest
from mytriton.dialects.ttg.tma import SPAN_MAP_OFFSET


class GpuSimBackend(Backend):
    """Compiles like the GPU backends (``asm["ttg"]``, ``asm["gpu"]``), runs on the CPU."""

    name = "gpusim"
    runs_on = "host"
    stages = LOWERING_STAGES

    def load(
        self, kernel: CompiledKernel, artifacts: Mapping[str, Any], options: LaunchOptions
    ) -> None:
        kernel.binary = SimKernel(artifacts["gpu"])

    def tensor_map(self, request: TensorMapRequest) -> Any:
        """gpusim's own map (``gpusim/tensor_maps.py``, 128 bytes as int64 words): the base as
        its kernel parameter; a span map follows right after it (``SPAN_MAP_OFFSET``) where
        the request has one."""
        words = _map(request, request.shape, request.strides, request.box)
        if not request.span:
            return words
        assert words.size * 8 == SPAN_MAP_OFFSET
        return np.concatenate([words, _map(request, *request.span_view())])

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
        stream: int | None = None,
    ) -> None:
        assert isinstance(kernel.binary, SimKernel)
        with host_arrays(args, arrays) as host:
            kernel.binary.run(grid, host, cooperative=options.launch_cooperative_grid)


def _map(
    request: TensorMapRequest,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    box: tuple[int, ...],
) -> np.ndarray:
    size = request.element_bytes
    return encode_gpusim_tensor_map(
        request.base_param,
        0,
        size,
        tuple(reversed(shape)),
        tuple(st * size for st in reversed(strides)),
        tuple(reversed(box)),
        request.swizzle,
    )
