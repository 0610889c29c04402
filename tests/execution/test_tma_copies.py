"""TMA copies: a pipelined K loop whose dot operands are host tensor descriptors' blocks copies
them by the tensor memory accelerator on sm_90 (``ttg_tma``; gpusim's default target), one
thread a stage, completing on mbarriers; the kernel records the tensor maps it reads
(``metadata["tensor_maps"]``), which the runtime encodes for each launch. Every backend gives
the interpreter's answer, masked edges included (the copy engine fills zeros outside the
tensor)."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError
from mytriton.passes.ttg.pipelining.async_dots import AsyncDots
from mytriton.tools.tensor_descriptor import TensorDescriptor
from tests.execution.conftest import Runner

pytestmark = pytest.mark.execution


@triton.jit
def descriptor_matmul(
    a_desc, b_desc, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """Tutorial 09's matmul through host descriptors: c = a @ b, f32 accumulation."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([pid_m * BM, k * BK])
        b = b_desc.load([k * BK, pid_n * BN])
        acc = tl.dot(a, b, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=mask)


def _rows_of_16_bytes(rng: np.random.Generator, rows: int, cols: int, dtype: Any) -> np.ndarray:
    """A random ``rows x cols`` view whose rows start 16 bytes apart at least (a tensor map's
    strides are multiples of 16 bytes), of a wider array where ``cols`` is not enough."""
    wide = -(-cols // 8) * 8
    return rng.standard_normal((rows, wide)).astype(dtype)[:, :cols]


def _copied_by_tma(compiled: Any) -> bool:
    return "ttg.async_tma_copy_global_to_local" in compiled.asm["ttg"]


# (M, N, K, BM, BN, BK, num_warps): whole tiles; masked edges in M, N and K (A's last row of
# tiles crosses the tensor's edge: 8-row boxes, the others one span map copy); 64-byte swizzled
# rows (BK = 32 of f16); 8 warps (A's rows rotated over 16 groups), with a crossing tile too,
# and A two atoms wide (BK = 128); B four atoms wide
SHAPES = [
    (64, 64, 192, 64, 64, 64, 4),
    (100, 90, 200, 64, 64, 64, 4),
    (64, 128, 96, 64, 64, 32, 4),
    (128, 64, 128, 128, 64, 64, 8),
    (200, 64, 128, 128, 64, 64, 8),
    (200, 64, 256, 128, 64, 128, 8),
    (64, 256, 128, 64, 256, 64, 4),
]


def _launch_matmul(run: Any, a: Any, b: Any, shape: tuple[int, ...]) -> tuple[Any, Any]:
    """``descriptor_matmul`` of ``a`` and ``b`` through host descriptors, ``shape`` being
    (M, N, K, BM, BN, BK, num_warps): the result (7 where nothing was stored) and the kernel."""
    m, n, k, bm, bn, bk, num_warps = shape
    c = np.full((m, n), 7, np.float32)
    compiled = run(
        descriptor_matmul,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        TensorDescriptor.from_tensor(a, [bm, bk]),
        TensorDescriptor.from_tensor(b, [bk, bn]),
        c,
        m,
        n,
        k,
        BM=bm,
        BN=bn,
        BK=bk,
        num_warps=num_warps,
    )
    return c, compiled


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_descriptor_matmul(run: Any, shape: tuple[int, ...], dtype: Any) -> None:
    m, n, k, bm, bn, bk, _ = shape
    rng = np.random.default_rng(m + n + k)
    a = _rows_of_16_bytes(rng, m, k, dtype)
    b = _rows_of_16_bytes(rng, k, n, dtype)
    c, compiled = _launch_matmul(run, a, b, shape)
    if run.backend != "interpreter":
        assert _copied_by_tma(compiled), "the operands were not copied by TMA"
        maps = compiled.metadata["tensor_maps"]
        a_rows = 8  # A's 8-row groups move (ttg_nvmma's rotate): an 8-row box a group
        span = bm // 8  # ... over the whole tile here: one span map copy inside the tensor
        swizzle = min(128, bk * 2)
        assert sorted(maps.values()) == sorted(
            [
                [[a_rows, swizzle // 2], swizzle, span],
                [[bk, min(bn, 64)], min(128, bn * 2), 0],
            ]
        )
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-4 * np.sqrt(k))


@pytest.mark.parametrize("shape", [(200, 64, 96, 128, 64, 32, 8), (64, 64, 64, 64, 64, 32, 4)])
def test_tf32_descriptor_matmul(run: Any, shape: tuple[int, ...]) -> None:
    """f32 blocks (tf32 MMAs, 4-byte elements: 32 a swizzled row) copied by TMA, A's rotated
    spans through the span map and, past row 128 of 200, as 8-row boxes. The tolerance admits
    tf32's rounding (10-bit mantissas), not a row or column out of place."""
    m, n, k, bm = shape[:4]
    rng = np.random.default_rng(m + k)
    a = _rows_of_16_bytes(rng, m, k, np.float32)
    b = _rows_of_16_bytes(rng, k, n, np.float32)
    c, compiled = _launch_matmul(run, a, b, shape)
    if run.backend != "interpreter":
        assert _copied_by_tma(compiled), "the operands were not copied by TMA"
        a_map = compiled.metadata["tensor_maps"]["4"]
        assert a_map == [[8, 32], 128, bm // 8]
    ref = a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
    assert np.all(np.abs(c - ref) <= 2.0**-9 * scale + 1e-5)


def test_tensor_maps_follow_the_descriptors(run: Any) -> None:
    """Two launches over different tensors of one shape: each reads its own (the maps are
    cached by base address, not by kernel)."""
    m, n, k = 64, 64, 128
    outs = []
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        a = rng.standard_normal((m, k)).astype(np.float16)
        b = rng.standard_normal((k, n)).astype(np.float16)
        c = np.zeros((m, n), np.float32)
        run(
            descriptor_matmul,
            (1, 1),
            TensorDescriptor.from_tensor(a, [64, 64]),
            TensorDescriptor.from_tensor(b, [64, 64]),
            c,
            m,
            n,
            k,
            BM=64,
            BN=64,
            BK=64,
        )
        ref = a.astype(np.float64) @ b.astype(np.float64)
        np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-3)
        outs.append(c)
    assert not np.array_equal(outs[0], outs[1])


@pytest.mark.parametrize("shape", [(64, 64, 320, 64, 64, 64, 4), (128, 64, 320, 128, 64, 64, 8)])
def test_copies_after_the_in_flight_wait_need_a_barrier(
    monkeypatch: pytest.MonkeyPatch, shape: tuple[int, ...]
) -> None:
    """The TMA copies into the tile the previous iteration's dot (in flight into this one) read
    follow its ``pendings = 1`` wait and a barrier, one tile a stage: without the barrier
    (patched off) gpusim reports the race, with one warpgroup as with two."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setattr(AsyncDots, "copies_need_barrier", property(lambda self: False))
    m, n, k = shape[:3]
    rng = np.random.default_rng(0)
    a, b = _rows_of_16_bytes(rng, m, k, np.float16), _rows_of_16_bytes(rng, k, n, np.float16)
    descriptor_matmul.clear_cache()  # (compiled with the barrier by other tests)
    try:
        with pytest.raises(SimulationError, match=r"data race: a TMA copy to .* since the last"):
            _launch_matmul(Runner("gpusim", "numpy"), a, b, shape)
    finally:
        descriptor_matmul.clear_cache()  # (the patched compiles)


@triton.jit
def shifted_matmul(
    a_desc, b_desc, c_ptr, shift, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """``c = a[:, shift:shift + K] @ b``: A's blocks start ``shift`` columns in."""
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([0, shift + k * BK])
        b = b_desc.load([k * BK, 0])
        acc = tl.dot(a, b, acc)
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@pytest.mark.parametrize("shift", [4, 16])
def test_unaligned_inner_coordinate(run: Any, shift: int) -> None:
    """A block whose innermost coordinate is not known to be a multiple of 16 bytes (4 f16
    elements: 8 bytes) is not copied by TMA: the H200 stops at such a copy with an illegal
    instruction. 16 elements (32 bytes; the launch specializes the shift as a multiple of 16)
    are."""
    m, n, k = 64, 64, 128
    rng = np.random.default_rng(shift)
    wide = rng.standard_normal((m, k + 16)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float32)
    compiled = run(
        shifted_matmul,
        (1, 1),
        TensorDescriptor.from_tensor(wide, [64, 64]),
        TensorDescriptor.from_tensor(b, [64, 64]),
        c,
        shift,
        m,
        n,
        k,
        BM=64,
        BN=64,
        BK=64,
    )
    if run.backend != "interpreter":
        maps = compiled.metadata.get("tensor_maps", {})
        assert len(maps) == (2 if shift == 16 else 1)  # B's always
    a = wide[:, shift : shift + k].astype(np.float64)
    ref = a @ b.astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-3)
