// RUN: mytriton-opt %s --split-input-file -p cse | filecheck %s

// A tt.reduce/tt.scan combine region is isolated from above: CSE merges the constants inside
// it but never replaces one by an equal constant of the enclosing function (layout assignment
// rebuilds the region, and a value captured from outside would dangle).

func.func @welford_like(%x: tensor<32xf32>, %out: !tt.ptr<f32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %s = tt.reduce %x {axis = 0 : i32} : tensor<32xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %z1 = arith.constant 0.000000e+00 : f32
    %c = tt.cmp eq, %a, %z1 : f32
    %z2 = arith.constant 0.000000e+00 : f32
    %r = tt.select %c, %z2, %b : f32
    tt.reduce.return %r : f32
  }
  %t = tt.add %s, %zero : f32
  tt.store %out, %t : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: func.func @welford_like
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         tt.reduce
// CHECK:           %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[C:.*]] = tt.cmp eq, %{{.*}}, %[[Z]] : f32
// CHECK-NEXT:      tt.select %[[C]], %[[Z]], %{{.*}} : f32
// CHECK:         tt.add %{{.*}}, %[[ZERO]] : f32

// -----

func.func @scan_like(%x: tensor<32xi32>, %out: tensor<32x!tt.ptr<i32>>) {
  %one = arith.constant 1 : i32
  %s = tt.scan %x {axis = 0 : i32} : tensor<32xi32> -> tensor<32xi32> {
  ^bb0(%a: i32, %b: i32):
    %o = arith.constant 1 : i32
    %m = tt.mul %a, %o : i32
    %r = tt.add %m, %b : i32
    tt.scan.return %r : i32
  }
  %sp = tt.splat %one : i32 -> tensor<32xi32>
  %t = tt.add %s, %sp : tensor<32xi32>
  tt.store %out, %t : tensor<32x!tt.ptr<i32>>
  func.return
}
// CHECK-LABEL: func.func @scan_like
// CHECK:         tt.scan
// CHECK:           %[[O:.*]] = arith.constant 1 : i32
// CHECK-NEXT:      tt.mul %{{.*}}, %[[O]] : i32
