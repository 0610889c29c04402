"""CUDA tensor maps (``CUtensorMap``) for the GPU backends' TMA copies: encoded by the driver's
``cuTensorMapEncodeTiled`` and copied into device memory, in the framework of the descriptor's
base (a CuPy array or a CUDA torch tensor); the kernel gets its address.

Zeros fill the box outside the tensor (the descriptor's ``zero`` padding: only such loads are
copied by TMA); the swizzle is the tile's (``ttg_nvmma``), elements stride 1, no interleave.
"""

from __future__ import annotations

import ctypes
from functools import cache
from typing import Any

import numpy as np

from mytriton.backends.nvidia.tensor_maps import TensorMapRequest
from mytriton.dialects.ttg.tma import SPAN_MAP_OFFSET
from mytriton.errors import BackendError

MAP_BYTES = SPAN_MAP_OFFSET  # sizeof(CUtensorMap), 64-byte aligned: a span map follows

# CUtensorMapDataType by element bytes: the copy moves bits, so one unsigned type a size
_DATA_TYPE = {1: 0, 2: 1, 4: 2, 8: 4}  # UINT8, UINT16, UINT32, UINT64
_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}  # CU_TENSOR_MAP_SWIZZLE_NONE .. 128B
_INTERLEAVE_NONE = 0
_L2_PROMOTION_128B = 2
_OOB_FILL_ZERO = 0


@cache
def _encode_tiled() -> Any:
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        raise BackendError(f"TMA copies need the CUDA driver (libcuda.so.1): {e}") from None
    fn = driver.cuTensorMapEncodeTiled
    fn.restype = ctypes.c_int
    fn.argtypes = [
        ctypes.c_void_p,  # CUtensorMap*
        ctypes.c_int,  # data type
        ctypes.c_uint32,  # rank
        ctypes.c_void_p,  # global address
        ctypes.POINTER(ctypes.c_uint64),  # global dims (innermost first)
        ctypes.POINTER(ctypes.c_uint64),  # global strides in bytes (dims 1..rank-1)
        ctypes.POINTER(ctypes.c_uint32),  # box dims
        ctypes.POINTER(ctypes.c_uint32),  # element strides
        ctypes.c_int,  # interleave
        ctypes.c_int,  # swizzle
        ctypes.c_int,  # L2 promotion
        ctypes.c_int,  # out-of-bounds fill
    ]
    return fn


def encode_tensor_map(request: TensorMapRequest) -> bytes:
    """The bytes of the ``CUtensorMap`` ``request`` describes, then its span map's where it
    has one (at ``SPAN_MAP_OFFSET``)."""
    raw = _encode(request, request.shape, request.strides, request.box)
    if request.span:
        raw += _encode(request, *request.span_view())
    return raw


def _encode(
    request: TensorMapRequest,
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    box: tuple[int, ...],
) -> bytes:
    """One map of ``request``'s base and element type over ``shape``, ``strides`` (elements)
    and ``box``, outermost first."""
    size = request.element_bytes
    rank = len(shape)
    dims = (ctypes.c_uint64 * rank)(*reversed(shape))
    byte_strides = (ctypes.c_uint64 * max(rank - 1, 1))(*(s * size for s in reversed(strides[:-1])))
    boxes = (ctypes.c_uint32 * rank)(*reversed(box))
    ones = (ctypes.c_uint32 * rank)(*([1] * rank))
    raw = np.zeros(MAP_BYTES // 8, np.uint64)  # 8-byte aligned; the device copy is 64-aligned
    status = _encode_tiled()(
        raw.ctypes.data,
        _DATA_TYPE[size],
        rank,
        request.info.address,
        dims,
        byte_strides,
        boxes,
        ones,
        _INTERLEAVE_NONE,
        _SWIZZLE[request.swizzle],
        _L2_PROMOTION_128B,
        _OOB_FILL_ZERO,
    )
    if status != 0:
        raise BackendError(
            f"cuTensorMapEncodeTiled failed (CUresult {status}) for a tensor of shape "
            f"{list(shape)}, strides {list(strides)} ({size}-byte elements) "
            f"at 0x{request.info.address:x}, box {list(box)}, swizzle {request.swizzle}"
        )
    return raw.tobytes()


def device_tensor_map(request: TensorMapRequest) -> Any:
    """The map in device memory, on the base's device and in its framework: a torch tensor
    for a torch base, else a CuPy array; the copy has landed when this returns."""
    raw = np.frombuffer(encode_tensor_map(request), np.uint8)
    device = request.info.device
    if request.info.framework == "torch":
        import torch

        return torch.from_numpy(raw.copy()).to(f"cuda:{device}")  # a synchronous copy
    import cupy

    with cupy.cuda.Device(device):
        out = cupy.asarray(raw)
        cupy.cuda.get_current_stream().synchronize()
    return out
