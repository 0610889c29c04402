// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Step 2 of tt.reduce: a butterfly of gpu.shuffle xor over the lanes that own distinct
// elements along the axis: offsets 1, 2, 4, ... times the lane stride of the axis, width 32;
// every such lane ends with the warp's result. One warp covers the axis: no shared memory.

// 64 elements over 32 lanes: each thread adds its 2 registers, then 5 shuffles.
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
// CHECK-NOT:     memref.global
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[O2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[O4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[O8:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[O16:.*]] = arith.constant 16 : i32
// CHECK:         %[[P:.*]] = arith.addf %v, %v_1 : f32
// CHECK-NEXT:    %[[X1:.*]], %{{.*}} = "gpu.shuffle"(%[[P]], %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[P]], %[[X1]] : f32
// CHECK-NEXT:    %[[X2:.*]], %{{.*}} = "gpu.shuffle"(%[[S1]], %[[O2]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[S1]], %[[X2]] : f32
// CHECK-NEXT:    %[[X4:.*]], %{{.*}} = "gpu.shuffle"(%[[S2]], %[[O4]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[S4:.*]] = arith.addf %[[S2]], %[[X4]] : f32
// CHECK-NEXT:    %[[X8:.*]], %{{.*}} = "gpu.shuffle"(%[[S4]], %[[O8]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[S8:.*]] = arith.addf %[[S4]], %[[X8]] : f32
// CHECK-NEXT:    %[[X16:.*]], %{{.*}} = "gpu.shuffle"(%[[S8]], %[[O16]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %s = arith.addf %[[S8]], %[[X16]] : f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %s, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

// 8 elements over 32 lanes: lanes 8-31 replicate lanes 0-7, so only offsets 1, 2, 4.
func.func @sum8(%x: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<8x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<8x!tt.ptr<i32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<8xi32> -> i32 {
  ^bb0(%s_lhs: i32, %s_rhs: i32):
    %s_acc = tt.add %s_lhs, %s_rhs : i32
    tt.reduce.return %s_acc : i32
  }
  tt.store %out, %s : !tt.ptr<i32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[O2:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[O4:.*]] = arith.constant 4 : i32
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> i32
// CHECK-NEXT:    %[[X1:.*]], %{{.*}} = "gpu.shuffle"(%v, %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (i32, i32, i32) -> (i32, i1)
// CHECK-NEXT:    %[[S1:.*]] = arith.addi %v, %[[X1]] : i32
// CHECK-NEXT:    %[[X2:.*]], %{{.*}} = "gpu.shuffle"(%[[S1]], %[[O2]], %[[W]])
// CHECK-NEXT:    %[[S2:.*]] = arith.addi %[[S1]], %[[X2]] : i32
// CHECK-NEXT:    %[[X4:.*]], %{{.*}} = "gpu.shuffle"(%[[S2]], %[[O4]], %[[W]])
// CHECK-NEXT:    %s = arith.addi %[[S2]], %[[X4]] : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %s, %out : i32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-LABEL: sym_name = "sum8"

// -----

// Down the columns of a 4x8 block (threadsPerWarp = [4, 8]): the rows are 8 lanes apart, so
// the butterfly uses offsets 8 and 16; each column's sum ends in its 4 lanes.
func.func @column_sums(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<4x8x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<4x8xf32> -> tensor<8xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  tt.store %os, %s : tensor<8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[O8:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[O16:.*]] = arith.constant 16 : i32
// CHECK:         %[[X8:.*]], %{{.*}} = "gpu.shuffle"(%v, %[[O8]], %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
// CHECK-NEXT:    %[[S8:.*]] = arith.addf %v, %[[X8]] : f32
// CHECK-NEXT:    %[[X16:.*]], %{{.*}} = "gpu.shuffle"(%[[S8]], %[[O16]], %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
// CHECK-NEXT:    %s = arith.addf %[[S8]], %[[X16]] : f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %s, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
