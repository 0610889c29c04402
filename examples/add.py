"""The seed's example: a masked vector add, its IR stages, and a checked result.

Runs on the GPU when CuPy and a CUDA device are available (and MYTRITON_BACKEND is a GPU
backend); otherwise on the CPU interpreter.
"""

from __future__ import annotations

import os

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask, other=0.0)
    y_values = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, x_values + y_values, mask=mask)


def gpu_available() -> bool:
    if os.environ.get("MYTRITON_BACKEND", "cuda") == "interpreter":
        return False
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def main() -> None:
    n, block = 1_000, 256
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n, dtype=np.float32)
    y = rng.standard_normal(n, dtype=np.float32)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731

    if gpu_available():
        import cupy

        xd, yd = cupy.asarray(x), cupy.asarray(y)
        outd = cupy.full_like(xd, np.nan)
        ir_before, ir_after, src = add_kernel[grid](xd, yd, outd, n, BLOCK=block)
        out = cupy.asnumpy(outd)
        where = "GPU"
    else:
        os.environ.setdefault("MYTRITON_BACKEND", "interpreter")
        out = np.full_like(x, np.nan)
        ir_before, ir_after, src = add_kernel[grid](x, y, out, n, BLOCK=block)
        where = "CPU interpreter"

    # the stages carry the Python line of every op (loc(...)); left out here for reading
    print("=== tt (frontend) ===")
    print(strip_locations(ir_before))
    print("=== tt-opt (after passes) ===")
    print(strip_locations(ir_after))
    if src is not None:
        print("=== backend source ===")
        print(src)
    np.testing.assert_allclose(out, x + y, rtol=1e-6, atol=1e-6)
    print(f"ok: {n} elements added on the {where}; max error {np.max(np.abs(out - (x + y))):.2e}")


if __name__ == "__main__":
    main()
