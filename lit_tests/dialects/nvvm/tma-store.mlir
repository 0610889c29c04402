// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// upstream's custom forms: a TMA tile store, its commit and its waits
llvm.func @tile_store(%map: !llvm.ptr, %src: !llvm.ptr<3>, %c0: i32, %c1: i32, %c2: i32) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0] : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, %c1] : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, %c1, %c2] {mode = #nvvm.tma_store_mode<tile>} : !llvm.ptr, !llvm.ptr<3>
  nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.wait_group 1 {read}
  nvvm.cp.async.bulk.wait_group 0
  llvm.return
}
// CHECK-LABEL: llvm.func @tile_store(
// CHECK:         nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0] : !llvm.ptr, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, %c1] : !llvm.ptr, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.global.shared.cta %map, %src, box[%c0, %c1, %c2] {mode = #nvvm.tma_store_mode<tile>} : !llvm.ptr, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.cp.async.bulk.commit.group
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK-NEXT:    nvvm.cp.async.bulk.wait_group 0
// GENERIC: "nvvm.cp.async.bulk.tensor.global.shared.cta"(%map, %src, %c0, %c1) <{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>}> : (!llvm.ptr, !llvm.ptr<3>, i32, i32) -> ()
// GENERIC: "nvvm.cp.async.bulk.commit.group"() : () -> ()
// GENERIC: "nvvm.cp.async.bulk.wait_group"() <{group = 1 : i32, read}> : () -> ()
// GENERIC: "nvvm.cp.async.bulk.wait_group"() <{group = 0 : i32}> : () -> ()
