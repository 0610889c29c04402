"""A tensor-core dot's result stored through contiguous pointers: converted to the store's
coalesced layout (16-byte vectors a thread, as Triton's), on every backend, against NumPy;
tests/cuda and tests/mlir check the PTX holds ``st.global.v4``."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl


@triton.jit
def dot_store_kernel(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """``c = a @ b`` (tf32 for f32, int32 for int8), every matrix row-major."""
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    x = tl.load(a + m[:, None] * K + k[None, :])
    y = tl.load(b + k[:, None] * N + n[None, :])
    tl.store(c + m[:, None] * N + n[None, :], tl.dot(x, y))


# (M, N, K, element, num_warps): shapes of Triton's test_dot that store with st.global.v4
CASES = [
    (64, 64, 32, np.float32, 4),
    (128, 16, 32, np.float32, 4),
    (32, 128, 64, np.int8, 2),
    (128, 128, 64, np.int8, 2),
]


@pytest.mark.parametrize(("m", "n", "k", "dtype", "warps"), CASES)
def test_dot_store(run: Any, m: int, n: int, k: int, dtype: Any, warps: int) -> None:
    rng = np.random.default_rng(7)
    # small integers: exact in tf32 and in any order of the additions
    a = rng.integers(-4, 5, (m, k)).astype(dtype)
    b = rng.integers(-4, 5, (k, n)).astype(dtype)
    out_dtype = np.int32 if dtype == np.int8 else np.float32
    c = np.zeros((m, n), out_dtype)
    run(dot_store_kernel, (1,), a, b, c, M=m, N=n, K=k, num_warps=warps)
    np.testing.assert_array_equal(c, (a.astype(np.int64) @ b.astype(np.int64)).astype(out_dtype))


def dot_store_warmups() -> list[Any]:
    """``dot_store_kernel`` compiled for each case (compile-only)."""
    compiled = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for m, n, k, dtype, warps in CASES:
            a, b = np.zeros((m, k), dtype), np.zeros((k, n), dtype)
            c = np.zeros((m, n), np.int32 if dtype == np.int8 else np.float32)
            compiled.append(
                dot_store_kernel.warmup(a, b, c, M=m, N=n, K=k, num_warps=warps, grid=(1,))
            )
    return compiled
