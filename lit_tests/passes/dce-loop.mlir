// RUN: mytriton-opt %s -p dce | filecheck %s

// DCE removes unused pure ops and unused loads inside scf.for bodies, loops whose results
// are unused and whose bodies have no effect, and chains of dead values; stores, and loops
// that store, stay.

func.func @dead_in_body(%p: tensor<16x!tt.ptr<f32>>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    %dead1 = tt.mul %i, %n : i32
    %dead2 = tt.splat %dead1 : i32 -> tensor<16xi32>
    %unused_load = tt.load %p : tensor<16x!tt.ptr<f32>>
    %v = tt.load %p : tensor<16x!tt.ptr<f32>>
    %w = tt.exp %v : tensor<16xf32>
    tt.store %p, %w : tensor<16x!tt.ptr<f32>>
    scf.yield
  }
  func.return
}
// CHECK-LABEL: func.func @dead_in_body(%p: tensor<16x!tt.ptr<f32>>, %n: i32)
// CHECK:         scf.for %{{.*}} : i32 {
// CHECK-NEXT:      %[[V:.*]] = tt.load %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      %[[W:.*]] = tt.exp %[[V]] : tensor<16xf32>
// CHECK-NEXT:      tt.store %p, %[[W]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// The loop computes a value nobody uses and has no side effect: all of it goes.
func.func @dead_loop(%p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %v = tt.load %p : !tt.ptr<f32>
    %s = tt.add %acc, %v : f32
    scf.yield %s : f32
  }
  func.return
}
// CHECK-LABEL: func.func @dead_loop(%p: !tt.ptr<f32>)
// CHECK-NEXT:    func.return

// The loop result is unused, but the body stores: the loop stays.
func.func @live_loop(%p: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %q = tt.addptr %p, %i : !tt.ptr<f32>, i32
    tt.store %q, %acc : !tt.ptr<f32>
    scf.yield %acc : f32
  }
  func.return
}
// CHECK-LABEL: func.func @live_loop(%p: !tt.ptr<f32>)
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) : i32 {
// CHECK-NEXT:      %[[Q:.*]] = tt.addptr %p, %[[I]] : !tt.ptr<f32>, i32
// CHECK-NEXT:      tt.store %[[Q]], %[[ACC]] : !tt.ptr<f32>
// CHECK-NEXT:      scf.yield %[[ACC]] : f32
