"""Kernels whose shared buffers reuse each other's bytes (``passes/gpu_lowering/shared_alloc``),
on every backend against NumPy: gpusim checks each reuse (``backends/gpusim/shared_aliases``: a
missing barrier is a race, a buffer read after its bytes were taken fails).

* a pipelined matmul: the result's conversion to the store's layout over the ring's bytes;
* a reduction of a pipelined matmul's result: its cross-warp scratch over the ring's bytes;
  (both under an early exit: in an ``scf.if``) and one in the loop, which may not;
* causal attention in two key loops (Triton's tutorial: the blocks left of the diagonal, then
  the diagonal one, masked): the second loop's reduction scratch over the first loop's ring.

Each case first checks, on its lowering for sm_90, that the reuse happens (views sharing bytes,
and fewer bytes than laid end to end).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

import mytriton as triton
import mytriton.language as tl
from mytriton.passes.gpu_lowering.abi import dynamic_shared_bytes
from tests.gpusim.util import parse

pytestmark = pytest.mark.execution


def views(module: ModuleOp) -> list[tuple[int, int]]:
    """The (byte offset, bytes) of each view of dynamic shared memory in ``module``."""
    out = []
    for op in module.walk():
        if isinstance(op, memref.ViewOp):
            at = op.byte_shift.owner
            assert isinstance(at, arith.ConstantOp) and isinstance(at.value, IntegerAttr)
            t = op.result.type
            size = int(np.prod(t.get_shape())) * t.element_type.bitwidth // 8  # type: ignore[union-attr]
            out.append((at.value.value.data, size))
    return out


def assert_reuses(monkeypatch: pytest.MonkeyPatch, kernel: Any, *args: Any, **kw: Any) -> None:
    """In ``kernel``'s lowering (for gpusim, as compiled for sm_90), some two views share
    bytes, and the kernel takes less than all of them end to end."""
    with monkeypatch.context() as patch:
        patch.setenv("MYTRITON_BACKEND", "gpusim")
        module = parse(kernel.warmup(*args, grid=(1,), **kw).asm["gpu"])
    vs = views(module)
    shared = [
        (a, b)
        for i, a in enumerate(vs)
        for b in vs[:i]
        if a[0] < b[0] + b[1] and b[0] < a[0] + a[1]
    ]
    assert shared, vs
    kernel = next(op for op in module.walk() if op.name == "gpu.func")
    assert dynamic_shared_bytes(kernel) < sum(n for _, n in vs)  # type: ignore[arg-type]


@triton.jit
def matmul_epilogue(
    a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, MODE: tl.constexpr
):
    """``c = a @ b`` (f16 in, f32 out: converted through shared memory to the store's layout);
    MODE 1: its columns' sums over each program's rows instead (across warps: through shared
    memory); MODE 2: plus the columns' sums of ``b``, summed in the loop (a reduction whose
    scratch is live with the ring, so it may not take the ring's bytes)."""
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    if pm * BM >= M:  # an early exit: the rest is in an scf.if, whose ops reuse bytes too
        return
    rm = pm * BM + tl.arange(0, BM)
    rn = pn * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a + rm[:, None] * K + rk[None, :]
    b_ptrs = b + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    colsum = tl.zeros((BN,), tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a_ptrs, mask=rk[None, :] < K - k, other=0.0)
        y = tl.load(b_ptrs, mask=rk[:, None] < K - k, other=0.0)
        acc = tl.dot(x, y, acc)
        if MODE == 2:
            colsum += tl.sum(y.to(tl.float32), axis=0)
        a_ptrs += BK
        b_ptrs += BK * N
    if MODE == 1:
        tl.store(c + pm * N + rn, tl.sum(acc, axis=0))
    else:
        tl.store(c + rm[:, None] * N + rn[None, :], acc + colsum[None, :])


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["epilogue", "reduction", "loop-reduction"])
def test_pipelined_matmul_reuses_the_ring(
    run: Any, monkeypatch: pytest.MonkeyPatch, mode: int
) -> None:
    rng = np.random.default_rng(0)
    m, n, k = 256, 128, 96
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m // 128, n) if mode == 1 else (m, n), np.float32)
    tiles = {"BM": 128, "BN": 128, "BK": 32, "MODE": mode}
    assert_reuses(monkeypatch, matmul_epilogue, a, b, c, m, n, k, num_stages=3, **tiles)
    run(matmul_epilogue, (m // 128 + 1, n // 128), a, b, c, m, n, k, num_stages=3, **tiles)
    full = a.astype(np.float64) @ b.astype(np.float64)
    if mode == 1:
        expected = full.reshape(m // 128, 128, n).sum(axis=1)
    else:
        expected = full + (b.astype(np.float64).sum(axis=0) if mode == 2 else 0)
    np.testing.assert_allclose(c, expected, rtol=1e-3, atol=1e-2)


@triton.jit
def _attend(
    acc,
    l_i,
    m_i,
    qt,
    k,
    v,
    rm,
    rd,
    lo,
    hi,
    sm_scale,
    D: tl.constexpr,
    BN: tl.constexpr,
    MASKED: tl.constexpr,
):
    for start_n in range(lo, hi, BN):
        rn = start_n + tl.arange(0, BN)
        kt = tl.load(k + rn[None, :] * D + rd[:, None])
        s = tl.dot(qt, kt) * sm_scale
        if MASKED:
            s = tl.where(rm[:, None] >= rn[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(v + rn[:, None] * D + rd[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def causal_two_loops(q, k, v, o, sm_scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """Causal ``softmax(q @ k^T * sm_scale) @ v`` for BM query rows: the key blocks left of the
    diagonal unmasked, then the diagonal block masked (a loop each)."""
    start_m = tl.program_id(0)
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qt = tl.load(q + rm[:, None] * D + rd[None, :])
    m_i = tl.zeros((BM,), tl.float32) - float("inf")
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    lo = start_m * BM
    acc, l_i, m_i = _attend(acc, l_i, m_i, qt, k, v, rm, rd, 0, lo, sm_scale, D, BN, False)
    acc, l_i, m_i = _attend(acc, l_i, m_i, qt, k, v, rm, rd, lo, lo + BM, sm_scale, D, BN, True)
    tl.store(o + rm[:, None] * D + rd[None, :], acc / l_i[:, None])


def test_two_loop_causal_attention_reuses_the_first_loops_ring(
    run: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(1)
    seq, d, bm = 256, 64, 64
    q, k, v = (rng.standard_normal((seq, d)).astype(np.float16) for _ in range(3))
    o = np.zeros((seq, d), np.float32)
    consts = {"D": d, "BM": bm, "BN": bm}
    assert_reuses(monkeypatch, causal_two_loops, q, k, v, o, 0.125, num_stages=3, **consts)
    run(causal_two_loops, (seq // bm,), q, k, v, o, 0.125, num_stages=3, **consts)
    s = (q.astype(np.float64) @ k.astype(np.float64).T) * 0.125
    s = np.where(np.tril(np.ones((seq, seq), bool)), s, -np.inf)
    p = np.exp(s - s.max(1, keepdims=True))
    expected = (p / p.sum(1, keepdims=True)) @ v.astype(np.float64)
    np.testing.assert_allclose(o, expected, rtol=2e-2, atol=2e-2)
