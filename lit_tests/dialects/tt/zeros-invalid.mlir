// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_power_of_two() {
  %z = tt.zeros : tensor<3x8xf32>
  func.return
}
// CHECK: Operation does not verify: tt.zeros: dimension 0 of shape [3, 8] must be a power of two (got 3)

// -----

func.func @too_many_elements() {
  %z = tt.zeros : tensor<1024x2048xf32>
  func.return
}
// CHECK: Operation does not verify: tt.zeros: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @pointer_element() {
  %z = tt.zeros : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK: Operation does not verify: tt.zeros: element type must be an integer or a float, got !tt.ptr<f32>

// -----

func.func @scalar_result() {
  %z = "tt.zeros"() : () -> f32
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: f32 should be of base attribute tensor
