"""What the simulator refuses, the way a GPU would fault, race or hang, and what it lets pass:
masked-off threads, uniform branches around barriers, per-program loop trip counts."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError, run_lowered
from tests.gpusim.util import gpu_module, nans, simulate

pytestmark = pytest.mark.execution

TID = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c16 = arith.constant 16 : i32
      %c31 = arith.constant 31 : i32"""
SMEM = """"memref.global"() <{sym_name = "smem_0", type = memref<32xi32, 3 : i64>,
      initial_value, sym_visibility = "private"}> : () -> ()"""
STORE_OUT = """
      %xo = llvm.getelementptr %po[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %r, %xo : i32, !llvm.ptr<1>"""


def run_i32(
    body: str, threads: int = 32, grid: tuple[int, int, int] = (1, 1, 1), smem: bool = False
) -> np.ndarray:
    module = gpu_module(
        "%po: !llvm.ptr<1>", "i32", TID + body, threads=threads, globals_=SMEM if smem else ""
    )
    out = np.full(threads * grid[0], -99, np.int32)
    run_lowered(module, grid, [out])
    return out


# ---- masks ----


def test_masked_off_threads_do_not_touch_memory() -> None:
    body = (
        """
      %far = arith.constant 1000 : i32
      %lt = arith.cmpi slt, %ti, %c16 : i32
      %r = scf.if %lt -> (i32) {
        scf.yield %ti : i32
      } else {
        %bad = llvm.getelementptr %po[%far] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
        %v = llvm.load %bad : !llvm.ptr<1> -> i32
        scf.yield %v : i32
      }"""
        + STORE_OUT
    )
    with pytest.raises(SimulationError, match=r"out-of-bounds load of `po`.*thread 16"):
        run_i32(body)
    ok = body.replace("slt, %ti, %c16", "sge, %ti, %c0")  # every thread takes the then branch
    assert list(run_i32(ok)) == list(range(32))


def test_nested_masks_compose() -> None:
    body = (
        """
      %lt = arith.cmpi slt, %ti, %c16 : i32
      %odd = arith.andi %ti, %c1 : i32
      %even = arith.cmpi eq, %odd, %c0 : i32
      %r = scf.if %lt -> (i32) {
        %in = scf.if %even -> (i32) {
          %a = arith.constant 1 : i32
          scf.yield %a : i32
        } else {
          %b = arith.constant 2 : i32
          scf.yield %b : i32
        }
        scf.yield %in : i32
      } else {
        %c = arith.constant 3 : i32
        scf.yield %c : i32
      }"""
        + STORE_OUT
    )
    assert list(run_i32(body)) == [1, 2] * 8 + [3] * 16


@triton.jit
def unmasked_load_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs))


def test_out_of_bounds_names_source_line_program_and_thread() -> None:
    x, out = np.zeros(100, np.float32), nans(128)
    with pytest.raises(SimulationError) as info:
        simulate(unmasked_load_kernel, (2,), x, out, BLOCK=64)
    err = info.value
    assert err.program == (1, 0, 0)
    assert err.loc is not None and err.loc.file == __file__
    assert "tl.load(x + offs)" in str(err)
    assert "out-of-bounds load of `x`" in str(err)
    assert "element 100 of float32" in str(err) and err.thread is not None


# ---- block-wide rules ----


def test_divergent_barrier_is_an_error() -> None:
    body = (
        """
      %lt = arith.cmpi slt, %ti, %c16 : i32
      scf.if %lt {
        "gpu.barrier"() : () -> ()
      }
      %r = arith.addi %ti, %c0 : i32"""
        + STORE_OUT
    )
    with pytest.raises(SimulationError, match=r"gpu\.barrier is reached by 16 of the 32 threads"):
        run_i32(body)


def test_barrier_under_a_program_uniform_branch_is_fine() -> None:
    body = """
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %bi = arith.index_cast %b : index to i32
      %first = arith.cmpi eq, %bi, %c0 : i32
      scf.if %first {
        "gpu.barrier"() : () -> ()
      }
      %r = arith.addi %ti, %bi : i32
      %n = arith.constant 32 : i32
      %base = arith.muli %bi, %n : i32
      %at = arith.addi %base, %ti : i32
      %xo = llvm.getelementptr %po[%at] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %r, %xo : i32, !llvm.ptr<1>"""
    out = run_i32(body, grid=(3, 1, 1))
    assert list(out) == [t + p for p in range(3) for t in range(32)]


def test_loop_bounds_must_be_uniform_in_a_program() -> None:
    body = (
        """
      %r = scf.for %i = %c0 to %ti step %c1 iter_args(%acc = %c0) -> (i32) : i32 {
        %n = arith.addi %acc, %c1 : i32
        scf.yield %n : i32
      }"""
        + STORE_OUT
    )
    with pytest.raises(SimulationError, match="upper bound differs between threads"):
        run_i32(body)


def test_loop_trip_counts_may_differ_between_programs() -> None:
    body = """
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %bi = arith.index_cast %b : index to i32
      %r = scf.for %i = %c0 to %bi step %c1 iter_args(%acc = %ti) -> (i32) : i32 {
        %n = arith.addi %acc, %c16 : i32
        scf.yield %n : i32
      }
      %n32 = arith.constant 32 : i32
      %base = arith.muli %bi, %n32 : i32
      %at = arith.addi %base, %ti : i32
      %xo = llvm.getelementptr %po[%at] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %r, %xo : i32, !llvm.ptr<1>"""
    out = run_i32(body, grid=(4, 1, 1))
    assert list(out) == [t + 16 * p for p in range(4) for t in range(32)]


def test_shuffle_needs_whole_warps() -> None:
    body = (
        """
      %w = arith.constant 32 : i32
      %lt = arith.cmpi slt, %ti, %c16 : i32
      %r = scf.if %lt -> (i32) {
        %s, %ok = "gpu.shuffle"(%ti, %c1, %w) <{mode = #gpu<shuffle_mode xor>}>
          : (i32, i32, i32) -> (i32, i1)
        scf.yield %s : i32
      } else {
        scf.yield %ti : i32
      }"""
        + STORE_OUT
    )
    with pytest.raises(SimulationError, match="executed by only 16 lanes"):
        run_i32(body)


# ---- shared memory ----

SMEM_STORE = """
      %s = memref.get_global @smem_0 : memref<32xi32, 3 : i64>
      %mine = arith.index_cast %ti : i32 to index
      %nb = arith.addi %ti, %c1 : i32
      %nbm = arith.andi %nb, %c31 : i32
      %next = arith.index_cast %nbm : i32 to index
      memref.store %ti, %s[%mine] : memref<32xi32, 3 : i64>"""
SMEM_LOAD = """
      %r = memref.load %s[%next] : memref<32xi32, 3 : i64>"""
BARRIER = """
      "gpu.barrier"() : () -> ()"""


def test_shared_memory_exchange_through_a_barrier() -> None:
    out = run_i32(SMEM_STORE + BARRIER + SMEM_LOAD + STORE_OUT, smem=True)
    assert list(out) == [(t + 1) % 32 for t in range(32)]


def test_read_after_write_race_without_barrier() -> None:
    with pytest.raises(SimulationError, match=r"data race: reads smem_0\[1\] written by thread 1"):
        run_i32(SMEM_STORE + SMEM_LOAD + STORE_OUT, smem=True)


def test_write_after_read_race_without_barrier() -> None:
    rewrite = """
      %v = arith.addi %ti, %c16 : i32
      memref.store %v, %s[%mine] : memref<32xi32, 3 : i64>"""
    with pytest.raises(SimulationError, match=r"data race: overwrites smem_0"):
        run_i32(SMEM_STORE + BARRIER + SMEM_LOAD + rewrite + STORE_OUT, smem=True)
    # with the second barrier (what reductions emit before reusing a buffer) it is fine
    out = run_i32(SMEM_STORE + BARRIER + SMEM_LOAD + BARRIER + rewrite + STORE_OUT, smem=True)
    assert list(out) == [(t + 1) % 32 for t in range(32)]


def test_uninitialised_shared_read() -> None:
    body = (
        """
      %s = memref.get_global @smem_0 : memref<32xi32, 3 : i64>
      %mine = arith.index_cast %ti : i32 to index
      %r = memref.load %s[%mine] : memref<32xi32, 3 : i64>"""
        + STORE_OUT
    )
    with pytest.raises(SimulationError, match="no thread of the program has written"):
        run_i32(body, smem=True)


def test_shared_memory_is_private_to_each_program() -> None:
    body = (
        """
      %s = memref.get_global @smem_0 : memref<32xi32, 3 : i64>
      %b = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %bi = arith.index_cast %b : index to i32
      %first = arith.cmpi eq, %bi, %c0 : i32
      %mine = arith.index_cast %ti : i32 to index
      scf.if %first {
        memref.store %ti, %s[%mine] : memref<32xi32, 3 : i64>
      }
      "gpu.barrier"() : () -> ()
      %r = memref.load %s[%mine] : memref<32xi32, 3 : i64>"""
        + STORE_OUT
    )
    with pytest.raises(
        SimulationError, match=r"no thread of the program has written.*program \(1, 0, 0\)"
    ):
        run_i32(body, grid=(2, 1, 1), smem=True)


def test_replicated_identical_stores_are_allowed_conflicting_ones_are_not() -> None:
    same = """
      %zero = arith.constant 0 : i32
      %xo = llvm.getelementptr %po[%zero] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %c16, %xo : i32, !llvm.ptr<1>"""
    assert run_i32(same)[0] == 16
    with pytest.raises(SimulationError, match="store different values"):
        run_i32(same.replace("llvm.store %c16", "llvm.store %ti"))


def run_odd_even_f32_store(even_bits: int, odd_bits: int) -> np.ndarray:
    """Every thread stores to element 0 the f32 with bits ``even_bits`` (even threads) or
    ``odd_bits`` (odd threads): what replicated copies of one value may look like."""
    body = f"""
      %ev = arith.constant {even_bits} : i32
      %od = arith.constant {odd_bits} : i32
      %odd = arith.andi %ti, %c1 : i32
      %is_even = arith.cmpi eq, %odd, %c0 : i32
      %bits = arith.select %is_even, %ev, %od : i32
      %v = arith.bitcast %bits : i32 to f32
      %xo = llvm.getelementptr %po[%c0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %v, %xo : f32, !llvm.ptr<1>"""
    out = np.full(1, 7.0, np.float32)
    run_lowered(gpu_module("%po: !llvm.ptr<1>", "f32", TID + body), (1, 1, 1), [out])
    return out


NAN, NEG_NAN, NAN_PAYLOAD = 0x7FC00000, -0x400000, 0x7FC00001  # -0x400000: bits 0xFFC00000
NEG_ZERO, ONE = -0x80000000, 0x3F800000  # bits 0x80000000 and 1.0


@pytest.mark.parametrize(
    ("even", "odd"),
    [(NAN, NEG_NAN), (NAN, NAN_PAYLOAD), (0, NEG_ZERO)],
    ids=["sign", "payload", "zero"],
)
def test_replicated_stores_of_one_number_in_other_bits_are_no_race(even: int, odd: int) -> None:
    """NaNs differing in sign or payload, and +0/-0, are one number: either may land on a GPU."""
    out = run_odd_even_f32_store(even, odd)
    bits = out.view(np.int32)[0]
    assert bits in (even, odd)


def test_rewriting_a_shared_value_as_the_same_number_is_no_race() -> None:
    """-0.0 over the +0.0 other threads read since the barrier changes no number they saw."""
    body = """
      %s = memref.get_global @smem_0 : memref<1xf32, 3 : i64>
      %i0 = arith.constant 0 : index
      %pos = arith.constant 0.0 : f32
      %neg = arith.constant -0.0 : f32
      memref.store %pos, %s[%i0] : memref<1xf32, 3 : i64>
      "gpu.barrier"() : () -> ()
      %r = memref.load %s[%i0] : memref<1xf32, 3 : i64>
      memref.store %neg, %s[%i0] : memref<1xf32, 3 : i64>
      %xo = llvm.getelementptr %po[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %r, %xo : f32, !llvm.ptr<1>"""
    smem = SMEM.replace("memref<32xi32", "memref<1xf32")
    module = gpu_module("%po: !llvm.ptr<1>", "f32", TID + body, globals_=smem)
    out = nans(32)
    run_lowered(module, (1, 1, 1), [out])
    assert (out == 0.0).all()
    changed = body.replace("-0.0 : f32", "1.0 : f32")
    with pytest.raises(SimulationError, match=r"data race: overwrites smem_0\[0\]"):
        run_lowered(
            gpu_module("%po: !llvm.ptr<1>", "f32", TID + changed, globals_=smem), (1, 1, 1), [out]
        )


@pytest.mark.parametrize(("even", "odd"), [(0, ONE), (NAN, ONE), (NEG_ZERO, NAN)])
def test_replicated_stores_of_different_floats_race(even: int, odd: int) -> None:
    with pytest.raises(SimulationError, match="store different values"):
        run_odd_even_f32_store(even, odd)


# ---- the ABI ----


@triton.jit
def bool_param_kernel(out, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.where(flag, 1.0, 2.0) + tl.zeros((BLOCK,), tl.float32))


@pytest.mark.parametrize("flag", [True, False])
def test_bool_parameters_travel_as_i32(flag: bool) -> None:
    out = nans(32)
    simulate(bool_param_kernel, (1,), out, flag, BLOCK=32)
    assert (out == (1.0 if flag else 2.0)).all()


def test_pointers_into_different_arrays_per_thread() -> None:
    module = gpu_module(
        "%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %po: !llvm.ptr<1>",
        "i32, i32, i32",
        TID
        + """
      %odd = arith.andi %ti, %c1 : i32
      %from_a = arith.cmpi eq, %odd, %c0 : i32
      %base = arith.select %from_a, %pa, %pb : !llvm.ptr<1>
      %src = llvm.getelementptr %base[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %r = llvm.load %src : !llvm.ptr<1> -> i32"""
        + STORE_OUT,
    )
    a, b, out = (
        np.arange(32, dtype=np.int32),
        -np.arange(32, dtype=np.int32),
        np.zeros(32, np.int32),
    )
    run_lowered(module, (1, 1, 1), [a, b, out])
    assert list(out) == [t if t % 2 == 0 else -t for t in range(32)]


@pytest.mark.parametrize("kernel", ["softmax", "matmul"])
def test_batched_and_one_program_at_a_time_agree(
    kernel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Programs batched into one NumPy pass are only a schedule: results must not change."""
    from mytriton.backends.gpusim import launch
    from tests import kernels
    from tests.gpusim.util import lower, randn

    rng = np.random.default_rng(5)
    if kernel == "softmax":
        x = randn(rng, 37, 100)
        args: list[object] = [x, nans(37, 100), 100]
        module = lower(kernels.softmax_kernel, *args, num_warps=2, BLOCK=128)
        grid = (37, 1, 1)
    else:
        a, b = randn(rng, 50, 40), randn(rng, 40, 60)
        args = [a, b, nans(50, 60), 50, 60, 40]
        module = lower(kernels.tiled_matmul_runtime_k_kernel, *args, BM=16, BN=32, BK=16)
        grid = (4, 2, 1)
    run_lowered(module, grid, args)
    batched = np.array(args[1 if kernel == "softmax" else 2], copy=True)
    assert not np.isnan(batched).any()
    monkeypatch.setattr(launch, "BATCH_LANES", 0)
    out = args[1 if kernel == "softmax" else 2]
    assert isinstance(out, np.ndarray)
    out[...] = np.nan
    run_lowered(module, grid, args)
    np.testing.assert_array_equal(out, batched)
