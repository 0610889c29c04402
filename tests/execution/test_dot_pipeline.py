"""Software-pipelined K loops (``ttg-pipeline``): tensor-core dot operands copied into shared
memory ``num_stages - 1`` iterations ahead, on every backend, against NumPy.

The kernel is Triton's tutorial matmul (operand pointers carried through the loop and advanced
each iteration, the K edge masked against what is left), so the copies ahead need the
pointers' state several iterations on. Cases cover 1 to 4 stages (1: not pipelined) and
``tl.range(..., num_stages=)``, K loops shorter than the pipeline (no, one and two iterations),
masked M, N and K edges, and every tensor-core operand type; compiled kernels must really copy
asynchronously (``ttg.async_copy_global_to_local``), and where the rows allow 4-byte runs, with
``nvvm.cp.async.shared.global``.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import DotSizeError

pytestmark = pytest.mark.execution


@triton.jit
def tutorial_matmul(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    OUT: tl.constexpr,
    LOOP_STAGES: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
):
    """Triton's tutorial matmul: carried operand pointers, K edge masked by what is left
    (``other=0.0``, as the tutorial: fp8 blocks take no int)."""
    offs_am = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
    offs_bn = (tl.program_id(1) * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BM, BN), dtype=OUT)
    if LOOP_STAGES > 0:
        for k in tl.range(0, tl.cdiv(K, BK), num_stages=LOOP_STAGES):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
            acc = tl.dot(a, b, acc, out_dtype=OUT)
            a_ptrs += BK * stride_ak
            b_ptrs += BK * stride_bk
    else:
        for k in range(0, tl.cdiv(K, BK)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
            acc = tl.dot(a, b, acc, out_dtype=OUT)
            a_ptrs += BK * stride_ak
            b_ptrs += BK * stride_bk
    offs_cm = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_cn = tl.program_id(1) * BN + tl.arange(0, BN)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, acc, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


KINDS = {
    "f16": (np.float16, tl.float32, np.float32),
    "bf16": (ml_dtypes.bfloat16, tl.float32, np.float32),
    "tf32": (np.float32, tl.float32, np.float32),
    "int8": (np.int8, tl.int32, np.int32),
}
# (M, N, K, BM, BN, BK): several K iterations; masked edges everywhere; K loops of 0, 1 and 2
# iterations (shorter than the pipeline); a tile per warp pair. tf32's stages of 64 x 64 x 32
# tiles take 72 KiB at 4 stages: dynamic shared memory
SHAPES = [
    (64, 64, 256, 64, 64, 32),
    (50, 70, 200, 32, 64, 32),
    (64, 32, 0, 64, 32, 32),
    (32, 32, 32, 32, 32, 32),
    (32, 64, 40, 32, 64, 32),
]


def _tf32(x: np.ndarray) -> np.ndarray:
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def _operands(kind: str, m: int, n: int, k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A ``[M, K]`` and B ``[K, N]``; for K = 0 one column/row more, which the kernel must not
    read (the device copies of the test harness need a non-empty array)."""
    rng = np.random.default_rng(seed)
    k = max(k, 1)
    dtype = KINDS[kind][0]
    if kind == "int8":
        return (
            rng.integers(-128, 128, (m, k), dtype=np.int8),
            rng.integers(-128, 128, (k, n), dtype=np.int8),
        )
    return rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)


def _check(run: Any, kind: str, shape: tuple[int, ...], stages: int, loop_stages: int) -> Any:
    m, n, k, bm, bn, bk = shape
    a, b = _operands(kind, m, n, k, m + 3 * n + 7 * k + stages)
    lda = a.shape[1]
    _, out_tl, out_np = KINDS[kind]
    out = np.full((m, n), 77, out_np)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    compiled = run(
        tutorial_matmul,
        grid,
        a,
        b,
        out,
        m,
        n,
        k,
        lda,
        1,
        n,
        1,
        n,
        1,
        num_warps=4,
        num_stages=stages,
        OUT=out_tl,
        LOOP_STAGES=loop_stages,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    effective = loop_stages or stages
    if run.backend != "interpreter":
        ttg = compiled.asm["ttg"]
        gpu = compiled.asm["gpu"]
        assert "nvvm.mma.sync" in gpu or "nvvm.wgmma.mma_async" in gpu or k == 0
        assert ("ttg.async_copy_global_to_local" in ttg) == (effective > 1), ttg
    a, b = a[:, :k], b[:k]
    if kind == "int8":
        exact = a.astype(np.int64) @ b.astype(np.int64)
        np.testing.assert_array_equal(out, exact.astype(np.int32))
        return compiled
    wa, wb = a.astype(np.float64), b.astype(np.float64)
    if kind == "tf32" and run.backend != "interpreter":
        wa, wb = _tf32(a).astype(np.float64), _tf32(b).astype(np.float64)
    np.testing.assert_allclose(out, wa @ wb, rtol=1e-5, atol=1e-4 * np.sqrt(max(k, 1)))
    return compiled


@pytest.mark.parametrize("stages", [1, 2, 3, 4])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("kind", ["f16", "tf32"])
def test_pipelined_matmul(run: Any, kind: str, shape: tuple[int, ...], stages: int) -> None:
    _check(run, kind, shape, stages, 0)


@pytest.mark.parametrize("kind", ["bf16", "int8"])
@pytest.mark.parametrize("stages", [2, 3])
def test_pipelined_operand_types(run: Any, kind: str, stages: int) -> None:
    _check(run, kind, (50, 70, 200, 32, 64, 32), stages, 0)


@pytest.mark.parametrize("loop_stages", [1, 2, 4])
def test_loop_num_stages(run: Any, loop_stages: int) -> None:
    """``tl.range(..., num_stages=)`` overrides the launch's ``num_stages``."""
    _check(run, "f16", (64, 64, 256, 64, 64, 32), 3, loop_stages)


def test_copies_are_asynchronous_16_byte_runs(run: Any) -> None:
    """Rows of 8 f16 per thread go as one 16-byte ``cp.async`` each (``.cg``)."""
    compiled = _check(run, "f16", (64, 64, 256, 64, 64, 32), 3, 0)
    if run.backend != "interpreter":
        gpu = compiled.asm["gpu"]
        assert "nvvm.cp.async.shared.global" in gpu
        assert "nvvm.cp.async.wait.group" in gpu


@triton.jit
def invariant_operand_kernel(
    q_ptr, k_ptr, out_ptr, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr
):
    """``out = sum over key blocks of q @ k_block``: ``q`` is loaded once, before the loop
    (attention's Q), the key blocks in it."""
    rm, rn, rd = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, D)
    q = tl.load(q_ptr + rm[:, None] * D + rd[None, :])
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for start in range(0, N, BN):
        k = tl.load(k_ptr + rd[:, None] * N + (start + rn)[None, :])
        acc = tl.dot(q, k, acc)
    tl.store(out_ptr + rm[:, None] * BN + rn[None, :], acc)


@pytest.mark.parametrize("stages", [1, 3])
def test_a_loop_invariant_operand_is_stored_once(run: Any, stages: int) -> None:
    """The dot reads ``q`` from a tile stored before the loop (``ttg.local_alloc %q``)."""
    bm, bn, d, n = 64, 32, 64, 128
    rng = np.random.default_rng(stages)
    q = rng.standard_normal((bm, d)).astype(np.float16)
    k = rng.standard_normal((d, n)).astype(np.float16)
    out = np.full((bm, bn), 77, np.float32)
    compiled = run(
        invariant_operand_kernel,
        (1,),
        q,
        k,
        out,
        n,
        num_warps=4,
        num_stages=stages,
        BM=bm,
        BN=bn,
        D=d,
    )
    if run.backend != "interpreter":
        assert ("ttg.local_alloc %q" in compiled.asm["ttg"]) == (stages > 1)
    wide = q.astype(np.float64) @ k.astype(np.float64)
    ref = sum(wide[:, s : s + bn] for s in range(0, n, bn))
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("kind", ["tf32", "int8"])
def test_k_contiguous_b_is_staged_by_the_dot(run: Any, kind: str) -> None:
    """On ``mma.sync``, tf32 and int8 B tiles are K-contiguous (``ldmatrix`` cannot transpose
    them) while B is loaded N-contiguous: copies would move one element each, so only A is
    copied ahead and the dot stores B's registers itself. (A tf32 K tile of 8 is a quarter
    of a swizzled row: no warpgroup MMAs, ``test_dot_wgmma.test_tf32`` has those.)"""
    bk = 8 if kind == "tf32" else 32
    if not run.takes_small_dots and bk < 16:  # refused, as by Triton's NVIDIA backend
        with pytest.raises(DotSizeError, match="K >= 16"):
            _check(run, kind, (64, 64, 256, 64, 64, bk), 3, 0)
        return
    compiled = _check(run, kind, (64, 64, 256, 64, 64, bk), 3, 0)
    if run.backend != "interpreter":
        ttg = compiled.asm["ttg"]
        assert "nvvm.mma.sync" in compiled.asm["gpu"]
        assert f"!ttg.memdesc<3x64x{bk}x" in ttg  # A's stages
        assert not any("order = [0, 1]" in line for line in ttg.splitlines() if "memdesc" in line)
