"""Kernels of the compatibility tests, at module level so that a pickled ``CompiledKernel``
finds its kernel again by name."""

from __future__ import annotations

import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(
        out + offsets, tl.load(x + offsets, mask=mask) + tl.load(y + offsets, mask=mask), mask=mask
    )


@triton.jit
def scale_kernel(x, out, alpha, n, BLOCK: tl.constexpr, SQUARE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    v = tl.load(x + offsets, mask=mask)
    if SQUARE:
        v = v * v
    tl.store(out + offsets, v * alpha, mask=mask)


@triton.jit
def static_assert_kernel(N: tl.constexpr):
    tl.static_assert(N > 4, "N must exceed 4")


@triton.jit
def bad_kernel(x):
    tl.store(x, undefined_name)  # noqa: F821 (the error under test)
