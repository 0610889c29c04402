"""Vectorized global accesses on the simulator: ``vector<N x T>`` values (a trailing axis of N
per thread), the ``vector`` ops, N-element loads and stores that must be aligned, and vectors
through ``scf.if`` and ``scf.for``."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, bf16, f16, i8, i16, i32
from xdsl.ir import Attribute

from mytriton.backends.gpusim import SimulationError, run_lowered
from tests.gpu_ir_samples import (
    SAMPLE_FILE,
    vector_copy_module,
    vector_ops_module,
    vector_ops_reference,
    vector_reverse_module,
)
from tests.gpusim.util import gpu_module

pytestmark = pytest.mark.execution

THREADS = 8
TID = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %c4 = arith.constant 4 : i32
      %t4 = arith.muli %ti, %c4 : i32
      %xp = llvm.getelementptr %px[%t4] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %op = llvm.getelementptr %po[%t4] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32"""


def run_quads(body: str, x: np.ndarray | None = None) -> np.ndarray:
    """Thread t runs ``body`` with ``%xp`` = x + 4t and ``%op`` = out + 4t (f32 arrays of 4 per
    thread); returns ``out`` (NaN where nothing was stored)."""
    module = gpu_module("%px: !llvm.ptr<1>, %po: !llvm.ptr<1>", "f32, f32", TID + body, THREADS)
    if x is None:
        x = np.arange(4 * THREADS, dtype=np.float32)
    out = np.full(4 * THREADS, np.nan, np.float32)
    run_lowered(module, (1, 1, 1), [x, out])
    return out


LOAD = """
      %v = llvm.load %xp {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>"""
STORE = """
      llvm.store %r, %op {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>"""


# ---- the ops ----


def test_vector_load_and_store_move_four_consecutive_elements() -> None:
    x = np.random.default_rng(0).standard_normal(4 * THREADS).astype(np.float32)
    out = run_quads(LOAD + STORE.replace("%r", "%v"), x)
    np.testing.assert_array_equal(out, x)


def test_alignment_may_be_left_out_or_larger() -> None:
    body = """
      %v = llvm.load %xp : !llvm.ptr<1> -> vector<4xf32>
      llvm.store %v, %op {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>"""
    np.testing.assert_array_equal(run_quads(body), np.arange(4 * THREADS))
    body = """
      %c0 = arith.constant 0 : i32
      %p0 = llvm.getelementptr %px[%c0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %v = llvm.load %p0 {alignment = 64 : i64} : !llvm.ptr<1> -> vector<4xf32>
      llvm.store %v, %op : vector<4xf32>, !llvm.ptr<1>"""
    np.testing.assert_array_equal(run_quads(body), np.tile(np.arange(4), THREADS))


def test_broadcast_repeats_the_scalar() -> None:
    body = (
        """
      %s = arith.sitofp %ti : i32 to f32
      %r = vector.broadcast %s : f32 to vector<4xf32>"""
        + STORE
    )
    np.testing.assert_array_equal(run_quads(body), np.repeat(np.arange(THREADS), 4))


@pytest.mark.parametrize("k", range(4))
def test_extract_reads_one_element(k: int) -> None:
    body = (
        LOAD
        + f"""
      %e = vector.extract %v[{k}] : f32 from vector<4xf32>
      %r = vector.broadcast %e : f32 to vector<4xf32>"""
        + STORE
    )
    x = np.random.default_rng(k).standard_normal(4 * THREADS).astype(np.float32)
    np.testing.assert_array_equal(run_quads(body, x), np.repeat(x[k::4], 4))


@pytest.mark.parametrize("k", range(4))
def test_insert_replaces_one_element_of_a_copy(k: int) -> None:
    body = (
        LOAD
        + f"""
      %s = arith.constant -5.0 : f32
      %r = vector.insert %s, %v [{k}] : f32 into vector<4xf32>
      %e = vector.extract %v[{k}] : f32 from vector<4xf32>
      %x0 = llvm.getelementptr %px[%t4] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %c{k} = arith.constant {k} : i32
      %xk = llvm.getelementptr %x0[%c{k}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %e, %xk : f32, !llvm.ptr<1>"""
        + STORE
    )
    x = np.arange(4 * THREADS, dtype=np.float32)
    expected = x.copy()
    expected[k::4] = -5.0
    np.testing.assert_array_equal(run_quads(body, x), expected)
    np.testing.assert_array_equal(x, np.arange(4 * THREADS))  # the source vector is unchanged


def test_int2_vectors() -> None:
    body = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %c2 = arith.constant 2 : i32
      %t2 = arith.muli %ti, %c2 : i32
      %xp = llvm.getelementptr %px[%t2] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %op = llvm.getelementptr %po[%t2] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %v = llvm.load %xp {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xi32>
      %a = vector.extract %v[0] : i32 from vector<2xi32>
      %b = vector.extract %v[1] : i32 from vector<2xi32>
      %s = arith.addi %a, %b : i32
      %w = vector.insert %s, %v [0] : i32 into vector<2xi32>
      llvm.store %w, %op {alignment = 8 : i64} : vector<2xi32>, !llvm.ptr<1>"""
    module = gpu_module("%px: !llvm.ptr<1>, %po: !llvm.ptr<1>", "i32, i32", body, THREADS)
    x = np.array([2**31 - 1, 1, *range(2 * THREADS - 2)], np.int32)
    out = np.zeros(2 * THREADS, np.int32)
    run_lowered(module, (1, 1, 1), [x, out])
    pairs = x.reshape(-1, 2).astype(np.int64)
    expected = np.stack([pairs.sum(axis=1), pairs[:, 1]], axis=1).astype(np.int32).reshape(-1)
    np.testing.assert_array_equal(out, expected)  # i32 addition wraps


# vector<N x T> of 16- and 8-bit elements: (MLIR type, NumPy dtype name, N)
NARROW = [
    (f16, "float16", 8),
    (bf16, "bfloat16", 8),
    (bf16, "bfloat16", 4),
    (i16, "int16", 8),
    (i16, "int16", 2),
    (i8, "int8", 16),
    (i8, "int8", 4),
    (i8, "int8", 2),
]


def _dtype(name: str) -> np.dtype:
    if name == "bfloat16":
        return np.dtype(pytest.importorskip("ml_dtypes").bfloat16)
    return np.dtype(name)


@pytest.mark.parametrize(("t", "name", "n"), NARROW, ids=lambda v: str(v))
def test_narrow_vectors_reversed(t: Attribute, name: str, n: int) -> None:
    """``vector_reverse_module``: every element of a packed vector extracted and inserted."""
    dtype = _dtype(name)
    x = (np.arange(2 * 32 * n) % 101 - 50).astype(dtype)
    out = np.zeros_like(x)
    run_lowered(vector_reverse_module(n, t), (2, 1, 1), [x, out])
    np.testing.assert_array_equal(out, x.reshape(-1, n)[:, ::-1].reshape(-1))


@pytest.mark.parametrize(("t", "name", "n"), [(f16, "float16", 8), (i8, "int8", 16)], ids=str)
def test_narrow_vector_copy(t: Attribute, name: str, n: int) -> None:
    """Masked vector loads (``other`` -1) and stores of 16 bytes; ``n`` at a vector boundary."""
    x, out = copy(vector_copy_module(n, t), 40 * n, 2 * n, dtype=_dtype(name))
    np.testing.assert_array_equal(out[2 * n :], x[2 * n :])
    np.testing.assert_array_equal(out[: 2 * n], 0)


def test_misaligned_f16_vector_load_is_an_error() -> None:
    """A vector<8xf16> at element 4 of a 16-byte aligned array is only 8-byte aligned."""
    body = """
      %c4 = arith.constant 4 : i32
      %xp = llvm.getelementptr %px[%c4] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f16
      %v = llvm.load %xp {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
      llvm.store %v, %po : vector<8xf16>, !llvm.ptr<1>"""
    module = gpu_module("%px: !llvm.ptr<1>, %po: !llvm.ptr<1>", "f16, f16", body, THREADS)
    x, out = np.zeros(64, np.float16), np.zeros(64, np.float16)
    with pytest.raises(
        SimulationError, match=r"misaligned vector load of `px`: byte offset 8 is not a multiple"
    ):
        run_lowered(module, (1, 1, 1), [x, out])


# ---- control flow ----


def test_masked_vector_load_yields_other_and_skips_masked_off_addresses() -> None:
    """Threads 5..7 are masked off and address far outside ``x``: they must not read it."""
    body = (
        """
      %c5 = arith.constant 5 : i32
      %in = arith.cmpi slt, %ti, %c5 : i32
      %far = arith.constant 100000 : i32
      %bad = llvm.getelementptr %xp[%far] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %p = arith.select %in, %xp, %bad : !llvm.ptr<1>
      %r = scf.if %in -> (vector<4xf32>) {
        %v = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
        scf.yield %v : vector<4xf32>
      } else {
        %m1 = arith.constant -1.0 : f32
        %o = vector.broadcast %m1 : f32 to vector<4xf32>
        scf.yield %o : vector<4xf32>
      }"""
        + STORE
    )
    out = run_quads(body)
    np.testing.assert_array_equal(out[:20], np.arange(20))
    np.testing.assert_array_equal(out[20:], -1.0)


def test_masked_vector_store_leaves_masked_off_elements() -> None:
    body = (
        LOAD
        + """
      %odd = arith.andi %ti, %c4 : i32
      %c0 = arith.constant 0 : i32
      %keep = arith.cmpi eq, %odd, %c0 : i32
      scf.if %keep {
        llvm.store %v, %op {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
        scf.yield
      }"""
    )
    out = run_quads(body).reshape(THREADS, 4)
    for t in range(THREADS):
        if t & 4:
            assert np.isnan(out[t]).all()
        else:
            np.testing.assert_array_equal(out[t], np.arange(4 * t, 4 * t + 4))


@pytest.mark.parametrize("iters", [0, 1, 3])
def test_vectors_carried_through_a_loop(iters: int) -> None:
    """``vector_ops_module``: every vector op, a float4 carried by scf.for, int2 accesses."""
    rng = np.random.default_rng(iters)
    x = rng.standard_normal(4 * 32).astype(np.float32)
    idx = rng.integers(-(2**31), 2**31, 2 * 32).astype(np.int32)
    out, out_i = np.zeros(4 * 32, np.float32), np.zeros(2 * 32, np.int32)
    run_lowered(vector_ops_module(), (1, 1, 1), [x, idx, out, out_i, 1.5, iters])
    ref, ref_i = vector_ops_reference(x, idx, 1.5, iters)
    np.testing.assert_array_equal(out, ref)
    np.testing.assert_array_equal(out_i, ref_i)


# ---- the vectorized copy kernel ----


def copy(
    module: ModuleOp,
    n: int,
    start: int,
    size: int | None = None,
    dtype: type | np.dtype = np.float32,
) -> tuple[np.ndarray, np.ndarray]:
    """Run ``vector_copy_module`` over 3 programs of 64 threads (more than n needs)."""
    size = n + start if size is None else size
    x: np.ndarray = np.arange(size).astype(dtype) + 1
    out: np.ndarray = np.zeros(size, dtype)
    run_lowered(module, (3, 1, 1), [x, out, n, start])
    return x, out


@pytest.mark.parametrize(("n", "start"), [(400, 0), (4, 0), (0, 0), (400, 4), (768, 8)])
def test_vector_copy(n: int, start: int) -> None:
    """Only the vectors below ``n`` are touched: the masked-off ones lie past the end of ``x``
    (exactly ``n + start`` elements), and reading them would fault."""
    x, out = copy(vector_copy_module(), n, start)
    np.testing.assert_array_equal(out[start:], x[start:])
    np.testing.assert_array_equal(out[:start], 0)


def test_vector_copy_int2() -> None:
    x, out = copy(vector_copy_module(2, i32), 250, 2, dtype=np.int32)
    np.testing.assert_array_equal(out[2:], x[2:])


def test_misaligned_vector_load_is_an_error_at_its_line() -> None:
    with pytest.raises(SimulationError) as err:
        copy(vector_copy_module(), 400, 1)
    message = str(err.value)
    assert message.startswith(f"{SAMPLE_FILE}:52:1: error: misaligned vector load of `x`")
    assert "byte offset 4 is not a multiple of 16 bytes" in message
    assert "a GPU faults" in message
    assert "[llvm.load, program (0, 0, 0), thread 0]" in message
    assert err.value.loc is not None and err.value.loc.line == 52


def test_misalignment_is_relative_to_the_promised_alignment() -> None:
    """A float2 copy with ``alignment = 16``: start 2 keeps 8-byte alignment, not 16."""
    copy(vector_copy_module(2, alignment=8), 100, 2)
    with pytest.raises(SimulationError, match=r"byte offset 8 is not a multiple of 16 bytes"):
        copy(vector_copy_module(2, alignment=16), 100, 2)


def test_misaligned_vector_store_is_an_error() -> None:
    body = (
        LOAD
        + """
      %c1 = arith.constant 1 : i32
      %o1 = llvm.getelementptr %op[%c1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %v, %o1 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>"""
    )
    with pytest.raises(
        SimulationError, match=r"misaligned vector store of `po`: byte offset 4 .*thread 0\]"
    ):
        run_quads(body)


def test_a_vector_straddling_the_end_is_out_of_bounds() -> None:
    """n = 402 is no multiple of 4: the thread loading elements 400..403 of 402 faults."""
    with pytest.raises(
        SimulationError,
        match=r"out-of-bounds vector load of `x`: byte offset 1600 \(elements 400 to 403 of "
        r"float32\), but the array holds 402 such elements \[llvm\.load, program \(1, 0, 0\), "
        r"thread 36\]",
    ):
        copy(vector_copy_module(), 402, 0)


def test_vector_stores_of_one_program_must_agree() -> None:
    body = """
      %s = arith.sitofp %ti : i32 to f32
      %r = vector.broadcast %s : f32 to vector<4xf32>
      %c0 = arith.constant 0 : i32
      %o0 = llvm.getelementptr %po[%c0] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      llvm.store %r, %o0 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>"""
    with pytest.raises(
        SimulationError,
        match=r"threads 0 and 1 store different values \(0.0 and 1.0\) to element 0",
    ):
        run_quads(body)


def test_scalar_accesses_keep_the_alignment_they_promise() -> None:
    body = """
      %c1 = arith.constant 1 : i32
      %x1 = llvm.getelementptr %xp[%c1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
      %s = llvm.load %x1 {alignment = 16 : i64} : !llvm.ptr<1> -> f32
      llvm.store %s, %op : f32, !llvm.ptr<1>"""
    with pytest.raises(
        SimulationError, match=r"misaligned load of `px`: byte offset 4 is not a multiple of 16"
    ):
        run_quads(body)


# ---- what the contract leaves out ----


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "%v = llvm.load %xp {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xf32>",
            r"vector<4xf32> access needs a power-of-two alignment >= 16 .* promises 8",
        ),
        (
            "%v = llvm.load %xp {alignment = 16 : i64} : !llvm.ptr<1> -> vector<3xf32>",
            r"vector<3xf32> \(only vectors of 2, 4, 8 or 16 f32, f16, bf16, i32, i16 or i8",
        ),
        (
            "%v = llvm.load %xp {alignment = 32 : i64} : !llvm.ptr<1> -> vector<16xf16>",
            r"vector<16xf16> \(only vectors .* of at most 16 bytes\)",
        ),
        (
            "%v = llvm.load %xp {alignment = 32 : i64} : !llvm.ptr<1> -> vector<8xf32>",
            r"vector<8xf32> \(only vectors",
        ),
        (
            "%v = llvm.load %xp {alignment = 16 : i64} : !llvm.ptr<1> -> vector<1xf16>",
            r"vector<1xf16> \(only vectors",
        ),
        (
            "%v = llvm.load %xp {alignment = 8 : i64} : !llvm.ptr<1> -> vector<8xf16>",
            r"vector<8xf16> access needs a power-of-two alignment >= 16 .* promises 8",
        ),
        (
            "%v = llvm.load %xp {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xi1>",
            r"vector<4xi1>",
        ),
        (
            "%v = llvm.load %xp {alignment = 32 : i64} : !llvm.ptr<1> -> vector<4xf64>",
            r"vector<4xf64>",
        ),
        (LOAD + "\n      %w = arith.addf %v, %v : vector<4xf32>", r"arith\.addf: vector values"),
        (
            LOAD + "\n      %e = vector.extract %v[4] : f32 from vector<4xf32>",
            r"position 4 is outside vector<4xf32>",
        ),
        (
            LOAD + "\n      %w = vector.broadcast %v : vector<4xf32> to vector<4xf32>",
            r"only scalars are broadcast",
        ),
    ],
    ids=[
        "small-alignment",
        "3-lanes",
        "32-bytes-of-f16",
        "32-bytes-of-f32",
        "1-lane",
        "small-alignment-f16",
        "i1",
        "f64",
        "arith",
        "position",
        "vector-broadcast",
    ],
)
def test_vectors_outside_the_contract_are_refused(body: str, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        run_quads("\n      " + body)
