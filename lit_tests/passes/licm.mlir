// RUN: mytriton-opt %s -p licm | filecheck %s

// LICM hoists pure loop-invariant ops (splat, make_range, addptr, arithmetic) out of
// scf.for, including chains of them; ops that use the induction variable or an iter_arg stay.

func.func @hoist(%x: !tt.ptr<f32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant 0.0 : f32
  %acc0 = tt.splat %zero : f32 -> tensor<16xf32>
  %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (tensor<16xf32>) : i32 {
    %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %n2 = tt.mul %n, %n : i32
    %ns = tt.splat %n2 : i32 -> tensor<16xi32>
    %base = tt.add %r, %ns : tensor<16xi32>
    %is = tt.splat %i : i32 -> tensor<16xi32>
    %o = tt.add %base, %is : tensor<16xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %p = tt.addptr %xs, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %p : tensor<16x!tt.ptr<f32>>
    %a = tt.add %acc, %v : tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  }
  func.return %res : tensor<16xf32>
}
// CHECK-LABEL: func.func @hoist(%x: !tt.ptr<f32>, %n: i32)
// CHECK:         %[[R:.*]] = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
// CHECK-NEXT:    %[[N2:.*]] = tt.mul %n, %n : i32
// CHECK-NEXT:    %[[NS:.*]] = tt.splat %[[N2]] : i32 -> tensor<16xi32>
// CHECK-NEXT:    %[[BASE:.*]] = tt.add %[[R]], %[[NS]] : tensor<16xi32>
// CHECK-NEXT:    %[[XS:.*]] = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %{{.*}} = scf.for %[[I:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<16xf32>) : i32 {
// CHECK-NEXT:      %[[IS:.*]] = tt.splat %[[I]] : i32 -> tensor<16xi32>
// CHECK-NEXT:      %[[O:.*]] = tt.add %[[BASE]], %[[IS]] : tensor<16xi32>
// CHECK-NEXT:      %[[P:.*]] = tt.addptr %[[XS]], %[[O]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT:      %[[V:.*]] = tt.load %[[P]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      %[[A:.*]] = tt.add %[[ACC]], %[[V]] : tensor<16xf32>
// CHECK-NEXT:      scf.yield %[[A]] : tensor<16xf32>
// CHECK-NEXT:    }

// Nested loops: an op invariant in both loops leaves both; one that uses the outer
// induction variable only leaves the inner loop.
func.func @nested(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %r2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> (i32) : i32 {
      %both = tt.mul %n, %n : i32
      %outer = tt.mul %i, %both : i32
      %z = tt.add %b, %outer : i32
      %z2 = tt.add %z, %j : i32
      scf.yield %z2 : i32
    }
    scf.yield %r2 : i32
  }
  func.return %r : i32
}
// CHECK-LABEL: func.func @nested(%n: i32)
// CHECK:         %[[BOTH:.*]] = tt.mul %n, %n : i32
// CHECK-NEXT:    %{{.*}} = scf.for %[[I:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i32) : i32 {
// CHECK-NEXT:      %[[OUTER:.*]] = tt.mul %[[I]], %[[BOTH]] : i32
// CHECK-NEXT:      %{{.*}} = scf.for %[[J:.*]] = {{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (i32) : i32 {
// CHECK-NEXT:        %[[Z:.*]] = tt.add %[[B]], %[[OUTER]] : i32
// CHECK-NEXT:        %[[Z2:.*]] = tt.add %[[Z]], %[[J]] : i32
// CHECK-NEXT:        scf.yield %[[Z2]] : i32
