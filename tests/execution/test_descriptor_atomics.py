"""Tensor descriptor atomics (``desc.atomic_add`` ... ``atomic_xor``) on every backend, against
NumPy: each element of the block at the offsets combines with the value's, those outside the
descriptor's shape are dropped, and blocks of several programs that overlap all land."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.tools.tensor_descriptor import TensorDescriptor

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

COMBINE = {
    "add": np.add,
    "min": np.minimum,
    "max": np.maximum,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
}


@triton.jit
def combine_kernel(out, a, M, N, ROW_STEP, BM: tl.constexpr, BN: tl.constexpr, KIND: tl.constexpr):
    """Program (i, j) combines the BM x BN block of ``a`` at (i * ROW_STEP, j * BN) into
    ``out``'s block there, through a descriptor made in the kernel."""
    desc = tl.make_tensor_descriptor(out, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    row = tl.program_id(0) * ROW_STEP
    col = tl.program_id(1) * BN
    r = row + tl.arange(0, BM)[:, None]
    c = col + tl.arange(0, BN)[None, :]
    val = tl.load(a + r * N + c, mask=(r < M) & (c < N), other=0)
    if KIND == "add":
        desc.atomic_add([row, col], val)
    elif KIND == "min":
        desc.atomic_min([row, col], val)
    elif KIND == "max":
        desc.atomic_max([row, col], val)
    elif KIND == "and":
        desc.atomic_and([row, col], val)
    elif KIND == "or":
        desc.atomic_or([row, col], val)
    else:
        desc.atomic_xor([row, col], val)


def reference(out: np.ndarray, a: np.ndarray, kind: str, bm: int, bn: int, step: int) -> None:
    """``combine_kernel`` on the host, program by program, the block clipped to ``out``."""
    m, n = out.shape
    for i in range((m + step - 1) // step):
        for j in range((n + bn - 1) // bn):
            rs = slice(i * step, min(i * step + bm, m))
            cs = slice(j * bn, min(j * bn + bn, n))
            out[rs, cs] = COMBINE[kind](out[rs, cs], a[rs, cs])


# int64 add is rejected, as in Triton (tests/frontend/test_descriptor_atomic_errors.py)
INTEGER_CASES = [
    (kind, dtype)
    for kind in COMBINE
    for dtype in (np.int32, np.uint32, np.int64, np.uint64)
    if (kind, dtype) != ("add", np.int64)
]


@pytest.mark.parametrize(("kind", "dtype"), INTEGER_CASES)
def test_integer_kinds(run: Any, kind: str, dtype: Any) -> None:
    """A 10 x 20 tensor in 4 x 16 blocks: the bottom and right blocks run past the edge."""
    rng = np.random.default_rng(3)
    info = np.iinfo(dtype)
    lo = max(info.min, -1000)
    out = rng.integers(lo, 1000, (10, 20)).astype(dtype)
    a = rng.integers(lo, 1000, (10, 20)).astype(dtype)
    expect = out.copy()
    reference(expect, a, kind, 4, 16, 4)
    run(combine_kernel, (3, 2), out, a, 10, 20, 4, BM=4, BN=16, KIND=kind)
    np.testing.assert_array_equal(out, expect)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
def test_float_add(run: Any, dtype: Any) -> None:
    """Small integers in floats: every sum is exact whatever the order of the additions."""
    rng = np.random.default_rng(5)
    out = rng.integers(-8, 8, (9, 32)).astype(dtype)
    a = rng.integers(-8, 8, (9, 32)).astype(dtype)
    expect = (out.astype(np.float32) + a.astype(np.float32)).astype(dtype)
    run(combine_kernel, (3, 2), out, a, 9, 32, 4, BM=4, BN=16, KIND="add")
    np.testing.assert_array_equal(out.astype(np.float32), expect.astype(np.float32))


def test_overlapping_blocks_all_land(run: Any) -> None:
    """Blocks of 8 rows every 2 rows: up to 4 programs add into one element, none is lost."""
    out = np.zeros((16, 16), np.int32)
    a = np.ones((16, 16), np.int32)
    expect = out.copy()
    reference(expect, a, "add", 8, 16, 2)
    run(combine_kernel, (8, 1), out, a, 16, 16, 2, BM=8, BN=16, KIND="add")
    np.testing.assert_array_equal(out, expect)
    assert out.max() == 4


@triton.jit
def host_descriptor_kernel(desc, a, M, N):
    """As ``combine_kernel`` (add), through a descriptor argument."""
    bm: tl.constexpr = desc.block_shape[0]
    bn: tl.constexpr = desc.block_shape[1]
    row = tl.program_id(0) * bm
    col = tl.program_id(1) * bn
    r = row + tl.arange(0, bm)[:, None]
    c = col + tl.arange(0, bn)[None, :]
    desc.atomic_add([row, col], tl.load(a + r * N + c, mask=(r < M) & (c < N), other=0.0))


def test_host_descriptor(run: Any) -> None:
    out = (np.arange(13 * 24) % 7).reshape(13, 24).astype(np.float32)
    a = (np.arange(13 * 24) % 5).reshape(13, 24).astype(np.float32)
    expect = out + a
    run(host_descriptor_kernel, (4, 3), TensorDescriptor.from_tensor(out, [4, 8]), a, 13, 24)
    np.testing.assert_array_equal(out, expect)


@triton.jit
def shifted_kernel(out, a, M, N, row, col, BM: tl.constexpr, BN: tl.constexpr):
    """One block at (row, col), which may be negative: the rows and columns above and left of
    the tensor are dropped as those past its end."""
    desc = tl.make_tensor_descriptor(out, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    val = tl.load(a + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :])
    desc.atomic_max([row, col], val)


@pytest.mark.parametrize(("row", "col"), [(-3, -5), (5, 10), (-2, 12)])
def test_negative_and_far_offsets(run: Any, row: int, col: int) -> None:
    out = np.zeros((8, 16), np.int32)
    a = np.arange(8 * 16, dtype=np.int32).reshape(8, 16) + 1
    expect = out.copy()
    for i in range(8):
        for j in range(16):
            if 0 <= row + i < 8 and 0 <= col + j < 16:
                expect[row + i, col + j] = max(expect[row + i, col + j], a[i, j])
    run(shifted_kernel, (1,), out, a, 8, 16, row, col, BM=8, BN=16)
    np.testing.assert_array_equal(out, expect)


def descriptor_atomic_warmups() -> list[Any]:
    """``combine_kernel`` compiled for a few kinds and types (compile-only: tests/cuda and
    tests/mlir check the C++ and the PTX)."""
    compiled = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for kind, dtype in (
            ("add", BF16),
            ("add", np.float32),
            ("max", np.int32),
            ("xor", np.uint64),
        ):
            a = np.zeros((8, 32), dtype)
            compiled.append(
                combine_kernel.warmup(a, a, 8, 32, 4, BM=4, BN=16, KIND=kind, grid=(2, 2))
            )
    return compiled
