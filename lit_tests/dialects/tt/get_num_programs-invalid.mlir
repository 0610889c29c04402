// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// The grid size is an i32.
func.func @wrong_type() {
  %x = "tt.get_num_programs"() <{axis = #tt<axis y>}> : () -> f32
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i32 but got f32

// -----

// The axis must be a tt.axis, not an integer.
func.func @integer_axis() {
  %x = "tt.get_num_programs"() <{axis = 0 : i32}> : () -> i32
  func.return
}
// CHECK: Operation does not verify: 0 : i32 should be of base attribute tt.axis

// -----

func.func @bad_axis() {
  %x = tt.get_num_programs 1 : i32
  func.return
}
// CHECK: %x = tt.get_num_programs 1 : i32
// CHECK: Expected `x`, `y`, or `z`.
