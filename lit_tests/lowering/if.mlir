// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A runtime `if` on a scalar: its block results get the layout of the yielded values and
// become one scf.if result per register (BLOCK 64 over 32 threads: 2 registers each).
func.func @choose(%x: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %flag = tt.cmp gt, %n, %c0 : i32
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %p : tensor<64x!tt.ptr<f32>>
  %two = arith.constant 2.0 : f32
  %s, %w = scf.if %flag -> (f32, tensor<64xf32>) {
    %twos = tt.splat %two : f32 -> tensor<64xf32>
    %d = tt.mul %v, %twos : tensor<64xf32>
    scf.yield %two, %d : f32, tensor<64xf32>
  } else {
    scf.yield %two, %v : f32, tensor<64xf32>
  }
  %ss = tt.splat %s : f32 -> tensor<64xf32>
  %o = tt.add %w, %ss : tensor<64xf32>
  tt.store %p, %o : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK:       %[[FLAG:.*]] = arith.cmpi sgt, %n, %{{.*}} : i32
// CHECK:       %[[V0:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:       %[[V1:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK:       %[[S:.*]], %[[W0:.*]], %[[W1:.*]] = scf.if %[[FLAG]] -> (f32, f32, f32) {
// CHECK-NEXT:    %[[D0:.*]] = arith.mulf %[[V0]], %[[TWO:.*]] : f32
// CHECK-NEXT:    %[[D1:.*]] = arith.mulf %[[V1]], %[[TWO]] : f32
// CHECK-NEXT:    scf.yield %[[TWO]], %[[D0]], %[[D1]] : f32, f32, f32
// CHECK-NEXT:  } else {
// CHECK-NEXT:    scf.yield %[[TWO]], %[[V0]], %[[V1]] : f32, f32, f32
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{.*}} = arith.addf %[[W0]], %[[S]] : f32
// CHECK-NEXT:  %{{.*}} = arith.addf %[[W1]], %[[S]] : f32
