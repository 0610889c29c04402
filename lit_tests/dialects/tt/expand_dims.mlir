// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @expand(%a: tensor<16xf32>, %b: tensor<4x8xi32>) {
  %x = tt.expand_dims %a {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>
  %y = tt.expand_dims %a {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %z = tt.expand_dims %b {axis = 1 : i32} : tensor<4x8xi32> -> tensor<4x1x8xi32>
  %w = tt.expand_dims %b {axis = 2 : i32} : tensor<4x8xi32> -> tensor<4x8x1xi32>
  func.return
}
// CHECK-LABEL: func.func @expand(%a: tensor<16xf32>, %b: tensor<4x8xi32>)
// CHECK-NEXT:    %x = tt.expand_dims %a {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>
// CHECK-NEXT:    %y = tt.expand_dims %a {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
// CHECK-NEXT:    %z = tt.expand_dims %b {axis = 1 : i32} : tensor<4x8xi32> -> tensor<4x1x8xi32>
// CHECK-NEXT:    %w = tt.expand_dims %b {axis = 2 : i32} : tensor<4x8xi32> -> tensor<4x8x1xi32>
// CHECK-NEXT:    func.return

// GENERIC: %x = "tt.expand_dims"(%a) <{axis = 0 : i32}> : (tensor<16xf32>) -> tensor<1x16xf32>
