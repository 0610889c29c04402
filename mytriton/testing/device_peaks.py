"""A device's peak DRAM bandwidth and tensor-core / CUDA-core TFLOP/s, by Triton's formulas
on the properties ``triton.runtime.driver`` reads."""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt import dtype_table


def _device_properties(device: int | None) -> dict[str, int]:
    """What the peak formulas need of ``device`` (default: the current one), through
    ``triton.runtime.driver`` (``BackendUnavailableError`` without a GPU)."""
    import mytriton.runtime.driver as driver

    active: Any = driver.active
    if device is None:
        device = active.get_current_device()
    props = dict(active.utils.get_device_properties(device))
    props["major"] = active.get_device_capability(device)[0]
    return props


def get_dram_gbps(device: int | None = None) -> float:
    """Peak DRAM bandwidth of ``device`` (default: the current one) in GB/s."""
    props = _device_properties(device)
    mem_clock_khz = props["mem_clock_rate"]
    bus_width_bits = props["mem_bus_width"]
    return float(mem_clock_khz * bus_width_bits * 2 / 1e6 / 8)


_TENSORCORE_OPS = {  # dense ops per sub-core per clock on sm_80 and later
    "float32": 256,
    "int32": 256,
    "float16": 512,
    "bfloat16": 512,
    "int16": 512,
    "int8": 1024,
    "float8e4nv": 1024,
    "float8e4b15": 1024,
    "float8e5": 1024,
}
_SIMD_OPS = {"float32": 32, "float16": 64, "bfloat16": 64}
#: the other names (``fp16``, ``i32``) of the dtypes the peak tables know
_DTYPE_ALIASES = {
    alias: r.name
    for r in dtype_table.ROWS
    if r.name in _TENSORCORE_OPS
    for alias in (r.dtype_name, r.signature)
    if alias != r.name
}


def _dtype_name(dtype: Any) -> str:
    """``float16`` for ``torch.float16``, ``tl.float16``, ``numpy.float16`` or ``"fp16"``."""
    name = getattr(dtype, "name", None)
    if isinstance(dtype, type):  # numpy.float16
        import numpy as np

        name = np.dtype(dtype).name
    if not isinstance(name, str):
        name = str(dtype).removeprefix("torch.")
    return _DTYPE_ALIASES.get(name, name)


def _peak_tflops(
    table: dict[str, int],
    pre_ampere: dict[str, int],
    dtype: Any,
    clock_rate: float,
    device: int | None,
) -> float:
    props = _device_properties(device)
    name = _dtype_name(dtype)
    ops = (pre_ampere if props["major"] < 8 else table).get(name)
    if ops is None:
        raise RuntimeError(f"dtype {name} not supported")
    num_subcores = props["multiprocessor_count"] * 4
    return float(num_subcores * clock_rate * ops * 1e-9)


def get_max_tensorcore_tflops(dtype: Any, clock_rate: float, device: int | None = None) -> float:
    """Peak tensor-core TFLOP/s of ``device`` at ``clock_rate`` (kHz) for ``dtype``."""
    return _peak_tflops(_TENSORCORE_OPS, {"float16": 256}, dtype, clock_rate, device)


def get_max_simd_tflops(dtype: Any, clock_rate: float, device: int | None = None) -> float:
    """Peak CUDA-core (FMA) TFLOP/s of ``device`` at ``clock_rate`` (kHz) for ``dtype``."""
    return _peak_tflops(_SIMD_OPS, {"float32": 32, "float16": 64}, dtype, clock_rate, device)
