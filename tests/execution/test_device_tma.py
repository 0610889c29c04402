"""TMA copies through tensor maps the kernel writes: a 2-d ``tl.make_tensor_descriptor`` made at
the kernel's top level, whose blocks feed a pipelined K loop's dots, is a ``tt.make_tensor_map``
that thread 0 of each program writes into the launch's global scratch
(``metadata["global_scratch"]`` bytes a program) before its copies read it, as Triton does.
Every backend gives the interpreter's answer; the kernel uses TMA where the launch's
specialization proves the base and the outer stride 16-byte aligned, ``cp.async`` copies
otherwise."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import MyTritonError

pytestmark = pytest.mark.execution

SLOT = 256  # bytes of scratch a map (tt_tensor_map.SCRATCH_SLOT_BYTES)


@triton.jit
def device_descriptor_matmul(
    a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """Tutorial 09's matmul with descriptors made in the kernel: c = a @ b."""
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([tl.program_id(0) * BM, k * BK])
        b = b_desc.load([k * BK, tl.program_id(1) * BN])
        acc = tl.dot(a, b, acc)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=mask)


@triton.jit
def batched_matmul(
    a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):
    """``c[z] = a[z] @ b``: each program's A descriptor starts at its own batch."""
    z = tl.program_id(2)
    a_desc = tl.make_tensor_descriptor(a_ptr + z * M * K, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([tl.program_id(0) * BM, k * BK])
        b = b_desc.load([k * BK, tl.program_id(1) * BN])
        acc = tl.dot(a, b, acc)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + z * M * N + rm[:, None] * N + rn[None, :], acc, mask=mask)


def _copied_by_tma(compiled: Any) -> bool:
    return "ttg.async_tma_copy_global_to_local" in compiled.asm["ttg"]


def _matmul(run: Any, a: np.ndarray, b: np.ndarray, shape: tuple[int, ...]) -> tuple[Any, Any]:
    m, n, k, bm, bn, bk, num_warps = shape
    c = np.full((m, n), 7, np.float32)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    compiled = run(
        device_descriptor_matmul, grid, a, b, c, m, n, k, BM=bm, BN=bn, BK=bk, num_warps=num_warps
    )
    return c, compiled


# (M, N, K, BM, BN, BK, num_warps): whole tiles; masked edges in M, N and K (A's last tile
# crosses the tensor's edge: 8-row boxes, the others the span map); 64-byte swizzled rows;
# 8 warps (A's rows rotated over 16 groups); B four atoms wide
SHAPES = [
    (64, 64, 192, 64, 64, 64, 4),
    (100, 96, 208, 64, 64, 64, 4),
    (64, 128, 96, 64, 64, 32, 4),
    (200, 64, 128, 128, 64, 64, 8),
    (64, 256, 128, 64, 256, 64, 4),
]


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_device_descriptor_matmul(run: Any, shape: tuple[int, ...], dtype: Any) -> None:
    m, n, k = shape[:3]
    rng = np.random.default_rng(m + n + k)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((k, n)).astype(dtype)
    c, compiled = _matmul(run, a, b, shape)
    if run.backend != "interpreter":
        assert _copied_by_tma(compiled), "the operands were not copied by TMA"
        assert compiled.metadata["global_scratch"] == 2 * SLOT
        assert "tensor_maps" not in compiled.metadata  # no host map
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-4 * np.sqrt(k))


def test_tf32_device_descriptor_matmul(run: Any) -> None:
    """f32 blocks (tf32 MMAs): 32 elements a swizzled row, A's spans through the span map."""
    shape = (200, 64, 96, 128, 64, 32, 8)
    m, n, k = shape[:3]
    rng = np.random.default_rng(5)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c, compiled = _matmul(run, a, b, shape)
    if run.backend != "interpreter":
        assert _copied_by_tma(compiled)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(a).astype(np.float64) @ np.abs(b).astype(np.float64)
    assert np.all(np.abs(c - ref) <= 2.0**-9 * scale + 1e-5)


def test_unaligned_stride_uses_cp_async(run: Any) -> None:
    """K = 100 f16 elements (200-byte rows, not a multiple of 16): A's map cannot be made, so
    A's blocks stay ``cp.async`` copies; B's (64-element rows) are TMA copies."""
    shape = (64, 64, 100, 64, 64, 64, 4)
    rng = np.random.default_rng(9)
    a = rng.standard_normal((64, 100)).astype(np.float16)
    b = rng.standard_normal((100, 64)).astype(np.float16)
    c, compiled = _matmul(run, a, b, shape)
    if run.backend != "interpreter":
        assert compiled.metadata["global_scratch"] == SLOT  # B's only
        assert _copied_by_tma(compiled)
        assert "ttg.async_copy_global_to_local" in compiled.asm["ttg"]
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-3)


def test_each_program_writes_its_own_map(run: Any) -> None:
    """Programs of different batches read A through different maps (their own slots)."""
    z, m, n, k = 3, 64, 64, 128
    rng = np.random.default_rng(11)
    a = rng.standard_normal((z, m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((z, m, n), np.float32)
    compiled = run(batched_matmul, (1, 1, z), a, b, c, m, n, k, BM=64, BN=64, BK=64)
    if run.backend != "interpreter":
        assert _copied_by_tma(compiled)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-3)


def test_launches_get_fresh_maps(run: Any) -> None:
    """Two launches over different tensors: each writes and reads its own maps."""
    m, n, k = 64, 64, 128
    outs = []
    for seed in (1, 2):
        rng = np.random.default_rng(seed)
        a = rng.standard_normal((m, k)).astype(np.float16)
        b = rng.standard_normal((k, n)).astype(np.float16)
        c, _ = _matmul(run, a, b, (m, n, k, 64, 64, 64, 4))
        ref = a.astype(np.float64) @ b.astype(np.float64)
        np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-3)
        outs.append(c)
    assert not np.array_equal(outs[0], outs[1])


@triton.jit
def maybe_empty_matmul(a_ptr, b_ptr, c_ptr, M, K, TILES, BM: tl.constexpr, BK: tl.constexpr):
    """``TILES`` row tiles of ``c = a @ b`` (b is BK x BK): a persistent-style loop that may
    run no tile at all."""
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, BK], [BK, 1], [BK, BK])
    for t in range(0, TILES):
        acc = tl.zeros((BM, BK), tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([t * BM, k * BK]), b_desc.load([k * BK, 0]), acc)
        rm = t * BM + tl.arange(0, BM)
        rn = tl.arange(0, BK)
        tl.store(c_ptr + rm[:, None] * BK + rn[None, :], acc, mask=rm[:, None] < M)


def test_empty_tensor_without_loads_runs(run: Any) -> None:
    """A map of an empty tensor (M = 0) is written but never read: the kernel runs (and
    stores nothing)."""
    a = np.zeros((64, 64), np.float16)
    b = np.ones((64, 64), np.float16)
    c = np.full((1, 64), 7, np.float32)
    run(maybe_empty_matmul, (1,), a, b, c, 0, 64, 0, BM=64, BK=64)
    assert np.all(c == 7)


@pytest.mark.parametrize("run", [("gpusim", "numpy")], indirect=True, ids=["gpusim-numpy"])
def test_copy_through_map_of_empty_tensor_stops(run: Any) -> None:
    """A copy through the map of a tensor with no rows stops the kernel (a trap, at the load):
    the loads it replaces would be masked off, but a copy would read wrong memory. gpusim
    only: on a GPU the trap ends the process's CUDA context."""
    a = np.zeros((64, 64), np.float16)
    b = np.ones((64, 64), np.float16)
    c = np.full((64, 64), 7, np.float32)
    with pytest.raises(MyTritonError, match=r"the kernel trapped") as e:
        run(maybe_empty_matmul, (1,), a, b, c, 0, 64, 1, BM=64, BK=64)
    assert "a_desc.load" in str(e.value)


@pytest.mark.parametrize(
    "run", [("cuda", "torch"), ("mlir", "torch")], indirect=True, ids=["cuda-torch", "mlir-torch"]
)
def test_scratch_comes_from_the_allocator(run: Any) -> None:
    """With ``triton.set_allocator`` set (Triton requires one for such kernels), torch launches
    take their scratch from it: one call a launch, the grid's programs times the kernel's
    bytes a program."""
    import torch

    from mytriton.runtime import _allocation

    calls: list[tuple[int, int]] = []

    def alloc(size: int, alignment: int, stream: Any) -> Any:
        calls.append((size, alignment))
        return torch.empty(size, device="cuda", dtype=torch.int8)

    m, n, k = 128, 128, 128
    rng = np.random.default_rng(13)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    triton.set_allocator(alloc)
    try:
        c, compiled = _matmul(run, a, b, (m, n, k, 64, 64, 64, 4))
    finally:
        triton.set_allocator(_allocation.NullAllocator())
    assert calls and calls[-1] == (4 * compiled.metadata["global_scratch"], 128)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), atol=1e-3)
