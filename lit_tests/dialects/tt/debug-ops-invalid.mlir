// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @print_pointer(%x: !tt.ptr<f32>) {
  tt.print " x: ", %x : !tt.ptr<f32>
  func.return
}
// CHECK: tt.print: can print integers and floats, got !tt.ptr<f32>

// -----

func.func @assert_int(%n: i32) {
  tt.assert %n, "m" : i32
  func.return
}
// CHECK: tt.assert: condition must be i1 or a block of i1, got i32
