"""A hand-written lowered kernel around one TMA tile load (``upstream_tma``'s ops), and its NumPy
reference (the swizzle as the CUDA programming guide describes it, written out independently of
gpusim's rule), shared by the gpusim and CUDA printer tests.

``tma_tile(src: T*, map: i64*, out: T*, x0: i32, x1: i32)``, 128 threads: thread 0 initialises
the mbarrier (and fences the init), all threads pass a barrier, thread 0 announces the tile's
bytes and issues the copy of the box at ``(x0, x1)`` (innermost coordinate first) into the
1024-byte aligned shared ``tile``, every thread waits on phase 0, then copies ``tile`` as it
lies in shared memory (swizzled) to ``out``, thread ``t`` the elements ``t + 128 k``.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tests.gpusim.util import gpu_module

THREADS = 128
ELEMENT_BYTES = {"f16": 2, "f32": 4}
NUMPY = {"f16": np.float16, "f32": np.float32}


def tma_module(
    element: str = "f16",
    inner: int = 64,
    rows: int = 16,
    *,
    init: bool = True,
    expect: bool = True,
    copy: bool = True,
    wait: bool = True,
    read_before_wait: bool = False,
    tx_bytes: int | None = None,
    waits: int = 1,
) -> ModuleOp:
    """The kernel for a box of ``inner`` x ``rows`` elements; the flags leave out a step (or
    read the tile before the wait) to make the mistakes gpusim must catch; ``tx_bytes``: what
    ``expect_tx`` announces (the box's bytes by default); ``waits``: how many times the threads
    wait on the (completed) phase."""
    eb = ELEMENT_BYTES[element]
    n = inner * rows
    tx = n * eb if tx_bytes is None else tx_bytes
    per_thread = n // THREADS
    tile_t = f"memref<{n}x{element}, 3 : i64>"
    globals_ = f"""
    "memref.global"() <{{sym_name = "tile", type = {tile_t}, initial_value,
      sym_visibility = "private", alignment = 1024 : i64}}> : () -> ()
    "memref.global"() <{{sym_name = "bar", type = memref<1xi64, 3 : i64>, initial_value,
      sym_visibility = "private", alignment = 8 : i64}}> : () -> ()"""
    wait_line = """
      nvvm.mbarrier.try_wait.parity %bar, %c0, %ticks : !llvm.ptr<3>, i32, i32"""
    read = f"""
      %early = memref.load %tile[%zero_i] : {tile_t}"""
    body = f"""
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %c0 = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %zero_i = arith.constant 0 : index
      %tile = memref.get_global @tile : {tile_t}
      %barm = memref.get_global @bar : memref<1xi64, 3 : i64>
      %ta = "memref.extract_aligned_pointer_as_index"(%tile) : ({tile_t}) -> index
      %ta64 = arith.index_cast %ta : index to i64
      %dst = llvm.inttoptr %ta64 : i64 to !llvm.ptr<3>
      %ba = "memref.extract_aligned_pointer_as_index"(%barm) : (memref<1xi64, 3 : i64>) -> index
      %ba64 = arith.index_cast %ba : index to i64
      %bar = llvm.inttoptr %ba64 : i64 to !llvm.ptr<3>
      %first = arith.cmpi eq, %ti, %c0 : i32
      scf.if %first {{
        {"nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32" if init else ""}
        nvvm.fence.mbarrier.init
        scf.yield
      }}
      "gpu.barrier"() : () -> ()
      scf.if %first {{
        %tx = arith.constant {tx} : i32
        {"nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32" if expect else ""}
        %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
        %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
        {
        "nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%x0, %x1] : "
        "!llvm.ptr<7>, !llvm.ptr"
        if copy
        else ""
    }
        scf.yield
      }}{read if read_before_wait else ""}
      %ticks = arith.constant 1000000 : i32
      {wait_line * waits if wait else ""}
      %lo = arith.constant 0 : index
      %hi = arith.constant {per_thread} : index
      %step = arith.constant 1 : index
      scf.for %k = %lo to %hi step %step {{
        %ki = arith.index_cast %k : index to i32
        %threads = arith.constant {THREADS} : i32
        %base = arith.muli %ki, %threads : i32
        %i = arith.addi %base, %ti : i32
        %ii = arith.index_cast %i : i32 to index
        %v = memref.load %tile[%ii] : {tile_t}
        %p = llvm.getelementptr %out[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {element}
        llvm.store %v, %p : {element}, !llvm.ptr<1>
        scf.yield
      }}"""
    params = "%src: !llvm.ptr<1>, %map: !llvm.ptr<1>, %out: !llvm.ptr<1>, %x0: i32, %x1: i32"
    return gpu_module(
        params, f"{element}, i64, {element}", body, threads=THREADS, globals_=globals_
    )


def tma_reference(
    src: np.ndarray, x0: int, x1: int, inner: int, rows: int, swizzle: int
) -> np.ndarray:
    """The shared tile as it lies in memory (1024-byte aligned): the box at (``x0``, ``x1``)
    of the 2-d ``src`` (rows x columns; ``x0`` the column), zeros outside it, row ``r`` at
    byte ``r * inner * itemsize``, each 16-byte chunk moved by the swizzle: within every
    ``swizzle``-wide span (rows of 128 bytes as the address sees them), chunk ``c`` of 128-byte
    line ``l`` goes to chunk ``c ^ (l % (swizzle / 16))``."""
    box = np.zeros((rows, inner), src.dtype)
    for r in range(rows):
        for col in range(inner):
            y, x = x1 + r, x0 + col
            if 0 <= y < src.shape[0] and 0 <= x < src.shape[1]:
                box[r, col] = src[y, x]
    linear = box.reshape(-1).view(np.uint8)
    out = np.zeros_like(linear)
    chunks = swizzle // 16
    for address in range(linear.size):
        line, chunk, byte = address // 128, (address % 128) // 16, address % 16
        moved = chunk ^ (line % chunks) if swizzle else chunk
        out[line * 128 + moved * 16 + byte] = linear[address]
    return out.view(src.dtype)
