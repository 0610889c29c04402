// RUN: mytriton-opt %s -p licm | filecheck %s

// LICM never hoists memory accesses: a loop-invariant tt.load stays in the loop (a store in
// the loop, or in another program, may change what it reads; the loop may run zero times),
// and so does a loop-invariant tt.store. Their pure address computations do move.

func.func @invariant_load(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f32) : i32 {
    %c3 = arith.constant 3 : i32
    %p = tt.addptr %x, %c3 : !tt.ptr<f32>, i32
    %v = tt.load %p : !tt.ptr<f32>
    tt.store %y, %v : !tt.ptr<f32>
    %s = tt.add %acc, %v : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @invariant_load(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>)
// CHECK:         %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[P:.*]] = tt.addptr %x, %[[C3]] : !tt.ptr<f32>, i32
// CHECK-NEXT:    %{{.*}} = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) : i32 {
// CHECK-NEXT:      %[[V:.*]] = tt.load %[[P]] : !tt.ptr<f32>
// CHECK-NEXT:      tt.store %y, %[[V]] : !tt.ptr<f32>
// CHECK-NEXT:      %[[S:.*]] = tt.add %[[ACC]], %[[V]] : f32
// CHECK-NEXT:      scf.yield %[[S]] : f32

// Even with no store anywhere, the load stays (and so does everything depending on it).
func.func @load_only(%x: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %z = arith.constant 0.0 : f32
  %zs = tt.splat %z : f32 -> tensor<16xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zs) -> (tensor<16xf32>) : i32 {
    %v = tt.load %x, %m, %zs : tensor<16x!tt.ptr<f32>>
    %e = tt.exp %v : tensor<16xf32>
    %s = tt.add %acc, %e : tensor<16xf32>
    scf.yield %s : tensor<16xf32>
  }
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @load_only(
// CHECK:         scf.for
// CHECK-NEXT:      %[[V:.*]] = tt.load %x, %m, %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      %[[E:.*]] = tt.exp %[[V]] : tensor<16xf32>
// CHECK-NEXT:      tt.add %{{.*}}, %[[E]] : tensor<16xf32>

func.func @invariant_store(%x: !tt.ptr<f32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    tt.store %x, %v : !tt.ptr<f32>
    scf.yield
  }
  func.return
}
// CHECK-LABEL: func.func @invariant_store(%x: !tt.ptr<f32>, %v: f32)
// CHECK:         scf.for %{{.*}} : i32 {
// CHECK-NEXT:      tt.store %x, %v : !tt.ptr<f32>
// CHECK-NEXT:    }
