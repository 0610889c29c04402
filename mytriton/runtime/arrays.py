"""Array arguments from NumPy, CuPy, PyTorch or any DLPack/CUDA-array-interface producer.

``describe_array`` turns an argument into framework-independent metadata (dtype, device,
contiguity, data pointer) without importing frameworks the user did not pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mytriton.errors import LaunchError
from mytriton.language import core

_NUMPY_DTYPES: dict[str, core.dtype] = {
    "float32": core.float32,
    "int32": core.int32,
    "bool": core.int1,
    "float16": core.float16,
    "float64": core.float64,
    "int64": core.int64,
    "int8": core.int8,
    "int16": core.int16,
}


@dataclass(frozen=True)
class ArrayInfo:
    """What the launcher needs to know about one array argument."""

    framework: str  # "numpy", "cupy", "torch"
    dtype: core.dtype
    device: int | None  # CUDA device ordinal, None for host memory
    contiguous: bool
    nbytes: int
    address: int  # of the first element (its alignment is part of the specialization)

    @property
    def on_gpu(self) -> bool:
        return self.device is not None


def _dtype_of(name: str, what: str) -> core.dtype:
    d = _NUMPY_DTYPES.get(name)
    if d is None:
        raise LaunchError(f"{what} has dtype {name}, which kernels cannot take")
    return d


def is_array(x: Any) -> bool:
    """Whether ``x`` is passed to a kernel as a pointer (anything with a data pointer and dtype)."""
    if isinstance(x, np.ndarray):
        return True
    mod = type(x).__module__
    if mod.startswith("torch") and hasattr(x, "data_ptr"):
        return True
    return hasattr(x, "__cuda_array_interface__") or (
        hasattr(x, "data_ptr") and hasattr(x, "dtype")
    )


def describe_array(x: Any, what: str) -> ArrayInfo:
    """Metadata of an array argument, or a ``LaunchError`` naming what is wrong with it."""
    if isinstance(x, np.ndarray):
        return ArrayInfo(
            "numpy",
            _dtype_of(x.dtype.name, what),
            None,
            bool(x.flags["C_CONTIGUOUS"]),
            x.nbytes,
            x.ctypes.data,
        )
    mod = type(x).__module__
    if mod.startswith("torch"):
        name = str(x.dtype).removeprefix("torch.")
        dev = x.device
        device = dev.index if dev.type == "cuda" else None
        if dev.type == "cuda" and device is None:
            device = 0
        if dev.type not in ("cpu", "cuda"):
            raise LaunchError(f"{what} is a torch tensor on device {dev}, which is not supported")
        return ArrayInfo(
            "torch",
            _dtype_of(name, what),
            device,
            bool(x.is_contiguous()),
            x.numel() * x.element_size(),
            int(x.data_ptr()),
        )
    if mod.startswith("cupy"):
        return ArrayInfo(
            "cupy",
            _dtype_of(x.dtype.name, what),
            int(x.device.id),
            bool(x.flags.c_contiguous),
            int(x.nbytes),
            int(x.data.ptr),
        )
    raise LaunchError(f"{what}: unsupported array type {type(x).__module__}.{type(x).__name__}")


def as_host_numpy(x: Any) -> np.ndarray:
    """A NumPy view of a host array (zero-copy for CPU torch tensors), written in place."""
    if isinstance(x, np.ndarray):
        return x
    mod = type(x).__module__
    if mod.startswith("torch"):
        return x.detach().numpy()
    raise LaunchError(f"{type(x).__name__} is not a host array")
