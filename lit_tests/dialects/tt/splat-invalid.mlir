// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @block_operand(%x: tensor<16xf32>) {
  %r = "tt.splat"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.splat: operand must be a scalar, got tensor<16xf32>

// -----

func.func @element_type_differs(%x: i32) {
  %r = tt.splat %x : i32 -> tensor<16xi64>
  func.return
}
// CHECK: Operation does not verify: tt.splat: result element type i64 differs from operand type i32

// -----

func.func @not_power_of_two(%x: i32) {
  %r = tt.splat %x : i32 -> tensor<16x3xi32>
  func.return
}
// CHECK: Operation does not verify: tt.splat: dimension 1 of shape [16, 3] must be a power of two (got 3)

// -----

func.func @too_many_elements(%x: f32) {
  %r = tt.splat %x : f32 -> tensor<2048x1024xf32>
  func.return
}
// CHECK: Operation does not verify: tt.splat: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @scalar_result(%x: f32) {
  %r = "tt.splat"(%x) : (f32) -> f32
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: f32 should be of base attribute tensor

// -----

func.func @rank0_block(%x: f32) {
  %r = tt.splat %x : f32 -> tensor<f32>
  func.return
}
// CHECK: Operation does not verify: tt.splat: a block needs at least one dimension

// -----

func.func @zero_size(%x: f32) {
  %r = tt.splat %x : f32 -> tensor<0x4xf32>
  func.return
}
// CHECK: Operation does not verify: tt.splat: dimension 0 of shape [0, 4] must be positive
