// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Step 1 of tt.reduce: every thread first combines its own registers along the axis. Here a
// 4x32 block over one warp (threadsPerWarp = [1, 32]) puts the 4 rows of a column in one
// thread's registers: the column sums need no communication at all.
func.func @column_sums(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<4x32x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<4x32xf32> -> tensor<32xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  tt.store %os, %s : tensor<32x!tt.ptr<f32>>
  func.return
}
// No shared memory, no shuffles: the loads, then the adds.
// CHECK-NOT:     memref.global
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_1 = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_2 = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_3 = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[A:.*]] = arith.addf %v, %v_1 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.addf %[[A]], %v_2 : f32
// CHECK-NEXT:    %s = arith.addf %[[B]], %v_3 : f32
// CHECK-NEXT:    llvm.store %s, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    "gpu.return"
