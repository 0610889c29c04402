// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_power_of_two() {
  %e = tt.empty : tensor<4x12xf32>
  func.return
}
// CHECK: Operation does not verify: tt.empty: dimension 1 of shape [4, 12] must be a power of two (got 12)

// -----

func.func @unsupported_element() {
  %e = tt.empty : tensor<16xindex>
  func.return
}
// CHECK: Operation does not verify: tt.empty: element type must be an integer or a float, got index

// -----

func.func @scalar_result() {
  %e = "tt.empty"() : () -> i32
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: i32 should be of base attribute tensor
