// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @no_pointee(%a: !tt.ptr<>) {
  func.return
}
// CHECK: func.func @no_pointee(%a: !tt.ptr<>) {
// CHECK: type expected

// -----

func.func @address_space_not_integer(%a: !tt.ptr<f32, x>) {
  func.return
}
// CHECK: func.func @address_space_not_integer(%a: !tt.ptr<f32, x>) {
// CHECK: Expected integer literal

// -----

// Constness is the word `const`, after the address space.
func.func @const_before_space(%a: !tt.ptr<f32, const, 3>) {
  func.return
}
// CHECK: func.func @const_before_space(%a: !tt.ptr<f32, const, 3>) {
// CHECK: '>' expected
