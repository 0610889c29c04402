// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

%0 = tt.constant 3 : i32
// CHECK: Operation does not verify: tt.constant: holds unsigned integers only, got i32

// -----

func.func @shift_of_floats(%x: f32) {
  %r = tt.shl %x, %x : f32
  func.return
}
// CHECK: Operation does not verify: tt.shl: operands must be integers or booleans, got f32
