// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.reduce max/min combine with the same scalar code as tt.maximum/tt.minimum: arith.maxsi /
// minsi for integers, Triton's NaN-ignoring arith.maxnumf / minnumf for floats (tl.max of a
// block holding NaN is NaN only if every element is), in every step (here: 2 elements, so 1
// shuffle with offset 1).
func.func @int_max(%x: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<2x!tt.ptr<i32>>
  %m = tt.reduce %v {axis = 0 : i32} : tensor<2xi32> -> i32 {
  ^bb0(%m_lhs: i32, %m_rhs: i32):
    %m_acc = tt.maximum %m_lhs, %m_rhs : i32
    tt.reduce.return %m_acc : i32
  }
  tt.store %out, %m : !tt.ptr<i32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> i32
// CHECK-NEXT:    %[[X:.*]], %{{.*}} = "gpu.shuffle"(%v, %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (i32, i32, i32) -> (i32, i1)
// CHECK-NEXT:    %m = arith.maxsi %v, %[[X]] : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %m, %out : i32, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

func.func @int_min(%x: !tt.ptr<i32>, %out: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<2x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<2x!tt.ptr<i32>>
  %m = tt.reduce %v {axis = 0 : i32} : tensor<2xi32> -> i32 {
  ^bb0(%m_lhs: i32, %m_rhs: i32):
    %m_acc = tt.minimum %m_lhs, %m_rhs : i32
    tt.reduce.return %m_acc : i32
  }
  tt.store %out, %m : !tt.ptr<i32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[X:.*]], %{{.*}} = "gpu.shuffle"(%v, %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}> : (i32, i32, i32) -> (i32, i1)
// CHECK-NEXT:    %m = arith.minsi %v, %[[X]] : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %m, %out : i32, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

func.func @float_max(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x!tt.ptr<f32>>
  %m = tt.reduce %v {axis = 0 : i32} : tensor<2xf32> -> f32 {
  ^bb0(%m_lhs: f32, %m_rhs: f32):
    %m_acc = tt.maximum %m_lhs, %m_rhs : f32
    tt.reduce.return %m_acc : f32
  }
  tt.store %out, %m : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[X:.*]], %{{.*}} = "gpu.shuffle"(%v, %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %m = arith.maxnumf %v, %[[X]] : f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %m, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

// Within a thread too: 64 elements, 2 registers per thread, combined before the shuffles.
func.func @float_min(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<64x!tt.ptr<f32>>
  %m = tt.reduce %v {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%m_lhs: f32, %m_rhs: f32):
    %m_acc = tt.minimum %m_lhs, %m_rhs : f32
    tt.reduce.return %m_acc : f32
  }
  tt.store %out, %m : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %v_1 = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[M:.*]] = arith.minnumf %v, %v_1 : f32
// CHECK-NEXT:    %[[X:.*]], %{{.*}} = "gpu.shuffle"(%[[M]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    arith.minnumf %[[M]], %[[X]] : f32
