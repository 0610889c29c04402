"""TMA stores: on sm_90 (gpusim's default target) a tensor descriptor's block store is written
into a swizzled shared tile and stored by the copy engine (``ttg-tma-stores``), host and
in-kernel descriptors alike; every backend gives the interpreter's answer: partial edge tiles
written only inside the tensor, several tiles a program (the tile rewritten only after the last
store read it), 4 and 8 warps, f16/bf16/f32."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects import gpu

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError
from mytriton.passes.gpu_lowering import context, driver
from mytriton.passes.gpu_lowering.tma_store import LowerTMAStoreWait
from mytriton.passes.ttg import tma_stores
from mytriton.tools.tensor_descriptor import TensorDescriptor
from tests.execution.conftest import Runner

pytestmark = pytest.mark.execution

SENTINEL = 7.0


@triton.jit
def scale_tiles(x_desc, y_desc, M, N, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """y = 2 x + 1, tile by tile; program p handles tiles p, p + PROGRAMS, ... (persistent)."""
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for t in range(pid, tiles, PROGRAMS):
        rm = (t // tiles_n) * BM
        rn = (t % tiles_n) * BN
        x = x_desc.load([rm, rn])
        y_desc.store([rm, rn], x * 2 + 1)


@triton.jit
def scale_tiles_device(
    x_ptr, y_ptr, M, N, P, PROGRAMS: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr
):
    """``scale_tiles`` through descriptors the kernel makes (rows ``P`` elements apart)."""
    x_desc = tl.make_tensor_descriptor(x_ptr, [M, N], [P, 1], [BM, BN])
    y_desc = tl.make_tensor_descriptor(y_ptr, [M, N], [P, 1], [BM, BN])
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BN)
    tiles = tl.cdiv(M, BM) * tiles_n
    for t in range(pid, tiles, PROGRAMS):
        rm = (t // tiles_n) * BM
        rn = (t % tiles_n) * BN
        x = x_desc.load([rm, rn])
        y_desc.store([rm, rn], x * 2 + 1)


DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
# (M, N, BM, BN, programs, num_warps): whole tiles; partial edge tiles in M and N; several
# tiles a program; 8 warps; 256-row tiles
SHAPES = [
    (64, 64, 32, 64, 2, 4),
    (100, 90, 32, 64, 2, 4),
    (72, 200, 16, 64, 3, 8),
    (300, 64, 256, 64, 1, 8),
]


def _tma_stored(compiled: Any) -> bool:
    return "ttg.async_tma_copy_local_to_global" in compiled.asm["ttg"]


def _check(run: Any, kernel: Any, dtype: str, shape: tuple[int, ...], host: bool) -> None:
    m, n, bm, bn, programs, warps = shape
    rng = np.random.default_rng(m * n)
    pitch = -(-n // 16) * 16 + 16  # rows 16-byte aligned, with columns past the tensor
    x = rng.standard_normal((m, pitch)).astype(DTYPES[dtype])[:, :n]
    whole = np.full((m + 3, pitch), SENTINEL, x.dtype)  # rows past the tensor too
    y = whole[:m, :n]
    if host:
        args: tuple[Any, ...] = (
            TensorDescriptor.from_tensor(x, [bm, bn]),
            TensorDescriptor.from_tensor(y, [bm, bn]),
            m,
            n,
        )
    else:
        args = (x, y, m, n, pitch)
    compiled = run(kernel, (programs,), *args, PROGRAMS=programs, BM=bm, BN=bn, num_warps=warps)
    if run.backend != "interpreter":
        # the copy engine writes whole 16-byte chunks of a row: a TMA store only where the
        # extent is known to be a multiple of 16 bytes (a host descriptor's shape is
        # specialized by its power-of-two divisor, a kernel's integer by 16)
        whole_chunks = (n * x.itemsize) % 16 == 0 if host else n % 16 == 0
        assert _tma_stored(compiled) == whole_chunks
        assert ("nvvm.cp.async.bulk.tensor.global.shared.cta" in compiled.asm["gpu"]) == (
            whole_chunks
        )
    expected = np.full_like(whole, SENTINEL)
    expected[:m, :n] = (x.astype(np.float32) * 2 + 1).astype(x.dtype)
    np.testing.assert_array_equal(whole.astype(np.float32), expected.astype(np.float32))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_host_descriptor_store(run: Any, shape: tuple[int, ...], dtype: str) -> None:
    _check(run, scale_tiles, dtype, shape, host=True)


@pytest.mark.parametrize("dtype", ["f16", "f32"])
@pytest.mark.parametrize("shape", SHAPES[1:], ids=lambda s: "x".join(map(str, s)))
def test_device_descriptor_store(run: Any, shape: tuple[int, ...], dtype: str) -> None:
    _check(run, scale_tiles_device, dtype, shape, host=False)


@triton.jit
def persistent_matmul(
    a_desc, b_desc, c_desc, M, N, K,
    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PROGRAMS: tl.constexpr,
):  # fmt: skip
    """c = a @ b in f16, output tiles taken in turn by PROGRAMS programs: TMA loads feeding
    warpgroup MMAs, and the tile's TMA store after each K loop."""
    tiles_n = tl.cdiv(N, BN)
    for t in range(tl.program_id(0), tl.cdiv(M, BM) * tiles_n, PROGRAMS):
        rm = (t // tiles_n) * BM
        rn = (t % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            a = a_desc.load([rm, k * BK])
            b = b_desc.load([k * BK, rn])
            acc = tl.dot(a, b, acc)
        c_desc.store([rm, rn], acc.to(tl.float16))


# (M, N, K, BM, BN, BK, programs, num_warps): partial edge tiles in M and N, several tiles a
# program; 8 warps
MATMULS = [(200, 300, 128, 64, 128, 64, 3, 4), (200, 136, 64, 128, 64, 64, 2, 8)]


@pytest.mark.parametrize("shape", MATMULS, ids=lambda s: "x".join(map(str, s)))
def test_persistent_matmul(run: Any, shape: tuple[int, ...]) -> None:
    m, n, k, bm, bn, bk, programs, warps = shape
    rng = np.random.default_rng(m + n)
    a = rng.standard_normal((m, k)).astype(np.float16)
    pitch = -(-n // 8) * 8 + 8  # 16-byte rows, with columns past the tensor
    b = rng.standard_normal((k, pitch)).astype(np.float16)[:, :n]
    whole = np.full((m + 2, pitch), SENTINEL, np.float16)
    c = whole[:m, :n]
    compiled = run(
        persistent_matmul,
        (programs,),
        TensorDescriptor.from_tensor(a, [bm, bk]),
        TensorDescriptor.from_tensor(b, [bk, bn]),
        TensorDescriptor.from_tensor(c, [bm, bn]),
        m,
        n,
        k,
        BM=bm,
        BN=bn,
        BK=bk,
        PROGRAMS=programs,
        num_warps=warps,
    )
    if run.backend != "interpreter":
        assert _tma_stored(compiled) == (n * 2 % 16 == 0)  # (whole 16-byte chunks: _check)
        assert "ttg.async_tma_copy_global_to_local" in compiled.asm["ttg"]
    ref = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    np.testing.assert_allclose(c.astype(np.float32), ref.astype(np.float32), rtol=1e-2, atol=2e-2)
    outside = np.ones(whole.shape, bool)
    outside[:m, :n] = False
    assert (whole[outside] == np.float16(SENTINEL)).all()


def _fresh(kernel: Any) -> Iterator[None]:
    kernel.clear_cache()  # (compiled unpatched by other tests)
    yield
    kernel.clear_cache()  # (the patched compiles)


def test_a_missing_wait_before_the_tile_is_rewritten_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the waits lowered to barriers alone (patched), gpusim reports the threads writing
    the tile of the next block while the copy engine may still read it."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setattr(LowerTMAStoreWait, "lower", lambda self, ctx, op: ctx.emit(gpu.BarrierOp()))
    for _ in _fresh(scale_tiles):
        with pytest.raises(SimulationError, match=r"while a TMA store reading it"):
            _check(Runner("gpusim", "numpy"), scale_tiles, "f16", SHAPES[2], host=True)


def test_a_tile_that_does_not_fit_stays_a_plain_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the staging tile would pass the shared-memory limit (patched down to half the
    tile), the store stays as it was, and right."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    limit = 32 * 64 * 2 // 2
    monkeypatch.setattr(context, "SHARED_MEMORY_LIMIT", limit)
    monkeypatch.setattr(driver, "SHARED_MEMORY_LIMIT", limit)
    for _ in _fresh(scale_tiles):
        m, n, bm, bn = 64, 64, 32, 64
        x = np.arange(m * n, dtype=np.float16).reshape(m, n)
        y = np.zeros_like(x)
        compiled = scale_tiles[(2,)](
            TensorDescriptor.from_tensor(x, [bm, bn]),
            TensorDescriptor.from_tensor(y, [bm, bn]),
            m,
            n,
            PROGRAMS=2,
            BM=bm,
            BN=bn,
        )
        assert not _tma_stored(compiled)
        np.testing.assert_array_equal(y, x * 2 + 1)


def _chunked_store(monkeypatch: pytest.MonkeyPatch, y: np.ndarray, x: np.ndarray) -> None:
    """``scale_tiles`` from ``x`` to ``y`` on gpusim with a TMA store whatever ``y``'s extent
    (the pass's check patched away)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setattr(tma_stores, "_whole_chunks", lambda *_: True)
    (m, n), (bm, bn) = y.shape, (32, 64)
    descriptors = [TensorDescriptor.from_tensor(t, [bm, bn]) for t in (x, y)]
    compiled = scale_tiles[(2,)](*descriptors, m, n, PROGRAMS=2, BM=bm, BN=bn, num_warps=4)
    assert _tma_stored(compiled)


@pytest.mark.parametrize("dtype", ["f16", "f32"])
def test_gpusim_stores_whole_16_byte_chunks_as_the_gpu(
    monkeypatch: pytest.MonkeyPatch, dtype: str
) -> None:
    """Past an innermost extent not a multiple of 16 bytes, a TMA store writes on to the next
    16-byte boundary of the row, as the H100 did (columns 90 to 95 of f16 rows, 90 and 91 of
    f32; the box's zeros from the load, so 1.0): why ``ttg-tma-stores`` needs whole chunks."""
    m, n, pitch = 100, 90, 112
    x = np.ones((m, pitch), DTYPES[dtype])[:, :n]
    whole = np.full((m + 3, pitch), SENTINEL, x.dtype)
    for _ in _fresh(scale_tiles):
        _chunked_store(monkeypatch, whole[:m, :n], x)
    past = 16 // x.itemsize * -(-n * x.itemsize // 16)  # the end of the last chunk
    expected = np.full_like(whole, SENTINEL)
    expected[:m, :n] = 3.0
    expected[:m, n:past] = 1.0
    np.testing.assert_array_equal(whole, expected)


def test_a_chunk_past_the_array_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the last row's chunk runs past the array, gpusim says so."""
    m, n, pitch = 40, 90, 112
    x = np.ones((m, pitch), np.float16)[:, :n]
    flat = np.full((m - 1) * pitch + n, SENTINEL, np.float16)
    y = np.lib.stride_tricks.as_strided(flat, (m, n), (pitch * 2, 2))
    for _ in _fresh(scale_tiles):
        with pytest.raises(SimulationError, match=r"whole 16-byte chunks.*runs past"):
            _chunked_store(monkeypatch, y, x)
