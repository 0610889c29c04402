// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tl.exp2 as Triton computes it: PTX ex2.approx.ftz.f32 (llvm.call_intrinsic of NVVM's
// intrinsic), f16 and bf16 through f32 and rounded once, per register on blocks; f64 keeps
// math.exp2 (the math library's exp2).
func.func @exp2(%a: f32, %h: f16, %b: bf16, %d: f64, %q: !tt.ptr<f32>) {
  %e = tt.exp2 %a : f32
  %eh = tt.exp2 %h : f16
  %eb = tt.exp2 %b : bf16
  %ed = tt.exp2 %d : f64
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v = tt.load %qs : tensor<64x!tt.ptr<f32>>
  %w = tt.exp2 %v : tensor<64xf32>
  tt.store %qs, %w : tensor<64x!tt.ptr<f32>>
  func.return
}
// (f16 and bf16 parameters travel as f64 and f32: narrowed-param lines come first)
// CHECK:       ^bb0(%a: f32, %h_abi: f64, %b_abi: f32, %d: f64, %q: !llvm.ptr<1>):
// CHECK:         %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %[[H:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[EH:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[H]]) : (f32) -> f32
// CHECK-NEXT:    %eh = arith.truncf %[[EH]] : f32 to f16
// CHECK-NEXT:    %[[B:.*]] = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %[[EB:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%[[B]]) : (f32) -> f32
// CHECK-NEXT:    %eb = arith.truncf %[[EB]] : f32 to bf16
// CHECK-NEXT:    %ed = math.exp2 %d : f64
// CHECK-NEXT:    %v = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_1 = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %w = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v) : (f32) -> f32
// CHECK-NEXT:    %w_1 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%v_1) : (f32) -> f32
// CHECK-NEXT:    llvm.store %w, %q : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %w_1, %q : f32, !llvm.ptr<1>

// -----

// tl.exp as Triton computes it (its own lowering, not libdevice's expf): the f32 product by
// log2(e) (0x3FB8AA3B), then ex2.approx.f32, never flushed; halves through f32 and rounded once,
// f64 keeps math.exp. tl.sqrt and tl.rsqrt are sqrt.approx.ftz.f32 and rsqrt.approx.ftz.f32
// (Triton's libdevice, flush-to-zero on), f64 the math library (sqrt.rn.f64, libdevice's
// rsqrt.approx.f64); tt.precise_sqrt (tl.sqrt_rn) is IEEE sqrt.rn.f32, f64 math.sqrt.
func.func @exp_sqrt(%a: f32, %h: f16, %b: bf16, %d: f64) {
  %e = tt.exp %a : f32
  %eh = tt.exp %h : f16
  %eb = tt.exp %b : bf16
  %ed = tt.exp %d : f64
  %s = tt.sqrt %a : f32
  %sh = tt.sqrt %h : f16
  %sd = tt.sqrt %d : f64
  %r = tt.rsqrt %a : f32
  %rb = tt.rsqrt %b : bf16
  %rd = tt.rsqrt %d : f64
  %p = tt.precise_sqrt %a : f32
  %ph = tt.precise_sqrt %h : f16
  %pd = tt.precise_sqrt %d : f64
  func.return
}
// CHECK:       ^bb0(%a: f32, %h_abi: f64, %b_abi: f32, %d: f64):
// CHECK:         %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK:         %[[A:.*]] = arith.mulf %a, %[[LOG2E]] : f32
// CHECK-NEXT:    %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[A]]) : (f32) -> f32
// CHECK-NEXT:    %[[H:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[HL:.*]] = arith.mulf %[[H]], %[[LOG2E]] : f32
// CHECK-NEXT:    %[[EH:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[HL]]) : (f32) -> f32
// CHECK-NEXT:    %eh = arith.truncf %[[EH]] : f32 to f16
// CHECK-NEXT:    %[[B:.*]] = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %[[BL:.*]] = arith.mulf %[[B]], %[[LOG2E]] : f32
// CHECK-NEXT:    %[[EB:.*]] = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[BL]]) : (f32) -> f32
// CHECK-NEXT:    %eb = arith.truncf %[[EB]] : f32 to bf16
// CHECK-NEXT:    %ed = math.exp %d : f64
// CHECK-NEXT:    %s = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %[[SH:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[SH2:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%[[SH]]) : (f32) -> f32
// CHECK-NEXT:    %sh = arith.truncf %[[SH2]] : f32 to f16
// CHECK-NEXT:    %sd = math.sqrt %d : f64
// CHECK-NEXT:    %r = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %[[RB:.*]] = arith.extf %b : bf16 to f32
// CHECK-NEXT:    %[[RB2:.*]] = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"(%[[RB]]) : (f32) -> f32
// CHECK-NEXT:    %rb = arith.truncf %[[RB2]] : f32 to bf16
// CHECK-NEXT:    %rd = math.rsqrt %d : f64
// CHECK-NEXT:    %p = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %[[PH:.*]] = arith.extf %h : f16 to f32
// CHECK-NEXT:    %[[PH2:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[PH]]) : (f32) -> f32
// CHECK-NEXT:    %ph = arith.truncf %[[PH2]] : f32 to f16
// CHECK-NEXT:    %pd = math.sqrt %d : f64

// -----

// enable_reflect_ftz=False: sqrt and rsqrt keep subnormals (sqrt.approx.f32,
// rsqrt.approx.f32); exp is the same ex2.approx.f32 either way; sqrt_rn is sqrt.rn.f32.
module attributes {"mytriton.enable-reflect-ftz" = false} {
  func.func @no_ftz(%a: f32) {
    %e = tt.exp %a : f32
    %s = tt.sqrt %a : f32
    %r = tt.rsqrt %a : f32
    %p = tt.precise_sqrt %a : f32
    func.return
  }
}
// CHECK:       ^bb0(%a: f32):
// CHECK-NEXT:    %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %[[A:.*]] = arith.mulf %a, %[[LOG2E]] : f32
// CHECK-NEXT:    %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[A]]) : (f32) -> f32
// CHECK-NEXT:    %s = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %r = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %p = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%a) : (f32) -> f32
