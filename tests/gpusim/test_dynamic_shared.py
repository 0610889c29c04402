"""Kernels whose shared buffers exceed 48 KiB: views of dynamic shared memory on gpusim.

The lowering (``mytriton/passes/gpu_lowering/dynamic_shared.py``) cuts each buffer out of
``gpu.dynamic_shared_memory`` with ``memref.view`` at a constant byte offset and casts it to
address space 3. gpusim treats each view as a shared buffer of its own (fresh per program,
race-checked), at the dynamic region's start plus its offset in the program's shared window;
real kernels (CUDA-core and tensor-core dots, a dot with reductions, a ``cp.async`` pipeline)
must match NumPy, and hand-written IR checks the addresses and the errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects import gpu, memref
from xdsl.dialects.builtin import ModuleOp

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import SimulationError, run_lowered
from mytriton.dialects.nvgpu.upstream import DynamicSharedMemoryOp
from mytriton.passes.gpu_lowering.abi import dynamic_shared_bytes
from tests.gpusim.extra_kernels import dot_then_reduce_kernel
from tests.gpusim.util import lower, nans, parse
from tests.kernels import tutorial_matmul_kernel

pytestmark = pytest.mark.execution

#: what static __shared__ arrays may take at most
STATIC_SHARED_LIMIT = 48 * 1024


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(0)


@triton.jit
def batched_dot_kernel(
    a, b, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, PRECISION: tl.constexpr
):
    """Program ``p`` multiplies the ``p``-th pair of ``a`` (``M x K``) and ``b`` (``K x N``)."""
    p = tl.program_id(0)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    x = tl.load(a + p * M * K + rm[:, None] * K + rk[None, :])
    y = tl.load(b + p * K * N + rk[:, None] * N + rn[None, :])
    z = tl.dot(x, y, input_precision=PRECISION)
    tl.store(out + p * M * N + rm[:, None] * N + rn[None, :], z)


def tf32(x: np.ndarray) -> np.ndarray:
    """What tensor cores read of f32 operands: the upper 19 bits."""
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def kernel_of(module: ModuleOp) -> gpu.FuncOp:
    return next(op for op in module.walk() if isinstance(op, gpu.FuncOp))


def assert_uses_dynamic_shared_memory(module: ModuleOp, views: int = 1) -> None:
    """The lowering took the dynamic path: no static buffer, one region, ``views`` views."""
    ops = list(module.walk())
    assert not any(isinstance(op, memref.GlobalOp) for op in ops)
    assert sum(isinstance(op, DynamicSharedMemoryOp) for op in ops) == 1
    assert sum(isinstance(op, memref.ViewOp) for op in ops) == views
    assert dynamic_shared_bytes(kernel_of(module)) > STATIC_SHARED_LIMIT


def run_batched_dot(
    rng: np.random.Generator, dtype: Any, precision: str, programs: int, m: int, n: int, k: int
) -> tuple[ModuleOp, np.ndarray, np.ndarray]:
    a = rng.standard_normal((programs, m, k)).astype(dtype)
    b = rng.standard_normal((programs, k, n)).astype(dtype)
    out = nans(programs, m, n)
    module = lower(batched_dot_kernel, a, b, out, M=m, N=n, K=k, PRECISION=precision)
    args = batched_dot_kernel.runtime_arguments(a, b, out, M=m, N=n, K=k, PRECISION=precision)
    run_lowered(module, (programs, 1, 1), args)
    expected = np.einsum("pmk,pkn->pmn", a.astype(np.float64), b.astype(np.float64))
    return module, out, expected


def test_f32_dot_on_cuda_cores_past_48_kib(rng: np.random.Generator) -> None:
    """128x64 @ 64x128 in f32 ("ieee"): (128 + 4) * 64 + 64 * 128 floats = 66560 bytes, in one
    buffer; three programs, each with its own shared memory."""
    module, out, expected = run_batched_dot(rng, np.float32, "ieee", 3, 128, 128, 64)
    assert_uses_dynamic_shared_memory(module)
    assert dynamic_shared_bytes(kernel_of(module)) == 66560
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)


def test_f16_dot_on_tensor_cores_reads_views_with_wgmma(rng: np.random.Generator) -> None:
    """An f16 128x128 @ 128x128 dot (sm_90) stages its operands in two 32 KiB swizzled tiles
    and the tensor cores read them through descriptors of addresses in the dynamic region; the
    result goes through a second view on its way to the store's 16-byte layout, over the
    operands' bytes (their live ranges end with the dot: ``shared_alloc``)."""
    module, out, expected = run_batched_dot(rng, np.float16, "tf32", 2, 128, 128, 128)
    assert_uses_dynamic_shared_memory(module, views=2)
    assert dynamic_shared_bytes(kernel_of(module)) == 128 * 128 * 4  # not 65536 + 65536
    assert any(op.name == "nvvm.wgmma.mma_async" for op in module.walk())
    np.testing.assert_allclose(out, expected, rtol=1e-3, atol=1e-2)


def test_dot_with_reductions_uses_two_views(rng: np.random.Generator) -> None:
    """A tf32 dot as warpgroup MMAs (A and B in one 64 KiB swizzled staging tile) and two
    reductions (their scratch buffer)."""
    m = n = 128
    k = 64
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    out = nans(m + n)
    module = lower(dot_then_reduce_kernel, a, b, out, M=m, N=n, K=k)
    assert_uses_dynamic_shared_memory(module, views=2)
    assert any(op.name == "nvvm.wgmma.mma_async" for op in module.walk())
    run_lowered(module, (1, 1, 1), [a, b, out])
    acc = tf32(a).astype(np.float64) @ tf32(b).astype(np.float64)  # the default precision
    np.testing.assert_allclose(out[:n], acc.sum(axis=0), rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(out[n:], acc.max(axis=1), rtol=1e-4, atol=1e-3)


def test_pipelined_matmul_copies_into_views_with_cp_async(rng: np.random.Generator) -> None:
    """Triton's tutorial matmul in f16 with 128x128x32 tiles and 3 stages: 56832 bytes of
    ``cp.async`` destinations in two views, and a third for the result's conversion to the
    store's 16-byte layout."""
    size = 256
    a = rng.standard_normal((size, size)).astype(np.float16)
    b = rng.standard_normal((size, size)).astype(np.float16)
    out = nans(size, size)
    args = (a, b, out, size, size, size, size, 1, size, 1, size, 1)
    tiles = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8}
    module = lower(tutorial_matmul_kernel, *args, num_stages=3, **tiles)
    assert_uses_dynamic_shared_memory(module, views=3)
    assert any(op.name == "nvvm.cp.async.shared.global" for op in module.walk())
    run_lowered(module, (4, 1, 1), tutorial_matmul_kernel.runtime_arguments(*args, **tiles))
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(out, expected, rtol=1e-3, atol=1e-2)


def test_small_dot_keeps_static_buffers(rng: np.random.Generator) -> None:
    module, out, expected = run_batched_dot(rng, np.float32, "ieee", 2, 32, 32, 32)
    assert not any(isinstance(op, DynamicSharedMemoryOp) for op in module.walk())
    assert any(isinstance(op, memref.GlobalOp) for op in module.walk())
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)


# ---------------------------------------------------------------------------- hand-written IR

REGION = "memref<?xi8, #gpu.address_space<workgroup>>"


def view(name: str, offset: int, t: str, offset_value: str | None = None) -> str:
    """``%name`` (address space 3): a ``t`` (``256xf32``) at ``offset`` of ``%dyn``."""
    at = offset_value or f"%at_{name}"
    constant = "" if offset_value else f"%at_{name} = arith.constant {offset} : index\n      "
    return f"""
      {constant}%w_{name} = memref.view %dyn[{at}][] : {REGION} to memref<{t}, #gpu.address_space<workgroup>>
      %{name} = "memref.memory_space_cast"(%w_{name}) : (memref<{t}, #gpu.address_space<workgroup>>) -> memref<{t}, 3 : i64>"""


def module_with(body: str, dynamic_bytes: int | None = 2048, globals_: str = "") -> ModuleOp:
    """One kernel ``k(out: i64[])`` of 32 threads, with ``%dyn``, ``%t`` (thread, index) and
    ``%ti`` (i32) defined before ``body``."""
    attr = (
        "" if dynamic_bytes is None else f", mytriton.dynamic_shared_memory = {dynamic_bytes} : i32"
    )
    return parse(
        f"""
builtin.module attributes {{gpu.container_module}} {{
  "gpu.module"() <{{sym_name = "kernels"}}> ({{
    {globals_}
    "gpu.func"() <{{function_type = (!llvm.ptr<1>) -> ()}}> ({{
    ^bb0(%out: !llvm.ptr<1>):
      %dyn = gpu.dynamic_shared_memory : {REGION}
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %ti = arith.index_cast %t : index to i32
      {body}
      "gpu.return"() : () -> ()
    }}) {{sym_name = "k", gpu.kernel, known_block_size = array<i32: 32, 1, 1>,
         mytriton.pointee_types = [i64]{attr}}} : () -> ()
  }}) : () -> ()
}}"""
    )


def store_out(value: str, index: str = "%ti") -> str:
    return f"""
      %p_{value[1:]} = llvm.getelementptr %out[{index}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i64
      llvm.store {value}, %p_{value[1:]} : i64, !llvm.ptr<1>"""


def test_view_addresses_are_the_region_base_plus_their_offsets() -> None:
    """Shared addresses of views differ by their offsets; the dynamic region follows the static
    buffers, 1024-byte aligned (``SharedMemory.dynamic_base``)."""
    static = """"memref.global"() <{sym_name = "smem_9", type = memref<40xf32, 3 : i64>,
      initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()"""
    body = (
        view("smem", 0, "256xf32")
        + view("tile", 1024, "32xi64")
        + """
      %g = memref.get_global @smem_9 : memref<40xf32, 3 : i64>
      %x0 = "memref.extract_aligned_pointer_as_index"(%smem) : (memref<256xf32, 3 : i64>) -> index
      %x1 = "memref.extract_aligned_pointer_as_index"(%tile) : (memref<32xi64, 3 : i64>) -> index
      %x2 = "memref.extract_aligned_pointer_as_index"(%g) : (memref<40xf32, 3 : i64>) -> index
      %y0 = arith.index_cast %x0 : index to i64
      %y1 = arith.index_cast %x1 : index to i64
      %y2 = arith.index_cast %x2 : index to i64
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %is0 = arith.cmpi eq, %ti, %c0 : i32
      scf.if %is0 {"""
        + store_out("%y0", "%c0")
        + store_out("%y1", "%c1")
        + store_out("%y2", "%c2")
        + """
      }"""
    )
    out = np.full(3, -1, np.int64)
    run_lowered(module_with(body, globals_=static), (1, 1, 1), [out])
    region = 1024  # 160 bytes of static buffers; the region starts at a multiple of 1024
    assert list(out) == [region, region + 1024, 0]


def test_views_are_separate_buffers_fresh_per_program() -> None:
    """Each thread stores its program id and thread id into two views, then reads its
    neighbour's (after a barrier): every program sees only its own values."""
    body = (
        view("ids", 0, "32xi64")
        + view("pids", 256, "32xi64")
        + """
      %one = arith.constant 1 : index
      %n = arith.constant 32 : index
      %pid = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %t64 = arith.index_cast %t : index to i64
      %p64 = arith.index_cast %pid : index to i64
      memref.store %t64, %ids[%t] : memref<32xi64, 3 : i64>
      memref.store %p64, %pids[%t] : memref<32xi64, 3 : i64>
      "gpu.barrier"() : () -> ()
      %t1 = arith.addi %t, %one : index
      %next = arith.remsi %t1, %n : index
      %other = memref.load %ids[%next] : memref<32xi64, 3 : i64>
      %owner = memref.load %pids[%next] : memref<32xi64, 3 : i64>
      %k1000 = arith.constant 1000 : i64
      %hi = arith.muli %owner, %k1000 : i64
      %v = arith.addi %hi, %other : i64
      %n32 = arith.constant 32 : index
      %base = arith.muli %pid, %n32 : index
      %slot = arith.addi %base, %t : index
      %si = arith.index_cast %slot : index to i32"""
        + store_out("%v", "%si")
    )
    out = np.full(3 * 32, -1, np.int64)
    run_lowered(module_with(body), (3, 1, 1), [out])
    t = np.arange(32)
    expected = np.concatenate([p * 1000 + (t + 1) % 32 for p in range(3)])
    np.testing.assert_array_equal(out, expected)


def test_a_missing_barrier_is_a_race_on_the_view() -> None:
    body = (
        view("smem", 0, "32xi64")
        + """
      %one = arith.constant 1 : index
      %n = arith.constant 32 : index
      %t64 = arith.index_cast %t : index to i64
      memref.store %t64, %smem[%t] : memref<32xi64, 3 : i64>
      %t1 = arith.addi %t, %one : index
      %next = arith.remsi %t1, %n : index
      %v = memref.load %smem[%next] : memref<32xi64, 3 : i64>"""
        + store_out("%v")
    )
    with pytest.raises(SimulationError, match=r"data race: reads smem\[1\]"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


def test_reading_an_unwritten_view_element_is_an_error() -> None:
    """Dynamic shared memory is uninitialised too (and not shared between programs)."""
    body = (
        view("smem", 0, "32xi64")
        + """
      %v = memref.load %smem[%t] : memref<32xi64, 3 : i64>"""
        + store_out("%v")
    )
    with pytest.raises(SimulationError, match=r"reads smem\[0\], which no thread"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


def test_views_sharing_a_name_hint_are_told_apart_by_offset() -> None:
    body = (
        view("smem", 0, "32xi64")
        + view("smem_1", 256, "32xi64")
        + """
      %v = memref.load %smem_1[%t] : memref<32xi64, 3 : i64>"""
        + store_out("%v")
    )
    # xDSL drops a hint's `_N` suffix: both views are hinted `smem`
    with pytest.raises(SimulationError, match=r"reads smem\+256\[0\]"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


def test_an_out_of_bounds_view_access_names_the_view() -> None:
    body = (
        view("smem", 0, "32xi64")
        + """
      %big = arith.constant 40 : index
      %t64 = arith.index_cast %t : index to i64
      memref.store %t64, %smem[%big] : memref<32xi64, 3 : i64>"""
    )
    with pytest.raises(SimulationError, match=r"out-of-bounds access smem\[40\] of shape \(32,\)"):
        run_lowered(module_with(body), (1, 1, 1), [np.zeros(32, np.int64)])


@pytest.mark.parametrize(
    ("body", "dynamic_bytes", "message"),
    [
        (
            """
      %c = arith.index_cast %ti : i32 to index"""
            + view("smem", 0, "32xi64", offset_value="%c"),
            2048,
            r"constant byte offsets only",
        ),
        (
            view("smem", 1024, "256xi64"),
            2048,
            r"runs past its end: bytes 1024 to 3072, but the kernel launches with 2048",
        ),
        (view("smem", 8, "4xi64"), 2048, r"offsets must be non-negative multiples of 16"),
        (view("smem", 0, "4xi64"), None, r"has no mytriton.dynamic_shared_memory attribute"),
        (
            """
      %c0 = arith.constant 0 : index
      %b = memref.load %dyn[%c0] : memref<?xi8, #gpu.address_space<workgroup>>""",
            2048,
            r"only as the source of memref.view",
        ),
    ],
    ids=["non-constant", "past-the-end", "misaligned", "no-bytes", "load"],
)
def test_bad_views_are_errors(body: str, dynamic_bytes: int | None, message: str) -> None:
    with pytest.raises(SimulationError, match=message) as info:
        run_lowered(module_with(body, dynamic_bytes), (1, 1, 1), [np.zeros(32, np.int64)])
    assert info.value.op_name in ("memref.view", "gpu.dynamic_shared_memory", "memref.load")
