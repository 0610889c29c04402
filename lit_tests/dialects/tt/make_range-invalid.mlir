// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @negative_start() {
  %r = tt.make_range {start = -4 : i32, end = 4 : i32} : tensor<8xi32>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: start must be non-negative, got -4

// -----

func.func @empty() {
  %r = tt.make_range {start = 4 : i32, end = 4 : i32} : tensor<0xi32>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: end (4) must be greater than start (4)

// -----

func.func @reversed() {
  %r = tt.make_range {start = 8 : i32, end = 4 : i32} : tensor<4xi32>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: end (4) must be greater than start (8)

// -----

func.func @not_power_of_two() {
  %r = tt.make_range {start = 0 : i32, end = 12 : i32} : tensor<12xi32>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: range size end - start = 12 must be a power of two

// -----

func.func @wrong_length() {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<32xi32>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: result type must be tensor<16xi32>

// -----

func.func @wrong_element_type() {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi64>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: result type must be tensor<16xi32>

// -----

func.func @scalar_result() {
  %r = "tt.make_range"() <{start = 0 : i32, end = 1 : i32}> : () -> i32
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: i32 should be of base attribute tensor

// -----

func.func @missing_end() {
  %r = tt.make_range {start = 0 : i32} : tensor<16xi32>
  func.return
}
// CHECK: Operation does not verify: property 'end' expected in operation 'tt.make_range'
