// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Canonicalization reaches into scf.for bodies: folds, splat hoisting and mask removal
// happen inside the loop; the induction variable is never treated as a constant. Folded
// constants are materialized at the top of the function (as MLIR's folder does).

func.func @in_loop(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  scf.for %i = %c0 to %c8 step %c1 : i32 {
    %two = arith.constant 2 : i32
    %three = arith.constant 3 : i32
    %six = tt.mul %two, %three : i32
    %si = tt.splat %i : i32 -> tensor<16xi32>
    %s6 = tt.splat %six : i32 -> tensor<16xi32>
    %o = tt.mul %si, %s6 : tensor<16xi32>
    %q = tt.addptr %p, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %t = arith.constant true
    %m = tt.splat %t : i1 -> tensor<16xi1>
    tt.store %q, %v, %m : tensor<16x!tt.ptr<f32>>
    scf.yield
  }
  func.return
}
// CHECK-LABEL: func.func @in_loop(
// CHECK:         %[[SIX:.*]] = arith.constant 6 : i32
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT:      %[[O:.*]] = tt.mul %[[I]], %[[SIX]] : i32
// CHECK-NEXT:      %[[OS:.*]] = tt.splat %[[O]] : i32 -> tensor<16xi32>
// CHECK-NEXT:      %[[Q:.*]] = tt.addptr %p, %[[OS]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT:      tt.store %[[Q]], %v : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return

// Loop-carried values: identities on the iter_arg fold; the yield and results survive.
func.func @iter_args(%x: tensor<16xf32>) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<16xf32>) : i32 {
    %one = arith.constant 1.0 : f32
    %so = tt.splat %one : f32 -> tensor<16xf32>
    %a = tt.mul %acc, %so : tensor<16xf32>
    %b = tt.add %a, %x : tensor<16xf32>
    scf.yield %b : tensor<16xf32>
  }
  func.return %r : tensor<16xf32>
}
// CHECK-LABEL: func.func @iter_args(%x: tensor<16xf32>)
// CHECK:         %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %x) -> (tensor<16xf32>) : i32 {
// CHECK-NEXT:      %[[B:.*]] = tt.add %[[ACC]], %x : tensor<16xf32>
// CHECK-NEXT:      scf.yield %[[B]] : tensor<16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<16xf32>
