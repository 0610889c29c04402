// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Float folding computes in the element type: f32 results are rounded to f32 (not
// computed in Python's f64), f16 to f16; maximum/minimum follow Triton's NaN rule.

func.func @f32_rounding() -> (f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %big = arith.constant 16777216.0 : f32
  %a = tt.div %one, %three : f32
  %b = tt.add %big, %one : f32
  %c = tt.sqrt %three : f32
  func.return %a, %b, %c : f32, f32, f32
}
// 1/3 in f32 is 0.333333343; 2^24 + 1 rounds back to 2^24 (0x4B800000) in f32.
// CHECK-LABEL: func.func @f32_rounding()
// CHECK-NEXT:    %[[A:.*]] = arith.constant 0.333333343 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 0x4B800000 : f32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.73205078 : f32
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]] : f32, f32, f32

func.func @f16_rounding() -> f16 {
  %one = arith.constant 1.0 : f16
  %three = arith.constant 3.0 : f16
  %a = tt.div %one, %three : f16
  func.return %a : f16
}
// CHECK-LABEL: func.func @f16_rounding()
// CHECK-NEXT:    %[[A:.*]] = arith.constant 3.332520e-01 : f16
// CHECK-NEXT:    func.return %[[A]] : f16

func.func @math() -> (f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %neg = arith.constant -2.5 : f32
  %e = tt.exp %one : f32
  %fl = tt.floor %neg : f32
  %ce = tt.ceil %neg : f32
  %ab = tt.abs %neg : f32
  func.return %e, %fl, %ce, %ab : f32, f32, f32, f32
}
// CHECK-LABEL: func.func @math()
// CHECK-NEXT:    %[[E:.*]] = arith.constant 2.71828198 : f32
// CHECK-NEXT:    %[[FL:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-NEXT:    %[[CE:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-NEXT:    %[[AB:.*]] = arith.constant 2.500000e+00 : f32
// CHECK-NEXT:    func.return %[[E]], %[[FL]], %[[CE]], %[[AB]]

// tt.maximum/tt.minimum fold with Triton's rule: by default a NaN operand is ignored (maxnum),
// with `propagate_nan = all` the result is NaN; +0.0 > -0.0 whichever side it is on.
func.func @nan_maximum() -> (f32, f32, f32, f32) {
  %nan = arith.constant 0x7FC00000 : f32
  %one = arith.constant 1.0 : f32
  %a = tt.maximum %nan, %one : f32
  %b = tt.minimum %one, %nan : f32
  %c = tt.maximum %one, %nan, propagate_nan = all : f32
  %d = tt.minimum %nan, %one, propagate_nan = all : f32
  func.return %a, %b, %c, %d : f32, f32, f32, f32
}
// CHECK-LABEL: func.func @nan_maximum()
// CHECK-NEXT:    %[[A:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[C:.*]] = arith.constant 0x7fc00000 : f32
// CHECK-NEXT:    %[[D:.*]] = arith.constant 0x7fc00000 : f32
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]], %[[D]] : f32, f32, f32, f32

func.func @signed_zero_extrema() -> (f32, f32, f32, f32) {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %a = tt.maximum %nz, %pz : f32
  %b = tt.maximum %pz, %nz, propagate_nan = all : f32
  %c = tt.minimum %pz, %nz : f32
  %d = tt.minimum %nz, %pz, propagate_nan = all : f32
  func.return %a, %b, %c, %d : f32, f32, f32, f32
}
// CHECK-LABEL: func.func @signed_zero_extrema()
// CHECK-NEXT:    %[[A:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[B:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[C:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %[[D:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    func.return %[[A]], %[[B]], %[[C]], %[[D]] : f32, f32, f32, f32

func.func @int_to_float() -> f32 {
  %big = arith.constant 16777217 : i32
  %f = tt.cast %big : i32 -> f32
  func.return %f : f32
}
// CHECK-LABEL: func.func @int_to_float()
// CHECK-NEXT:    %[[F:.*]] = arith.constant 0x4B800000 : f32
// CHECK-NEXT:    func.return %[[F]] : f32
