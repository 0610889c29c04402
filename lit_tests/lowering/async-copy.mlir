// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80},ttg-pipeline,tt-lower-to-gpu' --print-op-generic | filecheck %s

// The pipelined K loop's shared tiles and asynchronous copies on sm_80 (mma.sync's padded
// tiles), lowered (shared_tiles.py): the
// two stacked tiles are static buffers (3 x 64 x (32 + 8) and 3 x 32 x (64 + 8) halves); each
// thread's 8 consecutive f16 of a row are one 16-byte nvvm.cp.async.shared.global (.cg), its
// source size 16 or 0 by the mask (the K edge, the end of the loop); a group per iteration,
// the wait for this iteration's (1 pending) followed by a barrier, and the dot reading its
// tiles with ldmatrix at the stage's offset; after the loop, a wait for every group.
func.func @k_loop(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %k: i32 {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ra = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rk = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %am = tt.expand_dims %ra {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %ak = tt.expand_dims %rk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %kk = tt.splat %k : i32 -> tensor<64x1xi32>
  %arow = tt.mul %am, %kk : tensor<64x1xi32>
  %arow2 = tt.broadcast %arow : tensor<64x1xi32> -> tensor<64x32xi32>
  %ak2 = tt.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = tt.add %arow2, %ak2 : tensor<64x32xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %ap0 = tt.addptr %as, %aoff : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %bk = tt.expand_dims %rk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %bn = tt.expand_dims %ra {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c64 = arith.constant 64 : i32
  %s64 = tt.splat %c64 : i32 -> tensor<32x1xi32>
  %brow = tt.mul %bk, %s64 : tensor<32x1xi32>
  %brow2 = tt.broadcast %brow : tensor<32x1xi32> -> tensor<32x64xi32>
  %bn2 = tt.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = tt.add %brow2, %bn2 : tensor<32x64xi32>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %bp0 = tt.addptr %bs, %boff : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %res:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c32 : i32 -> tensor<64x32xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %c2048 = arith.constant 2048 : i32
    %sb = tt.splat %c2048 : i32 -> tensor<32x64xi32>
    %bp2 = tt.addptr %bp, %sb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<7680xf16, 3 : i64>
// CHECK:       "memref.global"() <{sym_name = "smem_1", type = memref<6912xf16, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[N:.*]] = "arith.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (i1, i32, i32) -> i32
// CHECK-NEXT:    "nvvm.cp.async.shared.global"(%{{.*}}, %{{.*}}, %[[N]]) <{size = 16 : i32, modifier = #nvvm<load_cache_modifier cg>}> : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
// CHECK:         "nvvm.cp.async.commit.group"() : () -> ()
// CHECK:         "scf.for"
// CHECK:           "nvvm.cp.async.wait.group"() <{n = 1 : i32}> : () -> ()
// CHECK-NEXT:      "gpu.barrier"() : () -> ()
// CHECK:           "nvvm.cp.async.shared.global"
// CHECK:           "nvvm.cp.async.commit.group"() : () -> ()
// CHECK:           "nvvm.ldmatrix"
// CHECK:           "nvvm.mma.sync"
// CHECK:         "nvvm.cp.async.wait.group"() <{n = 0 : i32}> : () -> ()
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
