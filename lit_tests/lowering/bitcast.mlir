// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.bitcast keeps the bits: one arith.bitcast per register, of the same width.
func.func @bits(%x: !tt.ptr<f32>, %out: !tt.ptr<i32>) {
  %offs = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %px = tt.addptr %xs, %offs : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %v = tt.load %px : tensor<32x!tt.ptr<f32>>
  %b = tt.bitcast %v : tensor<32xf32> -> tensor<32xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %po = tt.addptr %os, %offs : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  tt.store %po, %b : tensor<32x!tt.ptr<i32>>
  func.return
}
// CHECK:      %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT: %[[B:.*]] = arith.bitcast %[[V]] : f32 to i32
// CHECK:      llvm.store %[[B]], %{{.*}} : i32, !llvm.ptr<1>
