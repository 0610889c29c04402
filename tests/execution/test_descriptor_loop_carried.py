"""Tensor descriptors made in the kernel and remade inside runtime loops and ``if``s, so that
loops carry them (their tensor map among their scalars), on every backend, against NumPy.

A map made in a loop is never read by TMA copies (only one made at the kernel's top level
is): it lowers to the tensor's base, which the loop carries as any pointer."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl


@triton.jit
def remade_kernel(x, other, M, N, BM: tl.constexpr, BN: tl.constexpr, EVERY: tl.constexpr):
    """Adds 1, then 2, to each block of ``x``'s row band, through a descriptor remade every
    ``EVERY`` blocks (of ``other`` on odd steps in the while loop: the carried one changes)."""
    row = tl.program_id(0) * BM
    desc = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    for col in range(0, N, BN):
        if col % (EVERY * BN) == 0:
            desc = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
        desc.store([row, col], desc.load([row, col]) + 1)
    col = 0
    step = 0
    while col < N:
        if step % 2 == 1:
            desc = tl.make_tensor_descriptor(
                other, shape=[M, N], strides=[N, 1], block_shape=[BM, BN]
            )
        else:
            desc = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
        desc.store([row, col], desc.load([row, col]) + 2)
        col += BN
        step += 1


@pytest.mark.parametrize("every", [1, 3])
def test_remade_in_loops(run: Any, every: int) -> None:
    """Blocks of 16 columns over 72: the last block is masked at the right edge."""
    m, n, bm, bn = 12, 72, 4, 16
    x = (np.arange(m * n) % 97).reshape(m, n).astype(np.float32)
    other = np.zeros_like(x)
    expect, expect_other = x + 1, other.copy()
    for step, col in enumerate(range(0, n, bn)):
        target = expect_other if step % 2 else expect
        target[:, col : col + bn] += 2
    run(remade_kernel, (m // bm,), x, other, m, n, BM=bm, BN=bn, EVERY=every)
    np.testing.assert_array_equal(x, expect)
    np.testing.assert_array_equal(other, expect_other)


@triton.jit
def tiles_kernel(a, b, c, T, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """``c[t] = a[t] @ b[t].T`` for each of the ``T`` matrices, one K step per iteration of a
    single loop whose descriptors are remade when a new tile starts (a persistent GEMM's
    shape: the loop's loads read carried descriptors, and may be pipelined)."""
    k_steps = tl.cdiv(K, BK)
    a_desc = tl.make_tensor_descriptor(a, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b, [N, K], [K, 1], [BN, BK])
    c_desc = tl.make_tensor_descriptor(c, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    t = -1
    for i in range(T * k_steps):
        ki = i % k_steps
        if ki == 0:
            t += 1
            a_desc = tl.make_tensor_descriptor(a + t * M * K, [M, K], [K, 1], [BM, BK])
            b_desc = tl.make_tensor_descriptor(b + t * N * K, [N, K], [K, 1], [BN, BK])
            c_desc = tl.make_tensor_descriptor(c + t * M * N, [M, N], [N, 1], [BM, BN])
        x = a_desc.load([0, ki * BK])
        y = b_desc.load([0, ki * BK])
        acc = tl.dot(x, y.T, acc)
        if ki == k_steps - 1:
            c_desc.store([0, 0], acc.to(tl.float16))
            acc = tl.zeros((BM, BN), tl.float32)


def test_remade_in_a_pipelined_dot_loop(run: Any) -> None:
    t, m, n, k = 3, 16, 16, 64
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 4, (t, m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (t, n, k)).astype(np.float16)
    c = np.zeros((t, m, n), np.float16)
    run(tiles_kernel, (1,), a, b, c, t, m, n, k, BM=16, BN=16, BK=16, num_stages=3)
    expect = np.einsum("tmk,tnk->tmn", a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_array_equal(c.astype(np.float32), expect)


def loop_carried_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda and tests/mlir)."""
    x = np.zeros((12, 72), np.float32)
    h = np.zeros((3, 16, 64), np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [
            remade_kernel.warmup(x, x, 12, 72, BM=4, BN=16, EVERY=3, grid=(3,)),
            tiles_kernel.warmup(
                h, h, h, 3, 16, 16, 64, BM=16, BN=16, BK=16, num_stages=3, grid=(1,)
            ),
        ]
