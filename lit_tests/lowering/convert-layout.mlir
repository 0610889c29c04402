// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// ttg.convert_layout goes through shared memory: every thread stores the elements it owns at
// their row-major position, a barrier, every thread loads the elements the new layout gives
// it, and a barrier so the buffer can be reused.

// Row sums of a 2x4 block (a slice of threadsPerWarp = [2, 16]: the row is thread id bit 4)
// added to a loaded 2-vector (threadsPerWarp = [32]: the element is bit 0): the vector moves
// (volatile: any other small load would be loaded again in the slice).
func.func @vector_to_slice(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x4x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 1 : i32} : tensor<2x4xf32> -> tensor<2xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
  %w = tt.load %ys {isVolatile} : tensor<2x!tt.ptr<f32>>
  %t = tt.add %s, %w : tensor<2xf32>
  tt.store %ys, %t : tensor<2x!tt.ptr<f32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<2xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[T:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK:         %[[SRC:.*]] = arith.andi %{{.*}}, %[[ONE]] : i32
// CHECK-NEXT:    %[[SRCI:.*]] = arith.index_cast %[[SRC]] : i32 to index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[SH:.*]] = arith.shrui %[[T]], %[[C4]] : i32
// CHECK-NEXT:    %[[DST:.*]] = arith.andi %[[SH]], %[[ONE]] : i32
// CHECK-NEXT:    %[[DSTI:.*]] = arith.index_cast %[[DST]] : i32 to index
// CHECK:         %w = llvm.load %y {mytriton.volatile} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[BUF:.*]] = memref.get_global @smem_0 : memref<2xf32, 3 : i64>
// CHECK-NEXT:    memref.store %w, %[[BUF]][%[[SRCI]]] : memref<2xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[W:.*]] = memref.load %[[BUF]][%[[DSTI]]] : memref<2xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %t = arith.addf %s, %[[W]] : f32

// -----

// Booleans are staged as i32 (0 or 1) and turned back into i1 with `!= 0`.
func.func @bool_mask(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x4x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 1 : i32} : tensor<2x4xf32> -> tensor<2xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
  %w = tt.load %ys {isVolatile} : tensor<2x!tt.ptr<f32>>
  %zero = arith.constant 0.0 : f32
  %zs = tt.splat %zero : f32 -> tensor<2xf32>
  %ms = tt.cmp gt, %s, %zs : tensor<2xf32>
  %mw = tt.cmp gt, %w, %zs : tensor<2xf32>
  %both = tt.and %ms, %mw : tensor<2xi1>
  %t = tt.select %both, %s, %zs : tensor<2xf32>
  tt.store %ys, %t : tensor<2x!tt.ptr<f32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<2xi32, 3 : i64>, {{.*}}}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %mw = arith.cmpf ogt, %w, %{{.*}} : f32
// CHECK-NEXT:    %[[BUF:.*]] = memref.get_global @smem_0 : memref<2xi32, 3 : i64>
// CHECK-NEXT:    %[[WIDE:.*]] = arith.extui %mw : i1 to i32
// CHECK-NEXT:    memref.store %[[WIDE]], %[[BUF]][%{{.*}}] : memref<2xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[L:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<2xi32, 3 : i64>
// CHECK-NEXT:    %[[M:.*]] = arith.cmpi ne, %[[L]], %[[ZERO]] : i32
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %both = arith.andi %ms, %[[M]] : i1
