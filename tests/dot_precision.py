"""Tolerances for f32 ``tl.dot`` results at Triton's default ``input_precision`` (tf32).

The interpreter multiplies exactly (as Triton's does); the GPU backends and gpusim run such
dots on tensor cores, which read each operand's upper 19 bits (a 10-bit mantissa): every
product is then off by up to ~2**-9 of its size, and a sum of ``k`` products of unit-sized
random values by ~1e-3 * sqrt(k). A wrong fragment layout is off by O(1), far outside these."""

from __future__ import annotations


def f32_dot_tol(backend: str, k: int, scale: float = 1.0) -> dict[str, float]:
    """``rtol``/``atol`` for an f32 dot over ``k`` terms of unit-sized values (``scale``: the
    size of the values the result is summed from, for dots of dot results)."""
    if backend == "interpreter":
        return {"rtol": 1e-4, "atol": 1e-4 * scale}
    return {"rtol": 1e-2, "atol": 1e-2 * max(1, k) ** 0.5 * scale}


def compiled_tol(kernel: object, k: int) -> dict[str, float]:
    """``rtol``/``atol`` for a compiled kernel's f32 results: TF32's when its lowered IR runs
    dots on tensor cores, else 1e-4."""
    asm = getattr(kernel, "asm", {})
    lowered = asm.get("gpu", "") if isinstance(asm, dict) else ""
    if isinstance(lowered, str) and "nvvm.mma.sync" in lowered:
        return f32_dot_tol("gpu", k)
    return {"rtol": 1e-4, "atol": 1e-4}
