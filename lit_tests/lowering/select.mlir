// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.select -> arith.select, per register for blocks (tl.where).
func.func @where(%x: !tt.ptr<f32>, %a: i32, %b: i32, %out: !tt.ptr<i32>) {
  %c = tt.cmp lt, %a, %b : i32
  %s = tt.select %c, %a, %b : i32
  tt.store %out, %s : !tt.ptr<i32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<64x!tt.ptr<f32>>
  %zero = arith.constant 0.0 : f32
  %zs = tt.splat %zero : f32 -> tensor<64xf32>
  %pos = tt.cmp gt, %v, %zs : tensor<64xf32>
  %relu = tt.select %pos, %v, %zs : tensor<64xf32>
  tt.store %xs, %relu : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %c = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:    %s = arith.select %c, %a, %b : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %s, %out : i32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK:         %pos = arith.cmpf ogt, %v, %[[ZERO]] : f32
// CHECK-NEXT:    %pos_1 = arith.cmpf ogt, %v_1, %[[ZERO]] : f32
// CHECK-NEXT:    %relu = arith.select %pos, %v, %[[ZERO]] : f32
// CHECK-NEXT:    %relu_1 = arith.select %pos_1, %v_1, %[[ZERO]] : f32
// CHECK-NEXT:    llvm.store %relu, %x : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %relu_1, %x : f32, !llvm.ptr<1>
