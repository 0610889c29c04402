// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.store -> llvm.store per register; a masked store is an scf.if (no results, no else)
// around the store of each register. A scalar is stored by thread 0 only (every thread holds
// it; if all stored, a read-modify-write would race): an scf.if on `thread id == 0`, computed
// once at the kernel entry, around the (masked) store.
func.func @stores(%x: !tt.ptr<f32>, %n: i32, %f: f32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.cast %r : tensor<64xi32> -> tensor<64xf32>
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = tt.cmp lt, %r, %ns : tensor<64xi32>
  tt.store %p, %v, %m : tensor<64x!tt.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c = tt.cmp gt, %n, %c0 : i32
  tt.store %x, %f, %c : !tt.ptr<f32>
  tt.store %x, %f : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %[[T:.*]] = arith.index_cast %[[TID]] : index to i32
// CHECK:         %owner = arith.cmpi eq, %[[T]], %c0 : i32
// CHECK-NOT:     arith.cmpi eq
// CHECK:         %p = llvm.getelementptr %x[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %p_1 = llvm.getelementptr %x[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %v = arith.sitofp %r : i32 to f32
// CHECK-NEXT:    %v_1 = arith.sitofp %r_1 : i32 to f32
// CHECK-NEXT:    llvm.store %v, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %v_1, %p_1 : f32, !llvm.ptr<1>
// CHECK-NEXT:    %m = arith.cmpi slt, %r, %n : i32
// CHECK-NEXT:    %m_1 = arith.cmpi slt, %r_1, %n : i32
// CHECK-NEXT:    scf.if %m {
// CHECK-NEXT:      llvm.store %v, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %m_1 {
// CHECK-NEXT:      llvm.store %v_1, %p_1 : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    %c = arith.cmpi sgt, %n, %c0 : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      scf.if %c {
// CHECK-NEXT:        llvm.store %f, %x : f32, !llvm.ptr<1>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %f, %x : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"

// -----

// 16 elements over 32 lanes: lanes 16-31 hold the elements of lanes 0-15 again (replicas), so
// only the threads whose thread-id bit 4 is 0 store, each element once, as in Triton. The
// ownership test is computed once at the kernel entry and shared by both stores.
func.func @replicated(%x: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %v = tt.load %p : tensor<16x!tt.ptr<f32>>
  %w = tt.add %v, %v : tensor<16xf32>
  tt.store %p, %w : tensor<16x!tt.ptr<f32>>
  %ns = tt.splat %n : i32 -> tensor<16xi32>
  %m = tt.cmp lt, %r, %ns : tensor<16xi32>
  tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %[[T:.*]] = arith.index_cast %[[TID]] : index to i32
// CHECK:         %[[BIT4:.*]] = arith.constant 16 : i32
// CHECK-NEXT:    %[[REPLICA:.*]] = arith.andi %[[T]], %[[BIT4]] : i32
// CHECK-NEXT:    %owner = arith.cmpi eq, %[[REPLICA]], %{{.*}} : i32
// CHECK-NOT:     arith.cmpi eq
// CHECK:         %w = arith.addf %v, %v : f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %w, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    %m = arith.cmpi slt, %r, %n : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      scf.if %m {
// CHECK-NEXT:        llvm.store %v, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"

// -----

// A row sum of a 4x32 block (threadsPerWarp = [1, 32]) is a slice layout held by all 32 lanes
// of its row: only lane 0 stores it (all thread-id bits are replica bits: no `andi` needed).
func.func @row_sums(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<4x32x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 1 : i32} : tensor<4x32xf32> -> tensor<4xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  tt.store %os, %s : tensor<4x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %[[T:.*]] = arith.index_cast %[[TID]] : index to i32
// CHECK:         %owner = arith.cmpi eq, %[[T]], %{{.*}} : i32
// CHECK:         scf.if %owner {
// CHECK-COUNT-4:   llvm.store %s{{.*}}, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"
