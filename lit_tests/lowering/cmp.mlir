// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.cmp on integers -> signed arith.cmpi; on floats -> ordered arith.cmpf (false when either
// is NaN), except `ne`, which is unordered (true when either is NaN), as in C and Python; on
// booleans -> unsigned arith.cmpi (false < true; a signed i1 true would be -1).
func.func @cmps(%a: i32, %b: i32, %f: f32, %g: f32, %p: i1, %q: i1) {
  %lt = tt.cmp lt, %a, %b : i32
  %le = tt.cmp le, %a, %b : i32
  %gt = tt.cmp gt, %a, %b : i32
  %ge = tt.cmp ge, %a, %b : i32
  %eq = tt.cmp eq, %a, %b : i32
  %ne = tt.cmp ne, %a, %b : i32
  %flt = tt.cmp lt, %f, %g : f32
  %fle = tt.cmp le, %f, %g : f32
  %fgt = tt.cmp gt, %f, %g : f32
  %fge = tt.cmp ge, %f, %g : f32
  %feq = tt.cmp eq, %f, %g : f32
  %fne = tt.cmp ne, %f, %g : f32
  %beq = tt.cmp eq, %p, %q : i1
  %bne = tt.cmp ne, %p, %q : i1
  %blt = tt.cmp lt, %p, %q : i1
  %ble = tt.cmp le, %p, %q : i1
  %bgt = tt.cmp gt, %p, %q : i1
  %bge = tt.cmp ge, %p, %q : i1
  func.return
}
// Boolean parameters arrive as i32 (bool-parameter.mlir).
// CHECK:         %[[P:.*]] = arith.cmpi ne, %p, %{{.*}} : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.cmpi ne, %q, %{{.*}} : i32
// CHECK-NEXT:    %lt = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:    %le = arith.cmpi sle, %a, %b : i32
// CHECK-NEXT:    %gt = arith.cmpi sgt, %a, %b : i32
// CHECK-NEXT:    %ge = arith.cmpi sge, %a, %b : i32
// CHECK-NEXT:    %eq = arith.cmpi eq, %a, %b : i32
// CHECK-NEXT:    %ne = arith.cmpi ne, %a, %b : i32
// CHECK-NEXT:    %flt = arith.cmpf olt, %f, %g : f32
// CHECK-NEXT:    %fle = arith.cmpf ole, %f, %g : f32
// CHECK-NEXT:    %fgt = arith.cmpf ogt, %f, %g : f32
// CHECK-NEXT:    %fge = arith.cmpf oge, %f, %g : f32
// CHECK-NEXT:    %feq = arith.cmpf oeq, %f, %g : f32
// CHECK-NEXT:    %fne = arith.cmpf une, %f, %g : f32
// CHECK-NEXT:    %beq = arith.cmpi eq, %[[P]], %[[Q]] : i1
// CHECK-NEXT:    %bne = arith.cmpi ne, %[[P]], %[[Q]] : i1
// CHECK-NEXT:    %blt = arith.cmpi ult, %[[P]], %[[Q]] : i1
// CHECK-NEXT:    %ble = arith.cmpi ule, %[[P]], %[[Q]] : i1
// CHECK-NEXT:    %bgt = arith.cmpi ugt, %[[P]], %[[Q]] : i1
// CHECK-NEXT:    %bge = arith.cmpi uge, %[[P]], %[[Q]] : i1
// CHECK-NEXT:    "gpu.return"
