// RUN: mytriton-opt %s --split-input-file | filecheck %s
// RUN: mytriton-opt %s --split-input-file | mytriton-opt --split-input-file | filecheck %s

// Each chunk between separator lines is its own module; the separators survive printing.
func.func @first(%a: i32) -> i32 {
  %r = tt.neg %a : i32
  func.return %r : i32
}

// -----

func.func @second(%a: f32) -> f32 {
  %r = tt.exp %a : f32
  func.return %r : f32
}
// CHECK:      builtin.module {
// CHECK-NEXT:   func.func @first(%a: i32) -> i32 {
// CHECK-NEXT:     %r = tt.neg %a : i32
// CHECK:      {{//}} -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @second(%a: f32) -> f32 {
// CHECK-NEXT:     %r = tt.exp %a : f32
