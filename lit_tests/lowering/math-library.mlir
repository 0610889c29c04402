// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// The math-library ops (tl.erf, tl.fma, libdevice.*) -> one upstream math op each; trunc is
// copysign(floor(|x|), x) (upstream's GPU-to-NVVM leaves math.trunc unlowered); f16 operands
// are computed in f32 and rounded. tl.umulhi on i32 is the high word of the i64 product.
func.func @math_library(%a: f32, %b: f32, %c: f32, %h: f16, %k: f16, %i: i32, %j: i32) {
  %tanh = tt.tanh %a : f32
  %erf = tt.erf %a : f32
  %round = tt.round %a : f32
  %rint = tt.rint %a : f32
  %cbrt = tt.cbrt %a : f32
  %trunc = tt.trunc %a : f32
  %pow = tt.pow %a, %b : f32
  %atan2 = tt.atan2 %a, %b : f32
  %copysign = tt.copysign %a, %b : f32
  %fma = tt.fma %a, %b, %c : f32
  %htanh = tt.tanh %h : f16
  %hpow = tt.pow %h, %k : f16
  %hfma = tt.fma %h, %k, %h : f16
  %hi = tt.umulhi %i, %j : i32
  func.return
}
// (f16 and bf16 parameters travel as f64 and f32: narrowed-param lines come first)
// CHECK:       ^bb0(%a: f32, %b: f32, %c: f32, %h_abi: f64, %k_abi: f64, %i: i32, %j: i32):
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : i64
// CHECK:         %tanh = math.tanh %a : f32
// CHECK-NEXT:    %erf = math.erf %a : f32
// CHECK-NEXT:    %round = math.round %a : f32
// CHECK-NEXT:    %rint = math.roundeven %a : f32
// CHECK-NEXT:    %cbrt = math.cbrt %a : f32
// CHECK-NEXT:    %[[MAG:.*]] = math.absf %a : f32
// CHECK-NEXT:    %[[FLOOR:.*]] = math.floor %[[MAG]] : f32
// CHECK-NEXT:    %trunc = math.copysign %[[FLOOR]], %a : f32
// CHECK-NEXT:    %pow = math.powf %a, %b : f32
// CHECK-NEXT:    %atan2 = math.atan2 %a, %b : f32
// CHECK-NEXT:    %copysign = math.copysign %a, %b : f32
// CHECK-NEXT:    %fma = math.fma %a, %b, %c : f32
// CHECK-NEXT:    %[[HW:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[HT:.*]] = math.tanh %[[HW]] : f32
// CHECK-NEXT:    %htanh = arith.truncf %[[HT]] : f32 to f16
// CHECK-NEXT:    %[[PX:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[PY:.*]] = arith.extf %k : f16 to f32
// CHECK-NEXT:    %[[P:.*]] = math.powf %[[PX]], %[[PY]] : f32
// CHECK-NEXT:    %hpow = arith.truncf %[[P]] : f32 to f16
// CHECK-NEXT:    %[[FX:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[FY:.*]] = arith.extf %k : f16 to f32
// CHECK-NEXT:    %[[FZ:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[F:.*]] = math.fma %[[FX]], %[[FY]], %[[FZ]] : f32
// CHECK-NEXT:    %hfma = arith.truncf %[[F]] : f32 to f16
// CHECK-NEXT:    %[[WI:.*]] = arith.extui %i : i32 to i64
// CHECK-NEXT:    %[[WJ:.*]] = arith.extui %j : i32 to i64
// CHECK-NEXT:    %[[PR:.*]] = arith.muli %[[WI]], %[[WJ]] : i64
// CHECK-NEXT:    %[[SH:.*]] = arith.shrui %[[PR]], %[[C32]] : i64
// CHECK-NEXT:    %hi = arith.trunci %[[SH]] : i64 to i32
