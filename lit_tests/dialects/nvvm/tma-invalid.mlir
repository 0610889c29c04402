// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

llvm.func @rank_six(%g: !llvm.ptr, %bar: !llvm.ptr<3>, %d7: !llvm.ptr<7>, %c: i32) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c, %c, %c, %c, %c, %c] : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.shared.cluster.global: a box has 1 to 5 coordinates, not 6

// -----

llvm.func @global_map(%g: !llvm.ptr<1>, %bar: !llvm.ptr<3>, %d7: !llvm.ptr<7>, %c: i32) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c] : !llvm.ptr<7>, !llvm.ptr<1>
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.shared.cluster.global: the tensor map must be a generic !llvm.ptr, not !llvm.ptr<1>

// -----

llvm.func @shared_cta_destination(%g: !llvm.ptr, %bar: !llvm.ptr<3>, %c: i32) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %bar, %g, %bar, box[%c] : !llvm.ptr<3>, !llvm.ptr
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.shared.cluster.global: the destination must be an !llvm.ptr<7> (shared::cluster), not !llvm.ptr<3>

// -----

llvm.func @im2col(%g: !llvm.ptr, %bar: !llvm.ptr<3>, %d7: !llvm.ptr<7>, %c: i32) {
  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%d7, %g, %c, %c, %c, %bar) <{mode = #nvvm.tma_load_mode<im2col>, operandSegmentSizes = array<i32: 1, 1, 3, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, i32, i32, !llvm.ptr<3>) -> ()
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.shared.cluster.global: only the tile mode is supported, not im2col

// -----

llvm.func @multicast(%g: !llvm.ptr, %bar: !llvm.ptr<3>, %d7: !llvm.ptr<7>, %c: i32, %mask: i16) {
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c] multicast_mask = %mask : !llvm.ptr<7>, !llvm.ptr
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.shared.cluster.global: a multicast mask is not supported (tile loads only)

// -----

llvm.func @generic_barrier(%bar: !llvm.ptr, %n: i32) {
  nvvm.mbarrier.init %bar, %n : !llvm.ptr, i32
  llvm.return
}
// CHECK: Operation does not verify: nvvm.mbarrier.init: the mbarrier address must be an !llvm.ptr<3>, not !llvm.ptr

// -----

llvm.func @predicated(%bar: !llvm.ptr<3>, %n: i32, %p: i1) {
  nvvm.mbarrier.arrive.expect_tx %bar, %n, predicate = %p : !llvm.ptr<3>, i32, i1
  llvm.return
}
// CHECK: Operation does not verify: nvvm.mbarrier.arrive.expect_tx: predicate operands are not supported

// -----

llvm.func @cluster_scope(%bar: !llvm.ptr<3>, %n: i32) {
  nvvm.mbarrier.arrive.expect_tx %bar, %n {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<3>, i32
  llvm.return
}
// CHECK: Operation does not verify: nvvm.mbarrier.arrive.expect_tx: only scope = #nvvm.mem_scope<cta> is supported, not cluster

// -----

llvm.func @ticks_not_constant(%bar: !llvm.ptr<3>, %phase: i32, %ticks: i32) {
  nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks : !llvm.ptr<3>, i32, i32
  llvm.return
}
// CHECK: Operation does not verify: nvvm.mbarrier.try_wait.parity: ticks must come from an arith.constant or llvm.mlir.constant (it is an immediate of the PTX instruction)
