"""Hopper's warpgroup MMAs (``nvvm.wgmma.mma_async``): f16, bf16 and tf32 dots whose tiles allow
them (every warp along M, N a multiple of 64, K whole 128-byte swizzled rows) read both operands
from 128-byte swizzled shared tiles, on every backend, against NumPy.

The kernel is Triton's tutorial matmul (``test_dot_pipeline``). Cases cover one and two
warpgroups, 1 stage (operands stored from registers into the dot's staging buffer) and 2-3
(``cp.async`` into swizzled pipeline stages), masked M/N/K edges, K loops of one iteration, and
a dot outside any loop; the compiled kernel must use wgmma where the chip is an sm_90 (gpusim
and the H200: ``ttg.DEFAULT_CAPABILITY``) and nothing else where the tile does not allow it.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError
from mytriton.errors import DotSizeError
from mytriton.passes.ttg.pipelining.async_dots import AsyncDots
from tests.execution.conftest import Runner
from tests.execution.test_dot_pipeline import tutorial_matmul

pytestmark = pytest.mark.execution

DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "tf32": np.float32}


def _tf32(x: np.ndarray) -> np.ndarray:
    """What a tensor core reads of an f32 operand: its upper 19 bits."""
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def _matmul(
    run: Any,
    kind: str,
    shape: tuple[int, ...],
    stages: int,
    warps: int = 4,
    seed: int = 0,
    b_k_major: bool = False,
    a_m_major: bool = False,
) -> Any:
    """``b_k_major``: B stored transposed (``b[k, n]`` at ``k + K n``), so its loads run
    along K; ``a_m_major``: A stored transposed (``a[m, k]`` at ``m + M k``), its loads run
    along M."""
    m, n, k, bm, bn, bk = shape
    rng = np.random.default_rng(seed + m + n + k)
    a = rng.standard_normal((m, k)).astype(DTYPES[kind])
    b = rng.standard_normal((k, n)).astype(DTYPES[kind])
    a_stored, a_strides = (np.ascontiguousarray(a.T), (1, m)) if a_m_major else (a, (k, 1))
    b_stored, b_strides = (np.ascontiguousarray(b.T), (1, k)) if b_k_major else (b, (n, 1))
    out = np.full((m, n), 77, np.float32)
    compiled = run(
        tutorial_matmul,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        a_stored,
        b_stored,
        out,
        m,
        n,
        k,
        *a_strides,
        *b_strides,
        n,
        1,
        num_warps=warps,
        num_stages=stages,
        OUT=tl.float32,
        LOOP_STAGES=0,
        BM=bm,
        BN=bn,
        BK=bk,
    )
    if kind == "tf32" and run.backend != "interpreter":  # the interpreter multiplies exactly
        a, b = _tf32(a), _tf32(b)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(out, exact, rtol=1e-5, atol=1e-4 * np.sqrt(k))
    return compiled


def _uses_wgmma(run: Any, compiled: Any) -> bool | None:
    if run.backend == "interpreter":
        return None
    return "nvvm.wgmma.mma_async" in compiled.asm["gpu"]


# (M, N, K, BM, BN, BK)
SHAPES = [
    (64, 64, 256, 64, 64, 64),  # one warpgroup, four K iterations
    (100, 120, 200, 64, 64, 64),  # masked M, N and K edges
    (64, 128, 64, 64, 128, 64),  # one K iteration, N = 128
]


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("kind", ["f16", "bf16"])
def test_wgmma_matmul(run: Any, kind: str, shape: tuple[int, ...], stages: int) -> None:
    compiled = _matmul(run, kind, shape, stages)
    assert _uses_wgmma(run, compiled) in (None, True)


def test_two_warpgroups(run: Any) -> None:
    """Eight warps: warpgroup 1 computes rows 64-127 of the block (its A rows are the
    rotated rows of warps 4-7)."""
    compiled = _matmul(run, "f16", (128, 64, 128, 128, 64, 64), 2, warps=8)
    assert _uses_wgmma(run, compiled) in (None, True)


def test_two_m_blocks_per_warpgroup(run: Any) -> None:
    """A 128-row block over one warpgroup: two instructions along M per K step."""
    compiled = _matmul(run, "bf16", (128, 64, 128, 128, 64, 64), 3, warps=4)
    assert _uses_wgmma(run, compiled) in (None, True)


def test_small_k_tile_keeps_mma_sync(run: Any) -> None:
    """BK = 16 is a quarter of a 128-byte row: the dot stays on ``mma.sync``."""
    compiled = _matmul(run, "f16", (64, 64, 64, 64, 64, 16), 2)
    assert _uses_wgmma(run, compiled) in (None, False)


# (M, N, K, BM, BN, BK), BK half a 128-byte row
HALF_ROW_SHAPES = [
    (64, 64, 96, 64, 64, 32),  # three K iterations
    (100, 120, 200, 64, 64, 32),  # masked M, N and K edges
    (128, 256, 160, 128, 256, 32),  # two warpgroups, N = 256
]


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("b_k_major", [False, True], ids=["b_n_major", "b_k_major"])
@pytest.mark.parametrize("shape", HALF_ROW_SHAPES, ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("kind", ["f16", "bf16"])
def test_64_byte_rows(
    run: Any, kind: str, shape: tuple[int, ...], b_k_major: bool, stages: int
) -> None:
    """BK = 32 (64 bytes of f16/bf16) as warpgroup MMAs over 64-byte swizzled rows (swizzle
    mode 2): A always, B where it is K-major (an N-major B keeps 128-byte rows along N)."""
    warps = 8 if shape[3] == 128 else 4
    compiled = _matmul(run, kind, shape, stages, warps=warps, b_k_major=b_k_major)
    if run.backend == "interpreter":
        return
    ttg = compiled.asm["ttg"]
    assert "ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [" in ttg
    assert "ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 64" in ttg
    b_tile = "order = [0, 1], swizzle = 64" if b_k_major else "order = [1, 0], swizzle = 128"
    assert f"ttg.rhs_shared = #ttg.nvmma_shared<{{{b_tile}" in ttg
    assert _uses_wgmma(run, compiled)
    if stages > 1:
        assert "pendings = 1" in ttg


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize(
    "shape",
    [(64, 64, 256, 64, 64, 64), (100, 120, 200, 64, 64, 64), (128, 128, 128, 128, 128, 64)],
    ids=lambda s: "x".join(map(str, s)),
)
def test_k_major_b(run: Any, shape: tuple[int, ...], stages: int) -> None:
    """B given transposed (attention's K^T): loaded along K, staged K-major (``layoutB =
    col``), copied ahead in a pipelined loop."""
    warps = 8 if shape[3] == 128 else 4
    compiled = _matmul(run, "f16", shape, stages, warps=warps, b_k_major=True)
    if run.backend == "interpreter":
        return
    assert "#ttg.nvmma_shared<{order = [0, 1], swizzle = 128, rotate = 0}>" in compiled.asm["ttg"]
    assert _uses_wgmma(run, compiled)
    if stages > 1:
        assert compiled.asm["ttg"].count("ttg.async_copy_global_to_local") >= 4


# (M, N, K, BM, BN, BK): K 32 f32 elements is one 128-byte swizzled row
TF32_SHAPES = [
    (64, 64, 96, 64, 64, 32),  # three K iterations
    (100, 120, 200, 64, 64, 32),  # masked M, N and K edges
    (128, 256, 160, 128, 256, 32),  # two warpgroups, N = 256
    (128, 64, 128, 128, 64, 64),  # two swizzled rows per K step
]


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("b_k_major", [False, True], ids=["b_n_major", "b_k_major"])
@pytest.mark.parametrize("shape", TF32_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_tf32(run: Any, shape: tuple[int, ...], b_k_major: bool, stages: int) -> None:
    """f32 operands at tf32 precision (the default) as m64nNk8 warpgroup MMAs, both tiles
    K-major (the instruction's only form for 32-bit operands): a B loaded N-contiguous is
    stored transposed by the dot (1 stage) or copied ahead 4 bytes at a time; the pipelined
    loop keeps its MMAs in flight."""
    warps = 8 if shape[3] == 128 else 4
    compiled = _matmul(run, "tf32", shape, stages, warps=warps, b_k_major=b_k_major)
    if run.backend == "interpreter":
        return
    ttg = compiled.asm["ttg"]
    assert "ttg.rhs_shared = #ttg.nvmma_shared<{order = [0, 1], swizzle = 128" in ttg
    assert "k = 8>, typeA = #nvvm.wgmma_type<tf32>" in compiled.asm["gpu"]
    if not b_k_major:  # each warp access: 4 rows of K x 8 of N, 32 different banks
        assert "sizePerThread = [1, 1], threadsPerWarp = [4, 8]" in ttg
    if stages > 1:
        assert ttg.count("ttg.async_copy_global_to_local") >= 4 and "pendings = 1" in ttg


def test_tf32_in_64_byte_rows(run: Any) -> None:
    """BK = 16 of f32 is half a 128-byte row: both tiles in 64-byte rows."""
    compiled = _matmul(run, "tf32", (100, 120, 200, 64, 64, 16), 3)
    if run.backend != "interpreter":
        assert (
            "ttg.rhs_shared = #ttg.nvmma_shared<{order = [0, 1], swizzle = 64"
            in compiled.asm["ttg"]
        )
        assert _uses_wgmma(run, compiled)


def test_tf32_quarter_row_keeps_mma_sync(run: Any) -> None:
    """BK = 8 is a quarter of a 128-byte row of f32: the dot stays on ``mma.sync`` (m16n8k8)
    on gpusim; the cuda and mlir backends refuse a dot of K 8, as Triton's NVIDIA backend."""
    if not run.takes_small_dots:
        with pytest.raises(DotSizeError, match="K >= 16"):
            _matmul(run, "tf32", (64, 64, 64, 64, 64, 8), 2)
        return
    compiled = _matmul(run, "tf32", (64, 64, 64, 64, 64, 8), 2)
    assert _uses_wgmma(run, compiled) in (None, False)


@pytest.mark.parametrize("k", [64, 320])
def test_in_flight_across_iterations(run: Any, k: int) -> None:
    """The K loop keeps each iteration's MMAs in flight into the next (``pendings = 1``, then a
    barrier, then the copies into the tile the previous dot read: four tiles for four stages):
    one iteration, and five (the tiles wrap around)."""
    compiled = _matmul(run, "f16", (128, 128, k, 128, 128, 64), 4, warps=8)
    if run.backend == "interpreter":
        return
    ttg = compiled.asm["ttg"]
    assert "ttg.dot_wait" in ttg and "pendings = 1" in ttg
    assert "!ttg.memdesc<4x128x64xf16" in ttg and "!ttg.memdesc<5x" not in ttg


@pytest.mark.parametrize("warps", [4, 8])
def test_copies_after_the_in_flight_wait_need_a_barrier(
    monkeypatch: pytest.MonkeyPatch, warps: int
) -> None:
    """Without the barrier between the ``pendings = 1`` wait and the copies into the tile the
    previous iteration's dot read (patched off), gpusim reports the race: a wait retires its
    own warp's MMAs only, with one warpgroup as with two (``gpusim.warpgroups``)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setattr(AsyncDots, "copies_need_barrier", property(lambda self: False))
    bm = 64 * (warps // 4)
    tutorial_matmul.clear_cache()  # (compiled with the barrier by other tests)
    try:
        with pytest.raises(SimulationError, match=r"data race: overwrites smem.* since the last"):
            _matmul(Runner("gpusim", "numpy"), "f16", (bm, 128, 256, bm, 128, 64), 3, warps=warps)
    finally:
        tutorial_matmul.clear_cache()  # (the patched compiles)


@pytest.mark.parametrize("bk", [64, 32, 16])
def test_m_major_a(run: Any, bk: int) -> None:
    """A given transposed: loaded along M (order [0, 1]), staged K-major by the dot from its
    registers (wgmma for BK = 64 and 32, mma.sync for 16); B given transposed too."""
    compiled = _matmul(run, "f16", (128, 64, 160, 64, 64, bk), 3, a_m_major=True, b_k_major=True)
    if run.backend != "interpreter":
        assert _uses_wgmma(run, compiled) == (bk >= 32)


def test_in_flight_loop_of_no_iteration(run: Any) -> None:
    """K = 0: the loop carrying the MMAs in flight runs no iteration, and what is waited for
    after it is the accumulator's zeros."""
    a = np.ones((128, 64), np.float16)
    out = np.full((128, 128), 77, np.float32)
    grid = (1, 1)
    compiled = run(
        tutorial_matmul, grid, a, a, out, 128, 128, 0, 64, 1, 128, 1, 128, 1,
        num_warps=8, num_stages=4, OUT=tl.float32, LOOP_STAGES=0, BM=128, BN=128, BK=64,
    )  # fmt: skip
    np.testing.assert_array_equal(out, 0)
    if run.backend != "interpreter":
        assert "pendings = 1" in compiled.asm["ttg"]


@pytest.mark.parametrize("kind", ["f16", "bf16"])
def test_k_major_b_on_mma_sync(run: Any, kind: str) -> None:
    """BK = 16 keeps mma.sync: a K-contiguous f16/bf16 B is staged K-contiguous and read by
    ``ldmatrix`` untransposed."""
    compiled = _matmul(run, kind, (64, 64, 100, 64, 64, 16), 3, b_k_major=True)
    if run.backend == "interpreter":
        return
    assert "ttg.rhs_shared = #ttg.shared<{order = [0, 1], pad = 8}>" in compiled.asm["ttg"]
    assert _uses_wgmma(run, compiled) is False


@triton.jit
def single_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """One dot of two loaded blocks, no loop: both operands stored from registers."""
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.dot(a, b) + 1.0
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], c)


def test_dot_outside_a_loop(run: Any) -> None:
    rng = np.random.default_rng(5)
    a = rng.standard_normal((64, 128)).astype(np.float16)
    b = rng.standard_normal((128, 64)).astype(np.float16)
    out = np.zeros((64, 64), np.float32)
    compiled = run(single_dot, (1,), a, b, out, M=64, N=64, K=128)
    exact = a.astype(np.float64) @ b.astype(np.float64) + 1.0
    np.testing.assert_allclose(out, exact, rtol=1e-5, atol=1e-3)
    assert _uses_wgmma(run, compiled) in (None, True)


def test_layouts_are_chosen_for_the_device(run: Any) -> None:
    """The compiled kernel records the chip its layouts were chosen for: the launch device's
    compute capability on a GPU, sm_90 for gpusim (``ttg.DEFAULT_CAPABILITY``)."""
    compiled = _matmul(run, "f16", (64, 64, 64, 64, 64, 64), 1)
    if run.backend == "interpreter":
        return
    expected = 90
    if run.backend in ("cuda", "mlir"):
        import cupy  # type: ignore[import-not-found,import-untyped,unused-ignore]

        expected = int(cupy.cuda.Device().compute_capability)
    assert f'ttg.target = "cuda:{expected}"' in compiled.asm["ttg"]
    assert _uses_wgmma(run, compiled) == (expected == 90)


@triton.jit
def chained_dots(
    a_ptr, b_ptr, v_ptr, o_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
    D: tl.constexpr, BM: tl.constexpr,
):  # fmt: skip
    """``o = (a @ b).to(a's type) @ v`` per BM rows: the second dot's A is the first's rounded
    result, in the accumulator's layout (attention's P @ V)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn, rk, rd = tl.arange(0, N), tl.arange(0, K), tl.arange(0, D)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    p = tl.dot(a, b).to(a.dtype)
    v = tl.load(v_ptr + rn[:, None] * D + rd[None, :])
    o = tl.dot(p, v)
    tl.store(o_ptr + rm[:, None] * D + rd[None, :], o)


@pytest.mark.parametrize(
    ("kind", "bm", "n", "d", "warps"),
    [("f16", 64, 64, 64, 4), ("bf16", 128, 128, 64, 8), ("f16", 128, 64, 128, 4)],
)
def test_a_from_registers(run: Any, kind: str, bm: int, n: int, d: int, warps: int) -> None:
    """The second dot takes A from the registers the first dot's accumulator left it in
    (``ptx.wgmma.mma_async``): no shared memory for it, the same result."""
    m, k = 2 * bm, 64
    rng = np.random.default_rng(bm + n + d)
    dtype = DTYPES[kind]
    a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    v = rng.standard_normal((n, d)).astype(dtype)
    out = np.zeros((m, d), np.float32)
    compiled = run(
        chained_dots, (m // bm,), a, b, v, out, M=m, N=n, K=k, D=d, BM=bm, num_warps=warps
    )
    p = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32).astype(dtype)
    exact = p.astype(np.float64) @ v.astype(np.float64)
    # the first product rounds to the operand type: where it lands on a tie, the tensor core's
    # f32 sum may round the other way than float64's
    np.testing.assert_allclose(out, exact, rtol=1e-3, atol=0.25)  # values reach a few hundred
    if run.backend != "interpreter":
        gpu = compiled.asm["gpu"]
        assert gpu.count("ptx.wgmma.mma_async") > 0 and gpu.count("nvvm.wgmma.mma_async") > 0


# (M, N, K, BM, BN, BK) of int8 dots: 128-byte rows over four K iterations; 64-byte rows with
# masked edges; two warpgroups
INT8_SHAPES = [
    (64, 64, 512, 64, 64, 128),
    (100, 120, 300, 64, 64, 64),
    (128, 128, 256, 128, 128, 128),
]


@pytest.mark.parametrize("stages", [1, 3])
@pytest.mark.parametrize("b_k_major", [False, True], ids=["b_n_major", "b_k_major"])
@pytest.mark.parametrize("shape", INT8_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_int8(run: Any, shape: tuple[int, ...], b_k_major: bool, stages: int) -> None:
    """int8 operands into int32 as m64nNk32 s8 warpgroup MMAs (sums wrap like the CUDA-core
    loop's), both tiles K-major: a B loaded N-contiguous is stored transposed from registers
    by the dot, one loaded K-contiguous copied ahead."""
    m, n, k, bm, bn, bk = shape
    rng = np.random.default_rng(m + k)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    b_stored, b_strides = (np.ascontiguousarray(b.T), (1, k)) if b_k_major else (b, (n, 1))
    out = np.full((m, n), 77, np.int32)
    warps = 8 if bm == 128 and bn == 128 else 4
    compiled = run(
        tutorial_matmul,
        (triton.cdiv(m, bm), triton.cdiv(n, bn)),
        a, b_stored, out, m, n, k, k, 1, *b_strides, n, 1,
        num_warps=warps, num_stages=stages, OUT=tl.int32, LOOP_STAGES=0, BM=bm, BN=bn, BK=bk,
    )  # fmt: skip
    exact = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    np.testing.assert_array_equal(out, exact)
    if run.backend == "interpreter":
        return
    assert "k = 32>, typeA = #nvvm.wgmma_type<s8>" in compiled.asm["gpu"]
    if b_k_major and stages > 1:
        assert "ttg.async_copy_global_to_local" in compiled.asm["ttg"]
