"""Cache-modified and evicting loads and stores move the right bytes for every element size and
vector width: on the mlir backend they are inline PTX on packed 32-bit words
(``backends/mlir/access_hints.py``), on the cuda backend CUDA's intrinsics or inline PTX.
One warp, so a few elements per thread already make 16-byte vectors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl


@triton.jit
def hinted_copy_kernel(
    dst, src, n, BLOCK: tl.constexpr, CACHE: tl.constexpr, STORE_CACHE: tl.constexpr
):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(src + offs, mask=m, cache_modifier=CACHE)
    b = tl.load(src + BLOCK + offs, mask=m, eviction_policy="evict_first")
    c = tl.load(src + 2 * BLOCK + offs, mask=m, cache_modifier=CACHE, eviction_policy="evict_last")
    tl.store(dst + offs, a, mask=m, cache_modifier=STORE_CACHE)
    tl.store(dst + BLOCK + offs, b, mask=m, eviction_policy="evict_last")
    tl.store(dst + 2 * BLOCK + offs, c, mask=m, eviction_policy="evict_first")


def _random_bits(dtype: Any, size: int) -> np.ndarray:
    """Distinct finite values of ``dtype`` (any bit out of place shows)."""
    rng = np.random.default_rng(7)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-100, 100, size).astype(dtype)
    return rng.integers(-100, 100, size).astype(dtype)


@pytest.mark.parametrize(
    ("dtype", "block", "n", "cache", "store_cache"),
    [
        (np.float32, 128, 128, ".cg", ".cs"),  # v4.b32
        (np.float16, 256, 256, ".ca", ".wt"),  # 8 halves in v4.b32
        (np.float16, 64, 64, ".cv", ".cg"),  # 2 halves in one b32
        (np.int8, 512, 512, ".cg", ".wb"),  # 16 bytes in v4.b32
        (np.int8, 32, 29, ".cg", ".cs"),  # masked bytes, one b8 each
        (np.float64, 32, 30, ".ca", ".cs"),  # v2.b32 each, masked
    ],
)
def test_hinted_copy(
    run: Any, dtype: Any, block: int, n: int, cache: str, store_cache: str
) -> None:
    src = _random_bits(dtype, 3 * block)
    dst = np.zeros(3 * block, dtype)
    run(
        hinted_copy_kernel,
        (1,),
        dst,
        src,
        n,
        num_warps=1,
        BLOCK=block,
        CACHE=cache,
        STORE_CACHE=store_cache,
    )
    expected = np.zeros(3 * block, dtype)
    for part in range(3):
        lo = part * block
        expected[lo : lo + n] = src[lo : lo + n]
    np.testing.assert_array_equal(dst, expected)
