"""fp8 dots: fp8e4nv and fp8e5 operands (either format each) run as fp8 warpgroup MMAs
(``m64nNk32`` e4m3 / e5m2) where the tile allows them on an sm_90 (gpusim and the H200), both
tiles K-major (a B loaded N-contiguous staged from registers by the dot, one loaded
K-contiguous copied ahead by ``cp.async``), else as fp8 warp MMAs (``ptx.mma.sync`` m16n8k32)
where those fit and f16 warpgroup MMAs do not take the tile widened; every other fp8 dot
(``tt-legalize-fp8-dots``: K tiles of 32 bytes where f16 warpgroup MMAs run, an f16
accumulator; the frontend: fp8e4b15, fp8e4b8, fp8e5b16) runs on f16 operands. Each against the
exact product of the operands' values.

The H200's fp8 tensor cores add each instruction's products into the accumulator with fewer
than f32's bits (Triton's default, ``max_num_imprecise_acc`` unlimited, keeps it so): on the GPU
the tolerance is that of about 13 bits; the simulator and the interpreter compute exactly.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from tests.execution.test_dot_pipeline import tutorial_matmul

pytestmark = pytest.mark.execution


FORMATS = {"e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2}
CPU_BACKENDS = ("interpreter", "gpusim")


def _matmul(
    run: Any,
    fmt: str,
    shape: tuple[int, ...],
    stages: int,
    warps: int = 4,
    b_k_major: bool = False,
    b_fmt: str | None = None,
    out: Any = tl.float32,
) -> Any:
    """The tutorial matmul of fp8 operands (B in ``b_fmt``, else ``fmt``); ``b_k_major``: B
    stored transposed, its loads run along K."""
    m, n, k, bm, bn, bk = shape
    rng = np.random.default_rng(m + n + k + bk)
    a = rng.standard_normal((m, k)).astype(FORMATS[fmt])
    b = rng.standard_normal((k, n)).astype(FORMATS[b_fmt or fmt])
    b_stored, b_strides = (np.ascontiguousarray(b.T), (1, k)) if b_k_major else (b, (n, 1))
    result = np.full((m, n), 77, np.float16 if out == tl.float16 else np.float32)
    compiled = run(
        tutorial_matmul,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        a,
        b_stored,
        result,
        m,
        n,
        k,
        k,
        1,
        *b_strides,
        n,
        1,
        num_warps=warps,
        num_stages=stages,
        OUT=out,
        LOOP_STAGES=0,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    exact = a.astype(np.float64) @ b.astype(np.float64)
    if out == tl.float16:  # rounded to f16 after every BK of the K loop
        np.testing.assert_allclose(result, exact, rtol=2e-2, atol=2e-2 * np.sqrt(k))
    elif run.backend in CPU_BACKENDS:
        np.testing.assert_allclose(result, exact, rtol=1e-5, atol=1e-4 * np.sqrt(k))
    else:
        np.testing.assert_allclose(result, exact, rtol=1e-3, atol=1e-3 * np.sqrt(k))
    return compiled


def _mma(run: Any, compiled: Any) -> str | None:
    """What ran the dot: ``"fp8"`` (fp8 warpgroup MMAs), ``"f16"`` (f16 ones), ``"fp8-warp"``
    (``ptx.mma.sync``), ``"other"``."""
    if run.backend == "interpreter":
        return None
    gpu = compiled.asm["gpu"]
    if "ptx.mma.sync" in gpu:
        return "fp8-warp"
    if "wgmma.mma_async" not in gpu:
        return "other"
    return "fp8" if ("wgmma_type<e4m3>" in gpu or "wgmma_type<e5m2>" in gpu) else "f16"


# (M, N, K, BM, BN, BK)
SHAPES = [
    (64, 64, 512, 64, 64, 128),  # 128-byte rows, four K iterations
    (100, 120, 300, 64, 64, 64),  # 64-byte rows; masked M, N and K edges
    (64, 128, 128, 64, 128, 128),  # one K iteration, N = 128
]


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("b_k_major", [False, True], ids=["b_n_major", "b_k_major"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("fmt", list(FORMATS))
def test_fp8_wgmma(
    run: Any, fmt: str, shape: tuple[int, ...], b_k_major: bool, stages: int
) -> None:
    compiled = _matmul(run, fmt, shape, stages, b_k_major=b_k_major)
    assert _mma(run, compiled) in (None, "fp8")
    if run.backend != "interpreter" and b_k_major and stages > 1:  # copied ahead, kept in flight
        ttg = compiled.asm["ttg"]
        assert "ttg.async_copy_global_to_local" in ttg and "ttg.dot_wait" in ttg


def test_two_warpgroups(run: Any) -> None:
    """Eight warps, two M instructions per warpgroup."""
    compiled = _matmul(run, "e4m3", (256, 64, 256, 256, 64, 128), 3, warps=8, b_k_major=True)
    assert _mma(run, compiled) in (None, "fp8")


@pytest.mark.parametrize(
    ("why", "shape", "warps", "out", "expected"),
    [
        ("32-byte rows: f16 MMAs in 64-byte ones", (64, 64, 96, 64, 64, 32), 4, tl.float32, "f16"),
    ],
)
def test_widened_to_f16(
    run: Any, why: str, shape: tuple[int, ...], warps: int, out: Any, expected: str
) -> None:
    """Where no fp8 MMA runs the dot its operands become f16 (exact) first."""
    compiled = _matmul(run, "e5m2", shape, 2, warps=warps, out=out)
    assert _mma(run, compiled) in (None, expected), why


def test_f16_accumulator(run: Any) -> None:
    """``out_dtype=tl.float16`` is an f32 dot rounded at its end: fp8 MMAs run it (before, an
    f16 accumulator kept it on CUDA cores)."""
    compiled = _matmul(run, "e5m2", (64, 64, 192, 64, 64, 64), 2, out=tl.float16)
    assert _mma(run, compiled) in (None, "fp8")


# (M, N, K, BM, BN, BK, warps): no warpgroup tile (one or two warps, or N of 32)
WARP_SHAPES = [
    (32, 32, 96, 32, 32, 32, 1),
    (50, 70, 200, 32, 64, 64, 2),
    (64, 64, 256, 64, 32, 64, 4),
]


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("b_k_major", [False, True], ids=["b_n_major", "b_k_major"])
@pytest.mark.parametrize(("fmt", "b_fmt"), [("e4m3", "e4m3"), ("e5m2", "e5m2"), ("e4m3", "e5m2")])
@pytest.mark.parametrize("shape", WARP_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_fp8_warp_mma(
    run: Any, shape: tuple[int, ...], fmt: str, b_fmt: str, b_k_major: bool, stages: int
) -> None:
    """Tiles warpgroup MMAs cannot take run fp8 warp MMAs (``ptx.mma.sync``, sm_89 on): both
    operands staged K-contiguous as bytes, read by ``ldmatrix`` as the s8 fragments."""
    *tile, warps = shape
    compiled = _matmul(run, fmt, tuple(tile), stages, warps=warps, b_fmt=b_fmt, b_k_major=b_k_major)
    assert _mma(run, compiled) in (None, "fp8-warp")
    if run.backend != "interpreter":
        assert "nvvm.mma.sync" not in compiled.asm["gpu"]


@pytest.mark.parametrize(("fmt", "b_fmt"), [("e4m3", "e5m2"), ("e5m2", "e4m3")])
@pytest.mark.parametrize("b_k_major", [False, True], ids=["b_n_major", "b_k_major"])
def test_two_formats(run: Any, fmt: str, b_fmt: str, b_k_major: bool) -> None:
    """fp8e4nv times fp8e5 (and the other way round): one fp8 MMA (``.e4m3.e5m2``) reads both,
    from one byte buffer (an fp8 lives in its byte); widened to f16 where it cannot."""
    compiled = _matmul(run, fmt, (100, 120, 300, 64, 64, 128), 3, b_fmt=b_fmt, b_k_major=b_k_major)
    assert _mma(run, compiled) in (None, "fp8")
    if run.backend != "interpreter":
        assert (
            f"typeA = #nvvm.wgmma_type<{fmt}>, typeB = #nvvm.wgmma_type<{b_fmt}>"
            in (compiled.asm["gpu"])
        )
    compiled = _matmul(run, fmt, (64, 64, 128, 64, 64, 32), 2, b_fmt=b_fmt)
    assert _mma(run, compiled) in (None, "f16")


@triton.jit
def promoted_matmul_kernel(
    a, b_t, out, K, IMPRECISE: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr,
    BK: tl.constexpr,
):  # fmt: skip
    """One BM x BN tile per program over a K loop; B stored transposed (K-contiguous) and
    ``max_num_imprecise_acc=IMPRECISE`` on the fp8 dot."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        x = tl.load(a + rm[:, None] * K + (k0 + rk)[None, :])
        y = tl.load(b_t + rn[None, :] * K + (k0 + rk)[:, None])
        acc = tl.dot(x, y, acc, max_num_imprecise_acc=IMPRECISE)
    tl.store(out + rm[:, None] * (BN * tl.num_programs(1)) + rn[None, :], acc)


@pytest.mark.parametrize("imprecise", [0, 32, 64, 128])
def test_max_num_imprecise_acc(run: Any, imprecise: int) -> None:
    """Every ``max_num_imprecise_acc`` products (at least one instruction's 32, at most a K
    block) the warpgroup MMAs' partial sum is added into the f32 accumulator (Triton's
    promotion): one commit, wait and ``arith.addf`` per register per chunk of a K block."""
    m, n, k, bm, bn, bk = 128, 64, 512, 64, 64, 128
    rng = np.random.default_rng(imprecise)
    a = rng.standard_normal((m, k)).astype(FORMATS["e4m3"])
    b = rng.standard_normal((k, n)).astype(FORMATS["e4m3"])
    out = np.zeros((m, n), np.float32)
    b_t = np.ascontiguousarray(b.T)
    grid = (m // bm, n // bn)
    compiled = run(
        promoted_matmul_kernel, grid, a, b_t, out, k, IMPRECISE=imprecise, BM=bm, BN=bn, BK=bk
    )
    chunks = bk // max(imprecise, 32)  # K = BK: once per dot, still into a zero accumulator
    if run.backend != "interpreter":
        gpu = compiled.asm["gpu"]
        assert _mma(run, compiled) == "fp8"
        assert gpu.count("nvvm.wgmma.commit.group.sync.aligned") == chunks
        assert gpu.count("arith.addf") >= bm * bn // 128 * chunks  # every register, every chunk
        ttg = compiled.asm["ttg"]  # copied ahead, but the dot waits for its MMAs itself
        assert "ttg.async_copy_global_to_local" in ttg and "ttg.dot_wait" not in ttg
    exact = a.astype(np.float64) @ b.astype(np.float64)
    # the H200 sums even one instruction's 32 products with about 13 bits (~6e-4 of these sums)
    tol = 1e-5 if run.backend in CPU_BACKENDS else 1e-3
    np.testing.assert_allclose(out, exact, rtol=tol, atol=tol * np.sqrt(k))


@triton.jit
def imprecise_too_large_kernel(a, out):
    x = tl.load(a + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tl.store(out + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :],
             tl.dot(x, tl.trans(x), max_num_imprecise_acc=64))  # fmt: skip


def test_max_num_imprecise_acc_above_k() -> None:
    """More than K is Triton's ValueError, here a typed error at the dot's line."""
    a = np.zeros((64, 32), FORMATS["e5m2"])
    with pytest.raises(
        triton.CompilationError, match=r"max_num_imprecise_acc \(64\) must be <= K \(32\)"
    ):
        imprecise_too_large_kernel.warmup(a, np.zeros((64, 64), np.float32), grid=(1,))
