// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @value_type_differs(%f: f32) {
  %r = tt.full %f : f32 -> tensor<16xf16>
  func.return
}
// CHECK: Operation does not verify: tt.full: fill value type f32 differs from element type f16

// -----

func.func @block_value(%f: tensor<16xf32>) {
  %r = tt.full %f : tensor<16xf32> -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.full: the fill value must be a scalar, not a block

// -----

func.func @not_power_of_two(%f: f32) {
  %r = tt.full %f : f32 -> tensor<10xf32>
  func.return
}
// CHECK: Operation does not verify: tt.full: dimension 0 of shape [10] must be a power of two (got 10)

// -----

func.func @unsupported_element(%i: index) {
  %r = tt.full %i : index -> tensor<16xindex>
  func.return
}
// CHECK: Operation does not verify: tt.full: element type must be an integer or a float, got index
