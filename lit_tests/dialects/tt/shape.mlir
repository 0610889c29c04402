// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

func.func @shape_ops(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %i: tensor<4x2xi64>, %v: tensor<8xi8>) {
  %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %r = tt.reshape %a : tensor<4x8xf32> -> tensor<2x2x8xf32>
  %j = tt.join %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8x2xf32>
  %x, %y = tt.split %j : tensor<4x8x2xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
  %c = tt.cat %v, %v : tensor<8xi8>, tensor<8xi8> -> tensor<16xi8>
  %g = tt.gather %a[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  %h = tt.histogram %v : tensor<8xi8> -> tensor<16xi32>
  func.return
}
// CHECK-LABEL: func.func @shape_ops
// CHECK-NEXT:    %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    %r = tt.reshape %a : tensor<4x8xf32> -> tensor<2x2x8xf32>
// CHECK-NEXT:    %j = tt.join %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8x2xf32>
// CHECK-NEXT:    %x, %y = tt.split %j : tensor<4x8x2xf32> -> tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT:    %c = tt.cat %v, %v : tensor<8xi8>, tensor<8xi8> -> tensor<16xi8>
// CHECK-NEXT:    %g = tt.gather %a[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
// CHECK-NEXT:    %h = tt.histogram %v : tensor<8xi8> -> tensor<16xi32>
// CHECK-NEXT:    func.return
