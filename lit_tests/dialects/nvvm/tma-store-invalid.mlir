// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

llvm.func @rank_six(%g: !llvm.ptr, %s: !llvm.ptr<3>, %c: i32) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %s, box[%c, %c, %c, %c, %c, %c] : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.global.shared.cta: a box has 1 to 5 coordinates, not 6

// -----

llvm.func @global_map(%g: !llvm.ptr<1>, %s: !llvm.ptr<3>, %c: i32) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %s, box[%c] : !llvm.ptr<1>, !llvm.ptr<3>
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.global.shared.cta: the tensor map must be a generic !llvm.ptr, not !llvm.ptr<1>

// -----

llvm.func @cluster_source(%g: !llvm.ptr, %s: !llvm.ptr<7>, %c: i32) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %s, box[%c] : !llvm.ptr, !llvm.ptr<7>
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.global.shared.cta: the source must be an !llvm.ptr<3> (shared::cta), not !llvm.ptr<7>

// -----

llvm.func @im2col(%g: !llvm.ptr, %s: !llvm.ptr<3>, %c: i32) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %s, box[%c, %c, %c] {mode = #nvvm.tma_store_mode<im2col>} : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.global.shared.cta: only the tile mode is supported, not im2col

// -----

llvm.func @hint(%g: !llvm.ptr, %s: !llvm.ptr<3>, %c: i32, %h: i64) {
  nvvm.cp.async.bulk.tensor.global.shared.cta %g, %s, box[%c] l2_cache_hint = %h : !llvm.ptr, !llvm.ptr<3>
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.tensor.global.shared.cta: an L2 cache hint is not supported (tile stores only)

// -----

llvm.func @too_many_groups() {
  nvvm.cp.async.bulk.wait_group 64 {read}
  llvm.return
}
// CHECK: Operation does not verify: nvvm.cp.async.bulk.wait_group: the group count must lie in 0 to 63
