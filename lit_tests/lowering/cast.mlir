// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.cast, one conversion per kind, with C semantics: int -> float rounds (sitofp), float ->
// int truncates toward zero (fptosi), a bool converts as 0 or 1 (unsigned: uitofp, extui),
// anything -> bool is `!= 0` (une for floats: NaN is true), integers widen with their sign and
// narrow by truncation, floats extend or round.
func.func @casts(%i: i32, %f: f32, %b: i1, %l: i64, %h: f16) {
  %itof = tt.cast %i : i32 -> f32
  %ftoi = tt.cast %f : f32 -> i32
  %btof = tt.cast %b : i1 -> f32
  %btoi = tt.cast %b : i1 -> i32
  %itob = tt.cast %i : i32 -> i1
  %ftob = tt.cast %f : f32 -> i1
  %itol = tt.cast %i : i32 -> i64
  %ltoi = tt.cast %l : i64 -> i32
  %htof = tt.cast %h : f16 -> f32
  %ftoh = tt.cast %f : f32 -> f16
  func.return
}
// CHECK-DAG:     %[[I0:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[F0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[B:.*]] = arith.cmpi ne, %b, %[[I0]] : i32
// CHECK:         %itof = arith.sitofp %i : i32 to f32
// CHECK-NEXT:    %ftoi = arith.fptosi %f : f32 to i32
// CHECK-NEXT:    %btof = arith.uitofp %[[B]] : i1 to f32
// CHECK-NEXT:    %btoi = arith.extui %[[B]] : i1 to i32
// CHECK-NEXT:    %itob = arith.cmpi ne, %i, %[[I0]] : i32
// CHECK-NEXT:    %ftob = arith.cmpf une, %f, %[[F0]] : f32
// CHECK-NEXT:    %itol = arith.extsi %i : i32 to i64
// CHECK-NEXT:    %ltoi = arith.trunci %l : i64 to i32
// CHECK-NEXT:    %htof = arith.extf %h : f16 to f32
// CHECK-NEXT:    %ftoh = arith.truncf %f : f32 to f16
// CHECK-NEXT:    "gpu.return"
