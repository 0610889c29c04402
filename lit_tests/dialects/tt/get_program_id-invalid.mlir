// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// The program id is an i32.
func.func @wrong_type() {
  %x = "tt.get_program_id"() <{axis = #tt<axis x>}> : () -> i64
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64

// -----

// The axis is a required property.
func.func @missing_axis() {
  %x = "tt.get_program_id"() : () -> i32
  func.return
}
// CHECK: Operation does not verify: property 'axis' expected in operation 'tt.get_program_id'

// -----

// Only x, y and z exist.
func.func @bad_axis() {
  %x = tt.get_program_id w : i32
  func.return
}
// CHECK: %x = tt.get_program_id w : i32
// CHECK: Expected `x`, `y`, or `z`.
