// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Unsigned integers keep their signedness in `tt` types; the lowering picks the unsigned arith
// op for each (division, remainder, order, max/min, logical shift right, zero-extension,
// uitofp/fptoui) and the lowered kernel is signless, constants and parameters included.
func.func @unsigned(%a: ui32, %b: ui32, %c: ui8, %f: f32) {
  %big = tt.constant 4294967295 : ui32
  %div = tt.div %a, %b : ui32
  %rem = tt.rem %a, %b : ui32
  %lt = tt.cmp lt, %a, %b : ui32
  %max = tt.maximum %a, %b : ui32
  %min = tt.minimum %a, %big : ui32
  %shr = tt.shr %a, %b : ui32
  %shl = tt.shl %a, %b : ui32
  %ext = tt.cast %c : ui8 -> ui32
  %sext = tt.cast %c : ui8 -> i64
  %tof = tt.cast %a : ui32 -> f32
  %tou = tt.cast %f : f32 -> ui32
  %same = tt.cast %a : ui32 -> i32
  func.return
}
// CHECK:         "gpu.func"() <{function_type = (i32, i32, i32, f32) -> ()}>
// CHECK-DAG:     %[[BIG:.*]] = arith.constant -1 : i32
// CHECK:         %div = arith.divui %a, %b : i32
// CHECK-NEXT:    %rem = arith.remui %a, %b : i32
// CHECK-NEXT:    %lt = arith.cmpi ult, %a, %b : i32
// CHECK-NEXT:    %max = arith.maxui %a, %b : i32
// CHECK-NEXT:    %min = arith.minui %a, %[[BIG]] : i32
// CHECK-NEXT:    %shr = arith.shrui %a, %b : i32
// CHECK-NEXT:    %shl = arith.shli %a, %b : i32
// CHECK-NEXT:    %ext = arith.extui %c : i8 to i32
// CHECK-NEXT:    %sext = arith.extui %c : i8 to i64
// CHECK-NEXT:    %tof = arith.uitofp %a : i32 to f32
// CHECK-NEXT:    %tou = arith.fptoui %f : f32 to i32
// CHECK-NEXT:    "gpu.return"
// CHECK-NOT:     ui{{[0-9]}}
