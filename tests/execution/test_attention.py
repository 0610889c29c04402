"""A FlashAttention-style forward kernel (Triton's fused-attention tutorial structure: online
softmax, two ``tl.dot``s per K/V block, causal or not) on every backend, against NumPy.

Both dots run on tensor cores where the backend has them (f16 operands, f32 accumulators): the
test checks it, so the MMA layouts meet reductions, broadcasts, ``tl.where`` and a loop-carried
accumulator rescaled every block. P is rounded to f16 before the second dot, as in Triton's
tutorial: the tolerance allows for that rounding.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def attn_fwd(
    q,
    k,
    v,
    o,
    seq,
    sm_scale,
    D: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """``o = softmax(q @ k^T * sm_scale) @ v`` for one block of BM query rows."""
    start_m = tl.program_id(0)
    rm = start_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    qt = tl.load(q + rm[:, None] * D + rd[None, :], mask=rm[:, None] < seq, other=0.0)
    m_i = tl.zeros((BM,), tl.float32) - float("inf")
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    hi = tl.minimum((start_m + 1) * BM, seq) if CAUSAL else seq
    for start_n in range(0, hi, BN):
        rn = start_n + tl.arange(0, BN)
        kt = tl.load(k + rn[None, :] * D + rd[:, None], mask=rn[None, :] < seq, other=0.0)
        s = tl.dot(qt, kt) * sm_scale
        valid = rn[None, :] < seq
        if CAUSAL:
            valid = valid & (rm[:, None] >= rn[None, :])
        s = tl.where(valid, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(v + rn[:, None] * D + rd[None, :], mask=rn[:, None] < seq, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), vt)
        m_i = m_new
    tl.store(o + rm[:, None] * D + rd[None, :], acc / l_i[:, None], mask=rm[:, None] < seq)


def _reference(
    q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float, causal: bool
) -> np.ndarray:
    s = (q.astype(np.float64) @ k.astype(np.float64).T) * scale
    if causal:
        n = s.shape[0]
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    p = np.exp(s - s.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    return p @ v.astype(np.float64)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
@pytest.mark.parametrize(
    ("seq", "d", "num_warps", "bm"),
    # head dim 128 with 64 x 64 blocks: the two dots' staging (35 + 26 KiB) fits 48 KiB only
    # because they share one buffer (``dot.staging_buffer``)
    # 256 with 64 (4 warps) and 128 query rows (8 warps: two warpgroups): four and two K/V
    # blocks a program, so P @ V stays in flight across the loop's back edge (``ttg-pipeline``'s
    # deferred dots) in loops longer than its stages
    [(100, 64, 4, 32), (64, 32, 1, 32), (128, 128, 4, 64), (256, 64, 4, 64), (256, 64, 8, 128)],
)
def test_attention_forward(
    run: Any, seq: int, d: int, num_warps: int, bm: int, causal: bool
) -> None:
    rng = np.random.default_rng(seq + d)
    q, k, v = (rng.standard_normal((seq, d)).astype(np.float16) for _ in range(3))
    o = np.zeros((seq, d), np.float32)
    scale = 1 / np.sqrt(d)
    compiled = run(
        attn_fwd,
        (triton.cdiv(seq, bm),),
        q,
        k,
        v,
        o,
        seq,
        scale,
        num_warps=num_warps,
        D=d,
        BM=bm,
        BN=bm,
        CAUSAL=causal,
    )
    np.testing.assert_allclose(o, _reference(q, k, v, scale, causal), rtol=0, atol=2e-3)
    if run.backend != "interpreter":  # 64-row blocks allow wgmma (sm_90), smaller mma.sync
        gpu = compiled.asm["gpu"]
        assert gpu.count("nvvm.wgmma.mma_async" if bm >= 64 else "nvvm.mma.sync") > 0
        if bm >= 64:  # P @ V in flight across the back edge: its value waited for in the loop
            ttg = compiled.asm["ttg"]
            loop = ttg[ttg.index("scf.for") : ttg.index("scf.yield")]
            assert -1 < loop.find("ttg.dot_wait") < loop.rfind("tt.dot ")  # before P @ V
