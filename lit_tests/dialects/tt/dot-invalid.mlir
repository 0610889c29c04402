// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @rank(%a: tensor<16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %b, %c : tensor<16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: operands must be rank-2 blocks (rank-3 for a batched dot), got ranks 1 and 2

// -----

func.func @inner_dims(%a: tensor<16x32xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: inner dimensions differ: [16, 32] x [16, 16]

// -----

func.func @integer_operands(%a: tensor<16x16xi32>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %a, %c : tensor<16x16xi32> * tensor<16x16xi32> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: unsupported operand type tensor<16x16xi32>

// -----

func.func @f16_accumulator(%a: tensor<16x16xf16>, %c: tensor<16x16xf64>) {
  %d = tt.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf64>
  func.return
}
// CHECK: Operation does not verify: tt.dot: accumulator of f16 operands must hold f16 or f32, got tensor<16x16xf64>

// -----

func.func @i8_accumulator(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %a, %c : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: accumulator of i8 operands must hold i32, got tensor<16x16xf32>

// -----

func.func @f32_accumulator(%a: tensor<16x16xf32>, %c: tensor<16x16xf16>) {
  %d = tt.dot %a, %a, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf16>
  func.return
}
// CHECK: Operation does not verify: tt.dot: accumulator of f32 operands must hold f32, got tensor<16x16xf16>

// -----

func.func @accumulator_shape(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x8xf32> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: accumulator must be [16, 8], got [16, 16]

// -----

func.func @result_type(%a: tensor<16x16xf32>) {
  %d = "tt.dot"(%a, %a, %a) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x8xf32>
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute tensor<16x16xf32> expected from variable 'R', but got tensor<16x8xf32>

// -----

func.func @rhs_type(%a: tensor<16x16xf32>, %b: tensor<16x16xf16>) {
  %d = tt.dot %a, %b, %a : tensor<16x16xf32> * tensor<16x16xf16> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: operands must have one element type, got tensor<16x16xf32> and tensor<16x16xf16>

// -----

func.func @fp8_and_f16(%a: tensor<16x16xf8E4M3FN>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %b, %c : tensor<16x16xf8E4M3FN> * tensor<16x16xf16> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: operands must have one element type, got tensor<16x16xf8E4M3FN> and tensor<16x16xf16>

// -----

func.func @fp8_accumulator(%a: tensor<16x16xf8E5M2>, %c: tensor<16x16xbf16>) {
  %d = tt.dot %a, %a, %c : tensor<16x16xf8E5M2> * tensor<16x16xf8E5M2> -> tensor<16x16xbf16>
  func.return
}
// CHECK: Operation does not verify: tt.dot: accumulator of f8E5M2 operands must hold f16 or f32, got tensor<16x16xbf16>

// -----

// fp8e4b15 (Triton's fp8e4b15) has no MMA: the frontend widens it to f16 before the dot
func.func @fp8_format(%a: tensor<16x16xf8E4M3B11FNUZ>, %c: tensor<16x16xf32>) {
  %d = tt.dot %a, %a, %c : tensor<16x16xf8E4M3B11FNUZ> * tensor<16x16xf8E4M3B11FNUZ> -> tensor<16x16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: unsupported operand type tensor<16x16xf8E4M3B11FNUZ>
