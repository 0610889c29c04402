// RUN: mytriton-opt %s --split-input-file | mytriton-opt --split-input-file | filecheck %s
// RUN: mytriton-opt %s --split-input-file --print-op-generic | mytriton-opt --split-input-file | filecheck %s
// RUN: mytriton-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// (tests/dialects/test_upstream_tma.py checks that mlir-opt-22 parses and lowers what we print)

// upstream's custom forms: a TMA tile load completing on an mbarrier
llvm.func @tile_load(%map: !llvm.ptr<1>, %bar: !llvm.ptr<3>, %dst: !llvm.ptr<3>, %c0: i32, %c1: i32, %c2: i32, %c3: i32, %c4: i32, %phase: i32) {
  %n = llvm.mlir.constant(1 : i32) : i32
  nvvm.mbarrier.init %bar, %n : !llvm.ptr<3>, i32
  nvvm.fence.mbarrier.init
  %tx = arith.constant 8192 : i32
  nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
  %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
  %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0, %c1] : !llvm.ptr<7>, !llvm.ptr
  nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0, %c1, %c2, %c3, %c4] : !llvm.ptr<7>, !llvm.ptr
  nvvm.mbarrier.try_wait.parity %bar, %phase, %tx : !llvm.ptr<3>, i32, i32
  llvm.return
}
// CHECK-LABEL: llvm.func @tile_load(
// CHECK:         nvvm.mbarrier.init %bar, %n : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:    %tx = arith.constant 8192 : i32
// CHECK-NEXT:    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
// CHECK-NEXT:    %d7 = llvm.addrspacecast %dst : !llvm.ptr<3> to !llvm.ptr<7>
// CHECK-NEXT:    %g = llvm.addrspacecast %map : !llvm.ptr<1> to !llvm.ptr
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0, %c1] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0, %c1, %c2, %c3, %c4] : !llvm.ptr<7>, !llvm.ptr
// CHECK-NEXT:    nvvm.mbarrier.try_wait.parity %bar, %phase, %tx : !llvm.ptr<3>, i32, i32

// GENERIC-LABEL: "llvm.func"() <{{{.*}}sym_name = "tile_load"
// GENERIC:       "nvvm.mbarrier.init"(%bar, %n) : (!llvm.ptr<3>, i32) -> ()
// GENERIC-NEXT:  "nvvm.fence.mbarrier.init"() : () -> ()
// GENERIC:       "nvvm.mbarrier.arrive.expect_tx"(%bar, %tx) : (!llvm.ptr<3>, i32) -> ()
// GENERIC-NEXT:  %d7 = "llvm.addrspacecast"(%dst) : (!llvm.ptr<3>) -> !llvm.ptr<7>
// GENERIC-NEXT:  %g = "llvm.addrspacecast"(%map) : (!llvm.ptr<1>) -> !llvm.ptr
// GENERIC-NEXT:  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%d7, %g, %c0, %bar) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, !llvm.ptr<3>) -> ()
// GENERIC-NEXT:  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%d7, %g, %c0, %c1, %bar) <{operandSegmentSizes = array<i32: 1, 1, 2, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> ()
// GENERIC:       "nvvm.mbarrier.try_wait.parity"(%bar, %phase, %tx) : (!llvm.ptr<3>, i32, i32) -> ()

// -----

// the generic form mlir-opt-22 prints (the default-valued properties spelled out)
llvm.func @upstream_generic(%g: !llvm.ptr, %bar: !llvm.ptr<3>, %d7: !llvm.ptr<7>, %c0: i32, %c1: i32) {
  %tx = "llvm.mlir.constant"() <{value = 8192 : i32}> : () -> i32
  "nvvm.mbarrier.arrive.expect_tx"(%bar, %tx) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32) -> ()
  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%d7, %g, %c0, %c1, %bar) <{isCTAOnly = false, mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = array<i32: 1, 1, 2, 1, 0, 0, 0, 0>}> : (!llvm.ptr<7>, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> ()
  llvm.return
}
// CHECK-LABEL: llvm.func @upstream_generic(
// CHECK:         nvvm.mbarrier.arrive.expect_tx %bar, %tx {relaxed = false, scope = #nvvm.mem_scope<cta>} : !llvm.ptr<3>, i32
// CHECK-NEXT:    nvvm.cp.async.bulk.tensor.shared.cluster.global %d7, %g, %bar, box[%c0, %c1] {isCTAOnly = false, mode = #nvvm.tma_load_mode<tile>} : !llvm.ptr<7>, !llvm.ptr

// GENERIC-LABEL: "llvm.func"() <{{{.*}}sym_name = "upstream_generic"
// GENERIC:       "nvvm.mbarrier.arrive.expect_tx"(%bar, %tx) <{relaxed = false, scope = #nvvm.mem_scope<cta>}> : (!llvm.ptr<3>, i32) -> ()
// GENERIC-NEXT:  "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%d7, %g, %c0, %c1, %bar) <{{{.*}}isCTAOnly = false{{.*}}mode = #nvvm.tma_load_mode<tile>{{.*}}}> : (!llvm.ptr<7>, !llvm.ptr, i32, i32, !llvm.ptr<3>) -> ()
