"""The simulator as an oracle: break correct lowered code the way a lowering bug would, and
check that the simulator notices (lockstep execution alone would hide a missing barrier)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, gpu, llvm, scf
from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.dialects.nvgpu.nvvm import CpAsyncWaitGroupOp
from mytriton.dialects.nvgpu.upstream import ShuffleOp
from mytriton.dialects.nvgpu.wgmma import WgmmaFenceAlignedOp, WgmmaWaitGroupSyncAlignedOp
from tests import kernels
from tests.gpusim.util import lower, nans, randn

pytestmark = pytest.mark.execution


def ops_of(module: ModuleOp, kind: type) -> list:
    return [op for op in module.walk() if isinstance(op, kind)]


def test_missing_barrier_before_the_cross_warp_combine_is_a_race() -> None:
    x, out = randn(np.random.default_rng(0), 3, 1000), nans(3)
    module = lower(kernels.row_sum_kernel, x, out, 1000, num_warps=4, BLOCK=1024)
    run_lowered(module, (3, 1, 1), [x, out, 1000])
    np.testing.assert_allclose(out, x.sum(axis=1), rtol=1e-5)
    for barrier in ops_of(module, gpu.BarrierOp):
        barrier.detach()
        barrier.erase()
    with pytest.raises(SimulationError, match="data race: reads smem_0"):
        run_lowered(module, (3, 1, 1), [x, nans(3), 1000])


def test_missing_barrier_after_a_dot_races_with_the_next_k_step() -> None:
    rng = np.random.default_rng(1)
    a, b, c = randn(rng, 32, 64), randn(rng, 64, 32), nans(32, 32)
    module = lower(
        kernels.tiled_matmul_runtime_k_kernel,
        a,
        b,
        c,
        32,
        32,
        64,
        num_warps=4,
        num_stages=1,  # operands staged by the dot (pipelined ones: the test below)
        BM=32,
        BN=32,
        BK=16,
    )
    # the dot's FMA loop is the scf.for followed by the barrier that guards buffer reuse
    dot_loops = [op for op in ops_of(module, scf.ForOp) if isinstance(op.next_op, gpu.BarrierOp)]
    assert dot_loops
    trailing = dot_loops[0].next_op
    trailing.detach()
    trailing.erase()
    with pytest.raises(SimulationError, match="data race: overwrites smem_"):
        run_lowered(module, (1, 1, 1), [a, b, c, 32, 32, 64])


@pytest.mark.parametrize("removed", ["wait", "barrier"])
def test_pipelined_dot_needs_its_wait_and_barrier(removed: str) -> None:
    """A K loop pipelined through shared memory (``ttg-pipeline``): without the in-loop
    ``cp.async.wait.group`` the dot reads tiles still in flight; without the barrier after it,
    one thread's copies into a tile race with another's reads of the iteration before. (f16:
    both operands are copied; a tf32 B would be staged by the dot, whose barriers would hide a
    missing one.)"""
    rng = np.random.default_rng(3)
    a, b, c = (
        randn(rng, 32, 128).astype(np.float16),
        randn(rng, 128, 32).astype(np.float16),
        nans(32, 32),
    )
    module = lower(
        kernels.tiled_matmul_runtime_k_kernel,
        a,
        b,
        c,
        32,
        32,
        128,
        num_warps=4,
        BM=32,
        BN=32,
        BK=16,
    )
    run_lowered(module, (1, 1, 1), [a, b, nans(32, 32), 32, 32, 128])  # intact: runs
    waits = [op for op in ops_of(module, CpAsyncWaitGroupOp) if op.pending > 0]
    assert waits, "the K loop was not pipelined"
    victim = waits[0] if removed == "wait" else waits[0].next_op
    assert victim is not None and (removed == "wait" or isinstance(victim, gpu.BarrierOp))
    victim.detach()
    victim.erase()
    with pytest.raises(SimulationError, match=r"in flight|data race"):
        run_lowered(module, (1, 1, 1), [a, b, c, 32, 32, 128])


def test_wrong_shuffle_offset_leaves_lanes_disagreeing() -> None:
    """A broken butterfly leaves lanes with different "totals": thread 0, the one that stores
    the scalar, stores a wrong one, and were all lanes to store it, they would disagree."""
    x, out = randn(np.random.default_rng(2), 2, 32), nans(2)
    module = lower(kernels.row_sum_kernel, x, out, 32, num_warps=1, BLOCK=32)
    first, second = ops_of(module, ShuffleOp)[:2]
    first.operands = [first.operands[0], second.operands[1], first.operands[2]]
    run_lowered(module, (2, 1, 1), [x, out, 32])
    assert not np.isclose(out, x.sum(axis=1), rtol=1e-5).any()
    owner = next(op for op in ops_of(module, scf.IfOp) if ops_of(op, llvm.StoreOp))  # type: ignore[arg-type]
    true = arith.ConstantOp.from_int_and_width(1, 1)
    block = owner.parent_block()
    assert block is not None
    block.insert_op_before(true, owner)
    owner.operands = [true.result]
    with pytest.raises(SimulationError, match=r"store different values .* to element 0 of `out`"):
        run_lowered(module, (2, 1, 1), [x, nans(2), 32])


def test_unmasked_edge_load_faults() -> None:
    x, y, out = np.ones(100, np.float32), np.ones(100, np.float32), nans(100)
    module = lower(kernels.add_kernel, x, y, out, 100, num_warps=4, BLOCK=128)
    guarded = next(op for op in ops_of(module, scf.IfOp) if ops_of(op, llvm.LoadOp))  # type: ignore[arg-type]
    true = arith.ConstantOp.from_int_and_width(1, 1)
    block = guarded.parent_block()
    assert block is not None
    block.insert_op_before(true, guarded)
    guarded.operands = [true.result]
    with pytest.raises(SimulationError, match=r"out-of-bounds load of `x`.*program \(0, 0, 0\)"):
        run_lowered(module, (1, 1, 1), [x, y, out, 100])


@pytest.mark.parametrize("removed", ["cp_async_wait", "barrier", "wgmma_wait", "wgmma_fence"])
def test_pipelined_wgmma_dot_needs_its_waits_fence_and_barrier(removed: str) -> None:
    """A K loop of warpgroup MMAs (f16, 64 x 64 x 64 tiles, sm_90), pipelined: the MMAs of an
    iteration run while the next copies are issued. Without the in-loop ``cp.async`` wait they
    read tiles in flight; without the barrier after it one thread's copies race with other
    warps' tensor-core reads; without ``wgmma.wait_group`` the next iteration reads
    accumulators still being written; without ``wgmma.fence`` the MMAs may miss their
    accumulators' last writes."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal((64, 256)).astype(np.float16)
    b = rng.standard_normal((256, 64)).astype(np.float16)
    module = lower(
        kernels.tiled_matmul_runtime_k_kernel,
        a,
        b,
        nans(64, 64),
        64,
        64,
        256,
        num_warps=4,
        BM=64,
        BN=64,
        BK=64,
    )
    c = nans(64, 64)
    run_lowered(module, (1, 1, 1), [a, b, c, 64, 64, 256])  # intact: runs, right
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, exact, rtol=1e-5, atol=1e-3)
    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    body = list(loop.body.block.ops)
    kinds = {
        "cp_async_wait": CpAsyncWaitGroupOp,
        "wgmma_wait": WgmmaWaitGroupSyncAlignedOp,
        "wgmma_fence": WgmmaFenceAlignedOp,
    }
    if removed == "barrier":
        victim = next(op for op in body if isinstance(op, gpu.BarrierOp))
    else:
        victim = next(op for op in body if isinstance(op, kinds[removed]))
    victim.detach()
    victim.erase()
    with pytest.raises(SimulationError, match=r"in flight|data race|wgmma"):
        run_lowered(module, (1, 1, 1), [a, b, nans(64, 64), 64, 64, 256])
