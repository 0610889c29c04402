// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.splat and tt.full: every register of the block is the scalar itself (no code at all).
func.func @splat(%out: !tt.ptr<f32>, %f: f32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %os, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.splat %f : f32 -> tensor<64xf32>
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: ^bb0(%out: !llvm.ptr<1>, %f: f32):
// CHECK:         %p = llvm.getelementptr %out[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %p_1 = llvm.getelementptr %out[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.store %f, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %f, %p_1 : f32, !llvm.ptr<1>
// CHECK-NEXT:    "gpu.return"

// -----

func.func @full(%out: !tt.ptr<i32>, %i: i32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %p = tt.addptr %os, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %v = tt.full %i : i32 -> tensor<64xi32>
  tt.store %p, %v : tensor<64x!tt.ptr<i32>>
  func.return
}
// CHECK-LABEL: ^bb0(%out: !llvm.ptr<1>, %i: i32):
// CHECK:         llvm.store %i, %p : i32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %i, %p_1 : i32, !llvm.ptr<1>

// -----

// tt.zeros, and tt.empty (whose contents are undefined: zeros will do), are the constant 0 of
// the element type in every register.
func.func @zeros(%out: !tt.ptr<f32>, %b: !tt.ptr<i1>) {
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %z = tt.zeros : tensor<32xf32>
  tt.store %os, %z : tensor<32x!tt.ptr<f32>>
  %e = tt.empty : tensor<32xf32>
  tt.store %os, %e : tensor<32x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<i1> -> tensor<32x!tt.ptr<i1>>
  %bz = tt.zeros : tensor<32xi1>
  tt.store %bs, %bz : tensor<32x!tt.ptr<i1>>
  func.return
}
// CHECK-LABEL: ^bb0(%out: !llvm.ptr<1>, %b: !llvm.ptr<1>):
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[F:.*]] = arith.constant false
// CHECK-NEXT:    llvm.store %[[Z]], %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %[[Z]], %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %[[F]], %b : i1, !llvm.ptr<1>
// CHECK-NEXT:    "gpu.return"
