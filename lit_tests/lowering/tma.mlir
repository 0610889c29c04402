// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline,tt-lower-to-gpu' --print-op-generic | filecheck %s

// TMA copies lowered (gpu_lowering/tma.py): thread 0 initialises each stage's mbarrier (and
// fences the inits for the copy engine) before a barrier of every thread; per iteration it
// arms the stage's barrier with both tiles' 16384 bytes and issues the copies through the
// tensor maps (generic pointers), into shared::cluster addresses. A's rows rotate over one span
// of 8 groups (64 rows): where the span lies inside the tensor (0 <= row <= rows - 64, rows
// being A's descriptor's shape0, %am) one 5-d copy through the span map 128 bytes after A's
// map, at (col, 0, 0, 0, row); else 8 boxes of 8 rows (8-row group g at coordinates
// (col, row + 8 g), placed where the rotation puts it: group 1 at the third group, 16 rows of
// 64 elements in). B's tile is one box; every thread waits on the barrier's phase; in the loop
// the copies into the tile the previous iteration's MMAs read follow their wait (group 1) and a
// barrier of every thread (three stages, three tiles); after the loop thread 0 invalidates the
// barriers.
func.func @tma_loop(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %am: i32, %ak: i32, %as: i64, %amap: !tt.ptr<i8>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bk: i32, %bn: i32, %bs: i64, %bmap: !tt.ptr<i8>, %c: !tt.ptr<f32>, %k: i32, %row: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap tensor_map %amap[%row, %i] : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp tensor_map %bmap[%i, %c0] : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       %[[ONE:.*]] = "arith.constant"() <{value = 1 : i32}> : () -> i32
// CHECK:       %[[BYTES:.*]] = "arith.constant"() <{value = 16384 : i32}> : () -> i32
// CHECK:       %[[EIGHT:.*]] = "arith.constant"() <{value = 8 : i32}> : () -> i32
// CHECK-NEXT:  %[[GROUP1:.*]] = "arith.constant"() <{value = 1024 : i32}> : () -> i32
// CHECK-COUNT-3: "nvvm.mbarrier.init"(%{{.*}}, %[[ONE]]) : (!llvm.ptr<3>, i32) -> ()
// CHECK-NEXT:    "nvvm.fence.mbarrier.init"() : () -> ()
// CHECK:       "gpu.barrier"() : () -> ()
// CHECK:       "scf.if"(%{{.*}}) ({
// CHECK-NEXT:    "nvvm.mbarrier.arrive.expect_tx"(%{{.*}}, %[[BYTES]]) : (!llvm.ptr<3>, i32) -> ()
// CHECK:       %[[TILE:.*]] = "llvm.getelementptr"(%{{.*}}, %{{.*}}) <{{.*}}elem_type = f16{{.*}}}>
// CHECK:       "scf.if"(%{{.*}}) ({
// CHECK-NEXT:    %[[AMAP:.*]] = "llvm.addrspacecast"(%amap) : (!llvm.ptr<1>) -> !llvm.ptr
// CHECK-NEXT:    %[[AT:.*]] = "llvm.getelementptr"(%amap) <{rawConstantIndices = array<i32: 128>, elem_type = i8{{.*}}}> : (!llvm.ptr<1>) -> !llvm.ptr<1>
// CHECK-NEXT:    %[[SPANS:.*]] = "llvm.addrspacecast"(%[[AT]]) : (!llvm.ptr<1>) -> !llvm.ptr
// CHECK-NEXT:    %[[LAST:.*]] = "arith.subi"(%am, %c64)
// CHECK-NEXT:    %[[LO:.*]] = "arith.cmpi"(%row, %c0) <{predicate = 5 : i64}>
// CHECK-NEXT:    %[[HI:.*]] = "arith.cmpi"(%row, %[[LAST]]) <{predicate = 3 : i64}>
// CHECK-NEXT:    %[[INSIDE:.*]] = "arith.andi"(%[[LO]], %[[HI]])
// CHECK-NEXT:    "scf.if"(%[[INSIDE]]) ({
// CHECK-NEXT:      %[[S0:.*]] = "llvm.addrspacecast"(%[[TILE]]) : (!llvm.ptr<3>) -> !llvm.ptr<7>
// CHECK-NEXT:      "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%[[S0]], %[[SPANS]], %c0, %c0, %c0, %c0, %row, %{{.*}})
// CHECK-NEXT:      "scf.yield"
// CHECK-NEXT:    }, {
// CHECK-NEXT:      %[[D0:.*]] = "llvm.addrspacecast"(%[[TILE]]) : (!llvm.ptr<3>) -> !llvm.ptr<7>
// CHECK-NEXT:      "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%[[D0]], %[[AMAP]], %c0, %row, %{{.*}})
// CHECK-NEXT:      %[[ROW1:.*]] = "arith.addi"(%row, %[[EIGHT]])
// CHECK-NEXT:      %[[AT1:.*]] = "llvm.getelementptr"(%[[TILE]], %[[GROUP1]])
// CHECK-NEXT:      %[[D1:.*]] = "llvm.addrspacecast"(%[[AT1]]) : (!llvm.ptr<3>) -> !llvm.ptr<7>
// CHECK-NEXT:      "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%[[D1]], %[[AMAP]], %c0, %[[ROW1]], %{{.*}})
// CHECK-COUNT-6:   "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %[[AMAP]], %c0, %{{.*}}, %{{.*}})
// CHECK-NOT:       "nvvm.cp.async.bulk.tensor.shared.cluster.global"
// CHECK:       "scf.if"(%{{.*}}) ({
// CHECK-NEXT:    %[[BMAP:.*]] = "llvm.addrspacecast"(%bmap) : (!llvm.ptr<1>) -> !llvm.ptr
// CHECK-NEXT:    "llvm.addrspacecast"
// CHECK-NEXT:    "nvvm.cp.async.bulk.tensor.shared.cluster.global"(%{{.*}}, %[[BMAP]], %c0, %c0, %{{.*}})
// CHECK-NEXT:    "scf.yield"
// CHECK:       "scf.for"
// CHECK:         "nvvm.mbarrier.try_wait.parity"(%{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr<3>, i32, i32) -> ()
// CHECK-NEXT:    "nvvm.cp.async.wait.group"() <{n = 1 : i32}>
// CHECK:         "nvvm.wgmma.wait.group.sync.aligned"() <{group = 1 : i64}>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK:         "nvvm.mbarrier.arrive.expect_tx"
// CHECK-COUNT-3: "nvvm.mbarrier.inval"(%{{.*}}) : (!llvm.ptr<3>) -> ()
