// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @element_type_differs(%a: tensor<1x16xf32>) {
  %r = tt.broadcast %a : tensor<1x16xf32> -> tensor<8x16xf16>
  func.return
}
// CHECK: Operation does not verify: tt.broadcast: operand and result element types differ

// -----

func.func @rank_change(%a: tensor<16xf32>) {
  %r = tt.broadcast %a : tensor<16xf32> -> tensor<8x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.broadcast: rank changes from 1 to 2; use expand_dims first

// -----

func.func @not_size_one(%a: tensor<2x16xf32>) {
  %r = tt.broadcast %a : tensor<2x16xf32> -> tensor<8x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.broadcast: dimension 0 of size 2 cannot broadcast to 8

// -----

func.func @not_power_of_two(%a: tensor<1x16xf32>) {
  %r = tt.broadcast %a : tensor<1x16xf32> -> tensor<6x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.broadcast: dimension 0 of shape [6, 16] must be a power of two (got 6)

// -----

func.func @scalar_operand(%a: f32) {
  %r = "tt.broadcast"(%a) : (f32) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: operand 'src' at position 0 does not verify:
// CHECK-NEXT: f32 should be of base attribute tensor
