// RUN: mytriton-opt %s --split-input-file | mytriton-opt --split-input-file | filecheck %s
// RUN: mytriton-opt %s --split-input-file --print-op-generic | mytriton-opt --split-input-file | filecheck %s
// RUN: mytriton-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// (tests/dialects/test_tensormap_ops.py checks that mlir-opt-22 parses the fences we print;
// tests/mlir/test_inline_tensormap.py that the MLIR backend compiles them to PTX)

// a tensor map built in the kernel: ptx.tensormap.replace of every field kind (an i32, the i64
// stride, the tensor's pointer; the ordinal of a dimension's field; immediates from constants),
// then the proxy fences that publish it to the copy engine (upstream MLIR 22's custom form)
llvm.func @build(%map: !llvm.ptr<1>, %src: !llvm.ptr<1>, %d0: i32, %stride: i64) {
  %one = arith.constant 1 : i32
  %swizzle = llvm.mlir.constant(3 : i32) : i32
  "ptx.tensormap.replace"(%map, %src) <{field = "global_address"}> : (!llvm.ptr<1>, !llvm.ptr<1>) -> ()
  "ptx.tensormap.replace"(%map, %one) <{field = "rank"}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %d0) <{field = "box_dim", ordinal = 4 : i32}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %d0) <{field = "global_dim", ordinal = 0 : i32}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %stride) <{field = "global_stride", ordinal = 3 : i32}> : (!llvm.ptr<1>, i64) -> ()
  "ptx.tensormap.replace"(%map, %one) <{field = "element_stride", ordinal = 1 : i32}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %one) <{field = "elemtype"}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %one) <{field = "interleave_layout"}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %swizzle) <{field = "swizzle_mode"}> : (!llvm.ptr<1>, i32) -> ()
  "ptx.tensormap.replace"(%map, %one) <{field = "fill_mode"}> : (!llvm.ptr<1>, i32) -> ()
  nvvm.fence.proxy.release <gpu>
  %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
  %bytes = arith.constant 128 : i32
  nvvm.fence.proxy.acquire <gpu> %g, %bytes
  nvvm.fence.proxy.release <cta>
  nvvm.fence.proxy.acquire <sys> %g, %bytes
  llvm.return
}
// CHECK-LABEL: llvm.func @build(
// CHECK:         %swizzle = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %src) <{field = "global_address"}> : (!llvm.ptr<1>, !llvm.ptr<1>) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %one) <{field = "rank"}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %d0) <{field = "box_dim", ordinal = 4 : i32}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %d0) <{field = "global_dim", ordinal = 0 : i32}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %stride) <{field = "global_stride", ordinal = 3 : i32}> : (!llvm.ptr<1>, i64) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %one) <{field = "element_stride", ordinal = 1 : i32}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %one) <{field = "elemtype"}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %one) <{field = "interleave_layout"}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %swizzle) <{field = "swizzle_mode"}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    "ptx.tensormap.replace"(%map, %one) <{field = "fill_mode"}> : (!llvm.ptr<1>, i32) -> ()
// CHECK-NEXT:    nvvm.fence.proxy.release <gpu>
// CHECK-NEXT:    %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:    %bytes = arith.constant 128 : i32
// CHECK-NEXT:    nvvm.fence.proxy.acquire <gpu> %g, %bytes
// CHECK-NEXT:    nvvm.fence.proxy.release <cta>
// CHECK-NEXT:    nvvm.fence.proxy.acquire <sys> %g, %bytes
// CHECK-NEXT:    llvm.return

// GENERIC-LABEL: "llvm.func"() <{{{.*}}sym_name = "build"
// GENERIC:       "ptx.tensormap.replace"(%map, %stride) <{field = "global_stride", ordinal = 3 : i32}> : (!llvm.ptr<1>, i64) -> ()
// GENERIC:       "nvvm.fence.proxy.release"() <{scope = #nvvm.mem_scope<gpu>}> : () -> ()
// GENERIC:       "nvvm.fence.proxy.acquire"(%g, %bytes) <{scope = #nvvm.mem_scope<gpu>}> : (!llvm.ptr, i32) -> ()

// -----

// upstream's defaults spelled out (as mlir-opt-22's generic form may print them) still verify
llvm.func @explicit_proxies(%g: !llvm.ptr) {
  %bytes = llvm.mlir.constant(128 : i32) : i32
  "nvvm.fence.proxy.release"() <{fromProxy = #nvvm.proxy_kind<generic>, scope = #nvvm.mem_scope<gpu>, toProxy = #nvvm.proxy_kind<tensormap>}> : () -> ()
  "nvvm.fence.proxy.acquire"(%g, %bytes) <{fromProxy = #nvvm.proxy_kind<generic>, scope = #nvvm.mem_scope<gpu>, toProxy = #nvvm.proxy_kind<tensormap>}> : (!llvm.ptr, i32) -> ()
  llvm.return
}
// CHECK-LABEL: llvm.func @explicit_proxies(
// CHECK:         nvvm.fence.proxy.release <gpu> {fromProxy = #nvvm.proxy_kind<generic>, toProxy = #nvvm.proxy_kind<tensormap>}
// CHECK-NEXT:    nvvm.fence.proxy.acquire <gpu> %g, %bytes {fromProxy = #nvvm.proxy_kind<generic>, toProxy = #nvvm.proxy_kind<tensormap>}
