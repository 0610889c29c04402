// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

llvm.func @unknown_field(%map: !llvm.ptr<1>, %v: i32) {
  "ptx.tensormap.replace"(%map, %v) <{field = "box_size", ordinal = 0 : i32}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: unknown field 'box_size' (one of global_address, rank, box_dim, global_dim, global_stride, element_stride, elemtype, interleave_layout, swizzle_mode, fill_mode)

// -----

llvm.func @missing_ordinal(%map: !llvm.ptr<1>, %v: i32) {
  "ptx.tensormap.replace"(%map, %v) <{field = "global_dim"}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: field global_dim needs an ordinal

// -----

llvm.func @extra_ordinal(%map: !llvm.ptr<1>, %v: i32) {
  "ptx.tensormap.replace"(%map, %v) <{field = "rank", ordinal = 0 : i32}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: field rank takes no ordinal

// -----

llvm.func @ordinal_out_of_range(%map: !llvm.ptr<1>, %v: i64) {
  "ptx.tensormap.replace"(%map, %v) <{field = "global_stride", ordinal = 4 : i32}> : (!llvm.ptr<1>, i64) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: the ordinal of global_stride must be 0 to 3, not 4

// -----

llvm.func @box_dim_out_of_range(%map: !llvm.ptr<1>, %v: i32) {
  "ptx.tensormap.replace"(%map, %v) <{field = "box_dim", ordinal = 5 : i32}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: the ordinal of box_dim must be 0 to 4, not 5

// -----

llvm.func @stride_is_i64(%map: !llvm.ptr<1>, %v: i32) {
  "ptx.tensormap.replace"(%map, %v) <{field = "global_stride", ordinal = 0 : i32}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: field global_stride takes a i64, not i32

// -----

llvm.func @address_is_a_pointer(%map: !llvm.ptr<1>, %v: i64) {
  "ptx.tensormap.replace"(%map, %v) <{field = "global_address"}> : (!llvm.ptr<1>, i64) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: field global_address takes a !llvm.ptr<1>, not i64

// -----

llvm.func @immediate_not_constant(%map: !llvm.ptr<1>, %v: i32) {
  "ptx.tensormap.replace"(%map, %v) <{field = "swizzle_mode"}> : (!llvm.ptr<1>, i32) -> ()
  llvm.return
}
// CHECK: Operation does not verify: ptx.tensormap.replace: field swizzle_mode must come from an arith.constant or llvm.mlir.constant (it is an immediate of the PTX instruction)

// -----

llvm.func @acquire_64_bytes(%g: !llvm.ptr) {
  %bytes = arith.constant 64 : i32
  nvvm.fence.proxy.acquire <gpu> %g, %bytes
  llvm.return
}
// CHECK: Operation does not verify: nvvm.fence.proxy.acquire: the size must be a constant 128 (a tensor map's bytes, an immediate of the PTX instruction)

// -----

llvm.func @acquire_size_not_constant(%g: !llvm.ptr, %bytes: i32) {
  nvvm.fence.proxy.acquire <gpu> %g, %bytes
  llvm.return
}
// CHECK: Operation does not verify: nvvm.fence.proxy.acquire: the size must be a constant 128

// -----

llvm.func @release_to_async(%g: !llvm.ptr) {
  nvvm.fence.proxy.release <gpu> {toProxy = #nvvm.proxy_kind<async.global>}
  llvm.return
}
// CHECK: Operation does not verify: nvvm.fence.proxy.release: only fromProxy = generic and toProxy = tensormap are supported, not generic and async.global

// -----

llvm.func @acquire_from_async(%g: !llvm.ptr) {
  %bytes = arith.constant 128 : i32
  nvvm.fence.proxy.acquire <gpu> %g, %bytes {fromProxy = #nvvm.proxy_kind<async>}
  llvm.return
}
// CHECK: Operation does not verify: nvvm.fence.proxy.acquire: only fromProxy = generic and toProxy = tensormap are supported, not async and tensormap
