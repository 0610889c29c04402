"""A hand-written lowered kernel that builds a 2-d tensor map in global memory
(``ptx.tensormap.replace`` of every field kind, then the proxy fences of ``upstream_tensormap``),
shared by the CUDA printer and MLIR backend tests.

``tensormap_build(src: f16*, map: i64*, d0: i32, d1: i32, stride1: i64)``, 128 threads: thread
0 sets the map's fields (the box 64 x 16, 128-byte swizzle) and releases its writes to the
tensormap proxy; after a barrier every thread acquires the map's 128 bytes.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from tests.gpusim.util import gpu_module

THREADS = 128

#: (field, ordinal or None, the value's SSA name) in the order the kernel replaces them
REPLACED = (
    ("global_address", None, "%src"),
    ("rank", None, "%rank"),
    ("box_dim", 0, "%box0"),
    ("box_dim", 1, "%box1"),
    ("global_dim", 0, "%d0"),
    ("global_dim", 1, "%d1"),
    ("global_stride", 0, "%stride1"),
    ("element_stride", 0, "%one"),
    ("element_stride", 1, "%one"),
    ("elemtype", None, "%f16code"),
    ("interleave_layout", None, "%zero"),
    ("swizzle_mode", None, "%swizzle128"),
    ("fill_mode", None, "%zero"),
)


def _replace(field: str, ordinal: int | None, value: str) -> str:
    ty = {"global_address": "!llvm.ptr<1>", "global_stride": "i64"}.get(field, "i32")
    props = f'field = "{field}"' + ("" if ordinal is None else f", ordinal = {ordinal} : i32")
    return f'"ptx.tensormap.replace"(%map, {value}) <{{{props}}}> : (!llvm.ptr<1>, {ty}) -> ()'


def tensormap_module(scope: str = "gpu") -> ModuleOp:
    """The kernel of the module doc, its fences at ``scope``."""
    replaces = "\n        ".join(_replace(*r) for r in REPLACED)
    body = f"""
      %t = "gpu.thread_id"() <{{dimension = #gpu<dim x>}}> : () -> index
      %ti = arith.index_cast %t : index to i32
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %first = arith.cmpi eq, %ti, %zero : i32
      scf.if %first {{
        %rank = arith.constant 1 : i32
        %box0 = arith.constant 64 : i32
        %box1 = arith.constant 16 : i32
        %f16code = arith.constant 1 : i32
        %swizzle128 = arith.constant 3 : i32
        {replaces}
        nvvm.fence.proxy.release <{scope}>
        scf.yield
      }}
      "gpu.barrier"() : () -> ()
      %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
      %bytes = arith.constant 128 : i32
      nvvm.fence.proxy.acquire <{scope}> %g, %bytes"""
    params = "%src: !llvm.ptr<1>, %map: !llvm.ptr<1>, %d0: i32, %d1: i32, %stride1: i64"
    return gpu_module(params, "f16, i64", body, threads=THREADS)
