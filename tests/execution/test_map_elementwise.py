"""``tl.map_elementwise``: a ``@jit`` scalar function replayed on blocks (the checks of
Triton's ``test_map_elementwise*``, GPU-only there, with our own kernels), and the bodies it
cannot replay (data-dependent control flow), each a typed error at the call's line."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from tests.frontend.util import X, Y, expect_error

pytestmark = pytest.mark.execution


@triton.jit
def divmod_scalar(a, b):
    return a // b, a % b


@triton.jit
def divmod_pack2(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def divmod_pack4(a0, a1, a2, a3, b0, b1, b2, b3):
    q0, r0 = divmod_scalar(a0, b0)  # a @jit helper inside the mapped function
    q1, r1 = divmod_scalar(a1, b1)
    q2, r2 = divmod_scalar(a2, b2)
    q3, r3 = divmod_scalar(a3, b3)
    return q0, q1, q2, q3, r0, r1, r2, r3


@triton.jit
def divmod_kernel(A, B, C, D, BLOCK: tl.constexpr, PACK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    if PACK == 1:
        c, d = tl.map_elementwise(divmod_scalar, a, b)
    elif PACK == 2:
        c, d = tl.map_elementwise(divmod_pack2, a, b, pack=2)
    else:
        c, d = tl.map_elementwise(divmod_pack4, a, b, pack=PACK)
    tl.store(C + offs, c)
    tl.store(D + offs, d)


@pytest.mark.parametrize("pack", [1, 2, 4])
def test_multiple_outputs(run, pack):
    rng = np.random.default_rng(17)
    a = rng.integers(0, 2**32, 256, dtype=np.uint32)
    b = rng.integers(1, 2**32, 256, dtype=np.uint32)
    b[::7] = rng.integers(1, 40, b[::7].shape)
    c, d = np.zeros_like(a), np.zeros_like(a)
    run(divmod_kernel, (1,), a, b, c, d, BLOCK=256, PACK=pack)
    np.testing.assert_array_equal(c, a // b)
    np.testing.assert_array_equal(d, a % b)


@triton.jit
def soft_clip(x, lo):
    """Straight-line float code: tl.where, math, a constant."""
    y = tl.where(x > lo, x, lo + 0.5 * tl.exp(x - lo))
    return y * 2.0


@triton.jit
def swap_neighbours(x0, x1, y0, y1):
    """A function that mixes its packed elements: neighbours along the last dimension."""
    return x1 + y0 * 0, x0 + y1 * 0


@triton.jit
def three(x):
    return 3


@triton.jit
def identity(x):
    return x


@triton.jit
def shapes_kernel(X, Y, OUT1, OUT2, OUT3, OUT4, lo, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    x = tl.load(X + rows * C + cols)
    y = tl.load(Y + cols)  # [1, C], broadcast against x
    tl.store(OUT1 + rows * C + cols, tl.map_elementwise(soft_clip, x, lo))
    # a function returning a tuple gives a tuple (of one block here), as in Triton
    (swapped,) = tl.map_elementwise(swap_neighbours, x, y, pack=2)
    tl.store(OUT2 + rows * C + cols, swapped)
    tl.store(OUT3 + rows * C + cols, tl.map_elementwise(three, x).to(tl.float32))
    tl.store(OUT4 + rows * C + cols, tl.map_elementwise(identity, y + x * 0))


def test_shapes_and_scalars(run):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 16)).astype(np.float32)
    y = rng.standard_normal((1, 16)).astype(np.float32)
    outs = [np.zeros((4, 16), np.float32) for _ in range(4)]
    run(shapes_kernel, (1,), x, y, *outs, 0.25, R=4, C=16)
    lo = np.float32(0.25)
    expected = np.where(x > lo, x, lo + np.float32(0.5) * np.exp(x - lo)) * np.float32(2)
    np.testing.assert_allclose(outs[0], expected, rtol=1e-6)
    pairs = x.reshape(4, 8, 2)
    np.testing.assert_array_equal(outs[1], pairs[:, :, ::-1].reshape(4, 16))
    np.testing.assert_array_equal(outs[2], np.full((4, 16), 3.0))
    np.testing.assert_array_equal(outs[3], np.broadcast_to(y, (4, 16)))


# ---- rejected ----


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def count_down(x):
    n = 0
    for _ in range(x):
        n += 1
    return n


@triton.jit
def mismatched(a0, a1):
    return a0, a1.to(tl.float32)


@triton.jit
def data_dependent_if_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.map_elementwise(compare, v, v)  # <-


@triton.jit
def data_dependent_loop_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)).to(tl.int32)
    tl.map_elementwise(count_down, v)  # <-


@triton.jit
def bad_pack_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.map_elementwise(identity, v, pack=3)  # <-


@triton.jit
def pack_too_wide_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, 2))
    tl.map_elementwise(divmod_pack4, v, v, pack=4)  # <-


@triton.jit
def mismatched_pack_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)).to(tl.int32)
    tl.map_elementwise(mismatched, v, pack=2)  # <-


@triton.jit
def not_jit_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.map_elementwise(abs, v)  # <-


@triton.jit
def scalars_only_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x)
    tl.map_elementwise(identity, v)  # <-


@triton.jit
def runtime_pack_kernel(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.map_elementwise(identity, v, pack=tl.load(x).to(tl.int32))  # <-


REJECTED = [
    (data_dependent_if_kernel, KernelTypeError, ("`scf.if` (line", "not elementwise")),
    (data_dependent_loop_kernel, KernelTypeError, ("`scf.for` (line", "not elementwise")),
    (bad_pack_kernel, KernelValueError, ("pack must be a power of two", "3")),
    (pack_too_wide_kernel, KernelValueError, ("pack=4 must divide the last dimension",)),
    (mismatched_pack_kernel, KernelTypeError, ("type mismatch in unpacked results",)),
    (not_jit_kernel, KernelTypeError, ("scalar_fn must be a @triton.jit function",)),
    (scalars_only_kernel, KernelTypeError, ("needs at least one block",)),
    (runtime_pack_kernel, ConstexprError, ("pack must be a compile-time constant",)),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words"), REJECTED, ids=[c[0].__name__ for c in REJECTED]
)
def test_rejected_map_elementwise(kernel, cls, words):
    expect_error(kernel, (X, Y), {"BLOCK": 16}, cls, words, "tl.map_elementwise")
