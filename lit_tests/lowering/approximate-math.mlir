// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

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
// CHECK:       ^bb0(%a: f32, %h: f16, %b: bf16, %d: f64, %q: !llvm.ptr<1>):
// CHECK-NEXT:    %e = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a) : (f32) -> f32
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
