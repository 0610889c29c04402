// RUN: mytriton-opt %s -p convert-scf-to-cf | filecheck %s

// Every upstream xDSL pass stays available and works on IR that contains tt ops: here the
// scf.for of a kernel becomes cf branches around the tt body.
func.func @k(%p: !tt.ptr<f32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %v : !tt.ptr<f32>
    scf.yield
  }
  func.return
}
// CHECK-NOT:   scf.for
// CHECK:       cf.br ^[[HEAD:.*]](%c0 : i32)
// CHECK:       ^[[HEAD]](%[[I:.*]]: i32):
// CHECK:       cf.cond_br
// CHECK:       %[[Q:.*]] = tt.addptr %p, %[[I]] : !tt.ptr<f32>, i32
// CHECK-NEXT:  tt.store %[[Q]], %v : !tt.ptr<f32>
