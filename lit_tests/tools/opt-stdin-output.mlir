// RUN: mytriton-opt < %s | filecheck %s
// RUN: mytriton-opt - < %s | filecheck %s
// RUN: mytriton-opt %s -p canonicalize -o %t && filecheck %s --check-prefix=FILE < %t

// mytriton-opt reads stdin when no file (or `-`) is given and writes -o files, like mlir-opt.
func.func @k(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
  %c0 = arith.constant 0 : i32
  %q = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
  func.return %q : !tt.ptr<f32>
}
// CHECK:      %[[Q:.*]] = tt.addptr %p, %c0 : !tt.ptr<f32>, i32
// CHECK-NEXT: func.return %[[Q]] : !tt.ptr<f32>

// FILE:      func.func @k(%p: !tt.ptr<f32>) -> !tt.ptr<f32> {
// FILE-NEXT:   func.return %p : !tt.ptr<f32>
