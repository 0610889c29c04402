"""Triton's counter-based random numbers (``tl.rand``, ``tl.randn``, ``tl.randint``, ...).

Philox 4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) written
as ``@jit`` helpers over plain ``tl`` operations, so they compile to ordinary `tt` ops on every
backend and give the same bits as Triton for the same seed and offsets: the counter is
``(offset_lo, offset_hi, 0, 0)``, the key the seed's two 32-bit halves, and the floats are
derived from the bits with the same constants (``uint_to_uniform_float``, Box-Muller).
"""

from __future__ import annotations

from typing import Any

import mytriton.language as tl
from mytriton.language import core
from mytriton.runtime.jit import jit

N_ROUNDS_DEFAULT = tl.constexpr(10)  # Triton's default number of Philox rounds

# The Philox multipliers and Weyl key increments (golden ratio, sqrt(3) - 1), 32 and 64 bits.
_ROUND_A_32 = tl.constexpr(0xD2511F53)
_ROUND_B_32 = tl.constexpr(0xCD9E8D57)
_KEY_A_32 = tl.constexpr(0x9E3779B9)
_KEY_B_32 = tl.constexpr(0xBB67AE85)
_ROUND_A_64 = tl.constexpr(0xD2E7470EE14C6C93)
_ROUND_B_64 = tl.constexpr(0xCA5A826395121157)
_KEY_A_64 = tl.constexpr(0x9E3779B97F4A7C15)
_KEY_B_64 = tl.constexpr(0xBB67AE8584CAA73B)

# Largest scales with ``INT_MAX * scale < 1.0`` after float32 rounding: [0, 1) from 31/63 bits.
_UNIFORM_SCALE_32 = tl.constexpr(4.6566127342e-10)
_UNIFORM_SCALE_64 = tl.constexpr(1.0842020432385337e-19)


@jit
def philox_impl(
    c0: Any, c1: Any, c2: Any, c3: Any, k0: Any, k1: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT
) -> Any:
    """``n_rounds`` Philox rounds on the counter ``(c0, c1, c2, c3)`` with key ``(k0, k1)``,
    all uint32 or all uint64 (the products and sums wrap)."""
    if c0.dtype == tl.uint32:
        round_a = _ROUND_A_32
        round_b = _ROUND_B_32
        key_a = _KEY_A_32
        key_b = _KEY_B_32
    else:
        tl.static_assert(c0.dtype == tl.uint64, "philox_impl: counters must be uint32 or uint64")
        round_a = _ROUND_A_64
        round_b = _ROUND_B_64
        key_a = _KEY_A_64
        key_b = _KEY_B_64
    for _ in tl.static_range(n_rounds):
        prev_c0 = c0
        prev_c2 = c2
        c0 = tl.umulhi(round_b, prev_c2) ^ c1 ^ k0
        c2 = tl.umulhi(round_a, prev_c0) ^ c3 ^ k1
        c1 = round_b * prev_c2
        c3 = round_a * prev_c0
        k0 = k0 + key_a
        k1 = k1 + key_b
    return c0, c1, c2, c3


@jit
def philox(
    seed: Any, c0: Any, c1: Any, c2: Any, c3: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT
) -> Any:
    """Philox of the counter ``(c0, c1, c2, c3)`` (32- or 64-bit integers, reinterpreted as
    unsigned) keyed by ``seed`` (an integer: a Python int or a runtime scalar). With 32-bit
    counters the key is the seed's low and high 32-bit halves; with 64-bit ones the whole seed
    and 0."""
    seed = core.to_tensor(seed)
    tl.static_assert(seed.dtype.is_int(), "philox: the seed must be an integer")
    seed = seed.to(tl.uint64)
    c0 = core.to_tensor(c0)
    c1 = core.to_tensor(c1)
    c2 = core.to_tensor(c2)
    c3 = core.to_tensor(c3)
    if c0.dtype.primitive_bitwidth == 32:
        counter_dtype = tl.uint32
        key_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
        key_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
    else:
        tl.static_assert(
            c0.dtype.primitive_bitwidth == 64, "philox: counters must be 32- or 64-bit integers"
        )
        counter_dtype = tl.uint64
        key_lo = seed
        key_hi = tl.full((1,), 0, tl.uint64)  # Triton's shape: a scalar counter gives a [1] block
    c0 = c0.to(counter_dtype, bitcast=True)
    c1 = c1.to(counter_dtype, bitcast=True)
    c2 = c2.to(counter_dtype, bitcast=True)
    c3 = c3.to(counter_dtype, bitcast=True)
    return philox_impl(c0, c1, c2, c3, key_lo, key_hi, n_rounds)


@jit
def randint4x(seed: Any, offset: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT) -> Any:
    """Four uint32 blocks of random bits for ``seed`` at ``offset`` (a block or scalar of
    integers; a 64-bit offset's high half is the counter's second word): the cheapest way to
    get several streams."""
    offset = core.to_tensor(offset)
    offset_lo = offset.to(tl.uint32)
    zero = offset_lo * 0
    offset_hi = (offset >> 32).to(tl.uint32) if offset.dtype.primitive_bitwidth > 32 else zero
    return philox(seed, offset_lo, offset_hi, zero, zero, n_rounds)


@jit
def randint(seed: Any, offset: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT) -> Any:
    """One uint32 block of random bits for ``seed`` at ``offset`` (``randint4x``'s first)."""
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


@jit
def uint_to_uniform_float(x: Any) -> Any:
    """Random 32- or 64-bit integers to float32 in [0, 1): read as signed, negatives folded
    onto non-negatives (``-x - 1``), scaled so the largest stays below 1.0."""
    if x.dtype == tl.uint32 or x.dtype == tl.int32:
        x = x.to(tl.int32, bitcast=True)
        scale = _UNIFORM_SCALE_32
    else:
        tl.static_assert(
            x.dtype == tl.uint64 or x.dtype == tl.int64,
            "uint_to_uniform_float: expects 32- or 64-bit integers",
        )
        x = x.to(tl.int64, bitcast=True)
        scale = _UNIFORM_SCALE_64
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


@jit
def rand(seed: Any, offset: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT) -> Any:
    """A float32 block uniform in [0, 1) for ``seed`` at ``offset``."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@jit
def rand4x(seed: Any, offsets: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT) -> Any:
    """Four float32 blocks uniform in [0, 1), from ``randint4x``'s four streams."""
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return (
        uint_to_uniform_float(i1),
        uint_to_uniform_float(i2),
        uint_to_uniform_float(i3),
        uint_to_uniform_float(i4),
    )


@jit
def pair_uniform_to_normal(u1: Any, u2: Any) -> Any:
    """Box-Muller: two uniform blocks to two independent standard normal ones (``u1`` is
    clamped to 1e-7 so the logarithm stays finite)."""
    u1 = tl.maximum(1.0e-7, u1)
    theta = 6.283185307179586 * u2
    radius = tl.sqrt(-2.0 * tl.log(u1))
    return radius * tl.cos(theta), radius * tl.sin(theta)


@jit
def randn(seed: Any, offset: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT) -> Any:
    """A float32 block of standard normal numbers for ``seed`` at ``offset``."""
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    normal, _ = pair_uniform_to_normal(uint_to_uniform_float(i1), uint_to_uniform_float(i2))
    return normal


@jit
def randn4x(seed: Any, offset: Any, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT) -> Any:
    """Four float32 blocks of standard normal numbers, two Box-Muller pairs."""
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4


__all__ = [
    "N_ROUNDS_DEFAULT",
    "pair_uniform_to_normal",
    "philox",
    "philox_impl",
    "rand",
    "rand4x",
    "randint",
    "randint4x",
    "randn",
    "randn4x",
    "uint_to_uniform_float",
]
