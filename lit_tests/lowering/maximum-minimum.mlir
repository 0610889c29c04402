// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu{num_warps=1}' | filecheck %s

// Float maximum/minimum propagate NaN and pick b on ties (like the interpreter):
//   unordered(a, b) ? a + b : (a > b ? a : b)      (a + b is NaN when either is)
// with `<` (olt) for minimum. Integers use arith.maxsi/minsi (elementwise-int.mlir).
func.func @extrema(%a: f32, %b: f32, %out: !tt.ptr<f32>) {
  %max = tt.maximum %a, %b : f32
  %min = tt.minimum %a, %b : f32
  %s = tt.add %max, %min : f32
  tt.store %out, %s : !tt.ptr<f32>
  func.return
}
// CHECK:       ^bb0(%a: f32, %b: f32, %out: !llvm.ptr<1>):
// CHECK-NEXT:    %[[GT:.*]] = arith.cmpf ogt, %a, %b : f32
// CHECK-NEXT:    %[[PICK:.*]] = arith.select %[[GT]], %a, %b : f32
// CHECK-NEXT:    %[[UNO:.*]] = arith.cmpf uno, %a, %b : f32
// CHECK-NEXT:    %[[NAN:.*]] = arith.addf %a, %b : f32
// CHECK-NEXT:    %max = arith.select %[[UNO]], %[[NAN]], %[[PICK]] : f32
// CHECK-NEXT:    %[[LT:.*]] = arith.cmpf olt, %a, %b : f32
// CHECK-NEXT:    %[[PICK2:.*]] = arith.select %[[LT]], %a, %b : f32
// CHECK-NEXT:    %[[UNO2:.*]] = arith.cmpf uno, %a, %b : f32
// CHECK-NEXT:    %[[NAN2:.*]] = arith.addf %a, %b : f32
// CHECK-NEXT:    %min = arith.select %[[UNO2]], %[[NAN2]], %[[PICK2]] : f32
// CHECK-NEXT:    %s = arith.addf %max, %min : f32
