"""A hand-written lowered kernel around one TMA tile store (``upstream_tma_store``'s ops), shared
by the gpusim and CUDA printer tests.

``tma_store(dst: T*, map: i64*, src: T*, x0: i32, x1: i32)``, 128 threads: thread ``t`` copies
``src``'s elements ``t + 128 k`` into the 1024-byte aligned shared ``tile`` (``src`` holds the
tile as it must lie in shared memory: ``tma_samples.tma_reference`` of the box), every thread
fences the writes for the async proxy, a barrier, thread 0 stores the box at ``(x0, x1)``
(innermost coordinate first) of the tensor behind ``map`` from the tile and commits it, and
every thread waits for its groups' reads (thread 0's one group). The flags leave out a step or
add a mistake.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from tests.gpusim.util import gpu_module
from tests.tma_samples import THREADS


def tma_store_module(
    element: str = "f16",
    elements: int = 1024,
    *,
    barrier: bool = True,
    commit: bool = True,
    wait: bool = True,
    write_after: bool = False,
    read: bool = True,
) -> ModuleOp:
    """The kernel for a box of ``elements`` elements; ``write_after``: every thread writes the
    tile again after the store, before the wait; ``read``: the wait is ``{read}``."""
    per_thread = elements // THREADS
    tile_t = f"memref<{elements}x{element}, 3 : i64>"
    globals_ = f"""
    "memref.global"() <{{sym_name = "tile", type = {tile_t}, initial_value,
      sym_visibility = "private", alignment = 1024 : i64}}> : () -> ()"""
    again = f"""
      %again = memref.load %tile[%tidx] : {tile_t}
      memref.store %again, %tile[%tidx] : {tile_t}"""
    body = f"""
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : i32
      %tile = memref.get_global @tile : {tile_t}
      %lo = arith.constant 0 : index
      %hi = arith.constant {per_thread} : index
      %step = arith.constant 1 : index
      %tidx = arith.constant 0 : index
      scf.for %k = %lo to %hi step %step {{
        %ki = arith.index_cast %k : index to i32
        %threads = arith.constant {THREADS} : i32
        %base = arith.muli %ki, %threads : i32
        %i = arith.addi %base, %ti : i32
        %ii = arith.index_cast %i : i32 to index
        %p = llvm.getelementptr %src[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {element}
        %v = llvm.load %p : !llvm.ptr<1> -> {element}
        memref.store %v, %tile[%ii] : {tile_t}
        scf.yield
      }}
      nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
      {'"gpu.barrier"() : () -> ()' if barrier else ""}
      %ta = "memref.extract_aligned_pointer_as_index"(%tile) : ({tile_t}) -> index
      %ta64 = arith.index_cast %ta : index to i64
      %s3 = llvm.inttoptr %ta64 : i64 to !llvm.ptr<3>
      %first = arith.cmpi eq, %ti, %c0 : i32
      scf.if %first {{
        %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
        nvvm.cp.async.bulk.tensor.global.shared.cta %g, %s3, box[%x0, %x1] : !llvm.ptr, !llvm.ptr<3>
        {"nvvm.cp.async.bulk.commit.group" if commit else ""}
        scf.yield
      }}{again if write_after else ""}
      {"nvvm.cp.async.bulk.wait_group 0 {read}" if read else "nvvm.cp.async.bulk.wait_group 0"}
      """
    if not wait:
        body = body.replace("nvvm.cp.async.bulk.wait_group 0 {read}", "")
    params = "%dst: !llvm.ptr<1>, %map: !llvm.ptr<1>, %src: !llvm.ptr<1>, %x0: i32, %x1: i32"
    return gpu_module(
        params, f"{element}, i64, {element}", body, threads=THREADS, globals_=globals_
    )
