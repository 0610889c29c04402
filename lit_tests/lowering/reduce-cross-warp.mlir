// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=4},tt-lower-to-gpu' | filecheck %s

// Step 3 of tt.reduce: when several warps split the axis, each warp's lanes hold a partial
// result after the shuffles; each writes it to a shared-memory buffer (one slot per warp and
// result element), a barrier, then, where a thread holds one result element, each lane reads
// one warp's partial and a butterfly of shuffles combines them (a commutative combine; an
// ordered one, argmax's, reads the partials in warp order), and a second barrier lets the
// buffer be rewritten (where it holds several: the last case).

// 256 elements over 4 warps: 4 partials.
func.func @sum256(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<256x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<256xf32> -> f32 {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  tt.store %out, %s : !tt.ptr<f32>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<4xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[T:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : i32
// Registers, then 5 shuffles (the butterfly is in reduce-shuffle.mlir).
// CHECK:         arith.addf %v, %v_1 : f32
// CHECK-COUNT-5: "gpu.shuffle"
// CHECK:         %[[P:.*]] = arith.addf
// The warp's slot: warp index (thread id bits 5-6).
// CHECK-NEXT:    %[[BUF:.*]] = memref.get_global @smem_0 : memref<4xf32, 3 : i64>
// CHECK-NEXT:    %[[SH:.*]] = arith.shrui %[[T]], %[[C5]] : i32
// CHECK-NEXT:    %[[WARP:.*]] = arith.andi %[[SH]], %[[C3]] : i32
// CHECK-NEXT:    %[[SLOT:.*]] = arith.index_cast %[[WARP]] : i32 to index
// CHECK-NEXT:    memref.store %[[P]], %[[BUF]][%[[SLOT]]] : memref<4xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// A commutative combine: lane l reads warp l % 4's partial, and a butterfly over 2 lane bits
// combines the 4 (one load and 2 shuffles instead of 4 loads).
// CHECK-NEXT:    %[[LANE:.*]] = arith.andi %[[T]], %[[C3]] : i32
// CHECK-NEXT:    %[[LANEI:.*]] = arith.index_cast %[[LANE]] : i32 to index
// CHECK-NEXT:    %[[W:.*]] = memref.load %[[BUF]][%[[LANEI]]] : memref<4xf32, 3 : i64>
// CHECK-NEXT:    %[[X1:.*]], %{{.*}} = "gpu.shuffle"(%[[W]], %[[C1]], %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[W]], %[[X1]] : f32
// CHECK-NEXT:    %[[X2:.*]], %{{.*}} = "gpu.shuffle"(%[[S1]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
// CHECK-NEXT:    %s = arith.addf %[[S1]], %[[X2]] : f32
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %s, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

// 64 elements over 4 warps: warps 2 and 3 replicate warps 0 and 1, so only 2 partials (the
// warp index is masked to 1 bit, replicas write the same value to the same slot).
func.func @sum64(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  tt.store %out, %s : !tt.ptr<f32>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<2xf32, 3 : i64>, {{.*}}}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[BUF:.*]] = memref.get_global @smem_0 : memref<2xf32, 3 : i64>
// CHECK-NEXT:    %[[SH:.*]] = arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[WARP:.*]] = arith.andi %[[SH]], %[[ONE]] : i32
// CHECK:         memref.store
// CHECK-NEXT:    "gpu.barrier"
// Lane l reads partial l % 2; one shuffle combines the two.
// CHECK-NEXT:    arith.andi %{{.*}}, %[[ONE]] : i32
// CHECK-COUNT-1: memref.load %[[BUF]]
// CHECK-NOT:     memref.load
// CHECK:         "gpu.shuffle"
// CHECK:         "gpu.barrier"
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %s, %out

// -----

// Row maxima of a 2x64 block (warpsPerCTA = [2, 2]: 2 warps per row, one row per warp pair):
// slot = (warp along the row) * 2 rows + this thread's row; partials combined with Triton's
// NaN-ignoring max (arith.maxnumf).
func.func @row_max(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 1 : i32} : tensor<2x64xf32> -> tensor<2xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.maximum %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
  tt.store %os, %s : tensor<2x!tt.ptr<f32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<4xf32, 3 : i64>, {{.*}}}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// The row: warp bit 1 (thread id bit 6).
// CHECK:         %[[C6:.*]] = arith.constant 6 : i32
// CHECK-NEXT:    %[[RSH:.*]] = arith.shrui %[[T:.*]], %[[C6]] : i32
// CHECK-NEXT:    %[[ROW:.*]] = arith.andi %[[RSH]], %[[ONE]] : i32
// CHECK:         %[[ROWI:.*]] = arith.index_cast %[[ROW]] : i32 to index
// CHECK-NEXT:    %[[I2:.*]] = arith.constant 2 : index
// CHECK:         %[[BUF:.*]] = memref.get_global @smem_0 : memref<4xf32, 3 : i64>
// CHECK-NEXT:    %[[SH:.*]] = arith.shrui %[[T]], %{{.*}} : i32
// CHECK-NEXT:    %[[WARP:.*]] = arith.andi %[[SH]], %[[ONE]] : i32
// CHECK-NEXT:    %[[SLOT:.*]] = arith.muli %[[WARP]], %[[TWO]] : i32
// CHECK-NEXT:    %[[SLOTI:.*]] = arith.index_cast %[[SLOT]] : i32 to index
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %[[SLOTI]], %[[ROWI]] : index
// CHECK-NEXT:    memref.store %{{.*}}, %[[BUF]][%[[AT]]] : memref<4xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[W0:.*]] = memref.load %[[BUF]][%[[ROWI]]] : memref<4xf32, 3 : i64>
// CHECK-NEXT:    %[[A1:.*]] = arith.addi %[[ROWI]], %[[I2]] : index
// CHECK-NEXT:    %[[W1:.*]] = memref.load %[[BUF]][%[[A1]]] : memref<4xf32, 3 : i64>
// CHECK-NEXT:    %s = arith.maxnumf %[[W0]], %[[W1]] : f32
// CHECK-NEXT:    "gpu.barrier"() : () -> ()

// -----

// Row sums of an 8x128 block (warpsPerCTA = [1, 4]): every thread holds 8 rows, and 4 warps
// split each. The 4 partials of a row lie side by side (slot = row * 4 + warp); the 32 slots
// go to threads 0-31, each group of 4 lanes combines its row's partials with a butterfly (xor
// 1, 2) and writes the result back; after a barrier each thread reads its rows' slot 0. The
// threads past 32 shuffle a spare value and write nothing.
func.func @row_sums(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x128x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x128x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 1 : i32} : tensor<8x128xf32> -> tensor<8xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  tt.store %os, %s : tensor<8x!tt.ptr<f32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<32xf32, 3 : i64>, {{.*}}}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[T:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : i32
// CHECK:         %[[BUF:.*]] = memref.get_global @smem_0 : memref<32xf32, 3 : i64>
// CHECK-COUNT-8: memref.store %{{.*}}, %[[BUF]]
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[BUSY:.*]] = arith.cmpi ult, %[[T]], %[[C32]] : i32
// CHECK-NEXT:    %[[AT:.*]] = arith.index_cast %[[T]] : i32 to index
// CHECK-NEXT:    %[[P:.*]] = scf.if %[[BUSY]] -> (f32) {
// CHECK-NEXT:      %[[L:.*]] = memref.load %[[BUF]][%[[AT]]]
// CHECK-NEXT:      scf.yield %[[L]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[O1:.*]], %{{.*}} = "gpu.shuffle"(%[[P]], %[[C1]], %[[C32]])
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[P]], %[[O1]] : f32
// CHECK-NEXT:    %[[O2:.*]], %{{.*}} = "gpu.shuffle"(%[[S1]], %[[C2]], %[[C32]])
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[S1]], %[[O2]] : f32
// CHECK-NEXT:    scf.if %[[BUSY]] {
// CHECK-NEXT:      memref.store %[[S2]], %[[BUF]][%[[AT]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-COUNT-8: memref.load %[[BUF]]
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
