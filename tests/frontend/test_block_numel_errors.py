"""A block holds at most 2**20 elements (Triton's ``TRITON_MAX_TENSOR_NUMEL``), whatever op makes
it: a typed error at the kernel's line, in Triton's words."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelValueError
from tests.frontend.util import X, expect_error, tt

BIG = 2**21
TRITON_WORDS = "numel ({}) exceeds triton maximum tensor numel (1048576)"


@triton.jit
def arange_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)  # <-
    tl.store(x, tl.sum(a).to(tl.float32))


@triton.jit
def offset_arange_kernel(x, N: tl.constexpr):
    a = tl.arange(N, 3 * N)  # <-
    tl.store(x, tl.sum(a).to(tl.float32))


@triton.jit
def full_kernel(x, N: tl.constexpr):
    a = tl.full([N, 2], 1.0, tl.float32)  # <-
    tl.store(x, tl.sum(a))


@triton.jit
def zeros_kernel(x, N: tl.constexpr):
    a = tl.zeros([N], tl.float32)  # <-
    tl.store(x, tl.sum(a))


@triton.jit
def outer_sum_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)
    b = a[:, None] + a[None, :]  # <-
    tl.store(x, tl.sum(b).to(tl.float32))


@triton.jit
def broadcast_to_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)[:, None]
    b = tl.broadcast_to(a, (N, 4))  # <-
    tl.store(x, tl.sum(b).to(tl.float32))


@triton.jit
def join_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)
    b = tl.join(a, a)  # <-
    tl.store(x, tl.sum(b).to(tl.float32))


@triton.jit
def cat_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)
    b = tl.cat(a, a, can_reorder=True)  # <-
    tl.store(x, tl.sum(b).to(tl.float32))


@triton.jit
def reshape_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)
    b = tl.reshape(a, (N * 2,))  # <-
    tl.store(x, tl.sum(b).to(tl.float32))


@triton.jit
def dot_kernel(x, N: tl.constexpr):
    a = tl.full([N, 16], 1.0, tl.float32)
    b = tl.full([16, N], 1.0, tl.float32)
    c = tl.dot(a, b)  # <-
    tl.store(x, tl.sum(c))


@triton.jit
def load_kernel(x, N: tl.constexpr):
    a = tl.arange(0, N)
    p = x + a[:, None] * 0
    v = tl.load(tl.broadcast_to(p, (N, 4)))  # <-
    tl.store(x, tl.sum(v))


@triton.jit
def block_ptr_kernel(x, N: tl.constexpr):
    p = tl.make_block_ptr(x, (N, N), (N, 1), (0, 0), (N, N), (1, 0))  # <-
    tl.store(x, tl.sum(tl.load(p)))


CASES = {
    # kernel, N, numel, the text the caret points at
    "arange": (arange_kernel, BIG, BIG, "tl.arange"),
    "offset-arange": (offset_arange_kernel, 2**20, BIG, "tl.arange"),
    "full": (full_kernel, 2**20, BIG, "tl.full"),
    "zeros": (zeros_kernel, BIG, BIG, "tl.zeros"),
    "outer-sum": (outer_sum_kernel, 2048, 2**22, "a[:, None] + a[None, :]"),
    "broadcast_to": (broadcast_to_kernel, 2**19, BIG, "tl.broadcast_to"),
    "join": (join_kernel, 2**20, BIG, "tl.join"),
    "cat": (cat_kernel, 2**20, BIG, "tl.cat"),
    "reshape": (reshape_kernel, 2**20, BIG, "tl.reshape"),
    "dot": (dot_kernel, 2048, 2**22, "tl.dot"),
    "load": (load_kernel, 2**19, BIG, "tl.broadcast_to"),
    "block_ptr": (block_ptr_kernel, 2048, 2**22, "tl.make_block_ptr"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_too_large_block_is_an_error_at_its_line(case: str) -> None:
    kernel, n, numel, at = CASES[case]
    expect_error(kernel, (X,), {"N": n}, KernelValueError, (TRITON_WORDS.format(numel),), at)


@pytest.mark.parametrize("kernel", [arange_kernel, join_kernel])
def test_a_block_of_exactly_2_to_the_20_compiles(
    kernel: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")  # the tt stage alone
    n = 2**19 if kernel is join_kernel else 2**20
    assert "tt.reduce" in tt(kernel, np.zeros(1, np.float32), N=n)
