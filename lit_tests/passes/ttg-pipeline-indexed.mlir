// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80},ttg-pipeline' | filecheck %s

// A K loop whose B tile is gathered through a block table loaded in the same iteration (paged
// attention's V: row n of the tile is page table[n / 8], slot n % 8). The default 3 stages give
// the loop 2 iterations of lookahead, shared by the table load and the copies, one each (as
// Triton splits num_stages - 1 over an indirect chain), and with no asynchronous dot the copies
// follow the reads of the tile they rewrite: one tile of A and of B. Before the loop the table
// row of iteration 0, the copies of iteration 0 through it, the table row of iteration 1; in
// the loop, the wait for this iteration's copies, the reads and the dot, a barrier (every
// thread has read the tile), the copies of iteration i + 1 into the same tile through the
// carried table row, then the table row of iteration i + 2, carried to the next iteration. No
// plain load of the tile, nor of the table for the current iteration, is left in the loop. The
// table rows are loaded in the slice of the tile's layout its offsets need (a small load
// through free pointers is loaded there, not converted), so nothing is converted either.
func.func @paged_v(%a: !tt.ptr<f16>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %table: !tt.ptr<i32>, %c: !tt.ptr<f32>, %k: i32, %stride: i32 {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c8 = arith.constant 8 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %r32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %page = tt.splat %c8 : i32 -> tensor<32xi32>
  %ts = tt.splat %table : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
  %st = tt.splat %stride : i32 -> tensor<32xi32>
  %re = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %re : tensor<1x64xi32> -> tensor<32x64xi32>
  %res:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>) : i32 {
    %is = tt.splat %i : i32 -> tensor<32xi32>
    %n = tt.add %is, %r32 : tensor<32xi32>
    %row = tt.div %n, %page : tensor<32xi32>
    %tp = tt.addptr %ts, %row : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
    %blk = tt.load %tp : tensor<32x!tt.ptr<i32>>
    %slot = tt.rem %n, %page : tensor<32xi32>
    %pb = tt.mul %blk, %st : tensor<32xi32>
    %off = tt.add %pb, %slot : tensor<32xi32>
    %oe = tt.expand_dims %off {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %bp1 = tt.addptr %bs, %oe : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %bpb = tt.broadcast %bp1 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x64x!tt.ptr<f16>>
    %bp = tt.addptr %bpb, %rb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c32 : i32 -> tensor<64x32xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %d, %ap2 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @paged_v
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<1x64x32xf16
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<1x32x64xf16
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %blk_ahead = tt.load %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<i32>, #ttg.slice<{dim = 1,
// CHECK-NOT:     ttg.convert_layout
// CHECK:         ttg.async_copy_global_to_local %ap0,
// CHECK:         ttg.async_copy_global_to_local %bp,
// CHECK:         ttg.async_commit_group
// CHECK-NOT:     ttg.async_copy_global_to_local
// CHECK:         %blk_ahead_1 = tt.load %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<i32>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap_ahead = %ap2, %blk_ahead_2 = %blk_ahead_1, %stage = %{{.*}})
// CHECK-NEXT:      ttg.async_wait {num = 0 : i32}
// CHECK-NOT:       tt.load
// CHECK-NOT:       ttg.async_copy_global_to_local
// CHECK:           %d = tt.dot
// CHECK-NEXT:      gpu.barrier
// CHECK-NOT:       tt.load
// CHECK:           ttg.async_copy_global_to_local %ap_ahead,
// CHECK-NOT:       tt.load
// CHECK:           ttg.async_copy_global_to_local %bp_1,
// CHECK:           ttg.async_commit_group
// CHECK:           %blk_ahead_3 = tt.load %{{.*}}, %{{.*}} : tensor<32x!tt.ptr<i32>
// CHECK-NOT:       tt.load
// CHECK:           scf.yield %d, %{{.*}}, %blk_ahead_3, %{{.*}}
// CHECK:         ttg.async_wait {num = 0 : i32}

// Two levels of indirection (the table row itself read through a loaded index): B is not
// copied ahead (a plain load in the loop, reading the table through the loaded index); A is.
func.func @two_levels(%a: !tt.ptr<f16>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %table: !tt.ptr<i32>, %rows: !tt.ptr<i32>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %r32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rs = tt.splat %rows : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %ts = tt.splat %table : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
  %re = tt.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tt.broadcast %re : tensor<1x64xi32> -> tensor<32x64xi32>
  %res:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>) : i32 {
    %is = tt.splat %i : i32 -> tensor<32xi32>
    %n = tt.add %is, %r32 : tensor<32xi32>
    %rp = tt.addptr %rs, %n : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
    %row = tt.load %rp : tensor<32x!tt.ptr<i32>>
    %tp = tt.addptr %ts, %row : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
    %blk = tt.load %tp : tensor<32x!tt.ptr<i32>>
    %oe = tt.expand_dims %blk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %bp1 = tt.addptr %bs, %oe : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
    %bpb = tt.broadcast %bp1 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x64x!tt.ptr<f16>>
    %bp = tt.addptr %bpb, %rb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c32 : i32 -> tensor<64x32xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %d, %ap2 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @two_levels
// CHECK:         ttg.async_copy_global_to_local %ap0,
// CHECK-NOT:     ttg.async_copy_global_to_local %bp
// CHECK:         scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap_ahead = %{{.*}}, %stage = %{{.*}})
// CHECK:           ttg.async_copy_global_to_local %ap_ahead,
// CHECK:           %row = tt.load
// CHECK:           %blk = tt.load
// CHECK:           %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>
// CHECK:           scf.yield

// A load that feeds both a dot (A) and the addresses of B: not copied (its users are not all
// dots), it is B's index load: loaded ahead into registers before the loop and in it, while
// the load of this iteration's A stays where it was, for the dot; B is copied ahead, after the
// dot's read of its one tile.
func.func @index_is_operand(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<32x32xf32>
  %ap0 = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
  %res:2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0) -> (tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<32x32x!tt.ptr<f16>>
    %off = tt.cast %av : tensor<32x32xf16> -> tensor<32x32xi32>
    %bp = tt.addptr %bs, %off : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %bv = tt.load %bp : tensor<32x32x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %sa = tt.splat %c32 : i32 -> tensor<32x32xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    scf.yield %d, %ap2 : tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<32x32x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @index_is_operand
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<1x32x32xf16
// CHECK:         %av_ahead = tt.load %ap0
// CHECK:         ttg.async_copy_global_to_local %bp,
// CHECK:         %av_ahead_1 = tt.load %ap2
// CHECK:         scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0, %ap_ahead = %ap2, %av_ahead_2 = %av_ahead_1, %stage = %{{.*}})
// CHECK-NEXT:      ttg.async_wait {num = 0 : i32}
// CHECK:           %av = tt.load %ap :
// CHECK:           %bv = ttg.local_load
// CHECK:           tt.dot %av, %bv, %acc
// CHECK:           gpu.barrier
// CHECK:           ttg.async_copy_global_to_local %bp_1,
// CHECK:           %av_ahead_3 = tt.load
// CHECK:           scf.yield
