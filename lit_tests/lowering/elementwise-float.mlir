// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Float binary ops -> arith (the remainder is our arith.remf: C's fmodf; f32 division is PTX's
// div.full.f32: division.mlir), and the float unary ops -> math (negation is arith.negf; exp,
// exp2, sqrt and rsqrt are PTX's approximate instructions: approximate-math.mlir),
// on scalars and per register on blocks. maximum and minimum are in maximum-minimum.mlir,
// casts in cast.mlir.
func.func @float_ops(%a: f32, %b: f32, %q: !tt.ptr<f32>) {
  %add = tt.add %a, %b : f32
  %sub = tt.sub %a, %b : f32
  %mul = tt.mul %a, %b : f32
  %div = tt.div %a, %b : f32
  %rem = tt.rem %a, %b : f32
  %neg = tt.neg %a : f32
  %abs = tt.abs %a : f32
  %exp = tt.exp %a : f32
  %exp2 = tt.exp2 %a : f32
  %log = tt.log %a : f32
  %log2 = tt.log2 %a : f32
  %sqrt = tt.sqrt %a : f32
  %rsqrt = tt.rsqrt %a : f32
  %sin = tt.sin %a : f32
  %cos = tt.cos %a : f32
  %floor = tt.floor %a : f32
  %ceil = tt.ceil %a : f32
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v = tt.load %qs : tensor<64x!tt.ptr<f32>>
  %w = tt.exp %v : tensor<64xf32>
  %z = tt.div %w, %v : tensor<64xf32>
  tt.store %qs, %z : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK:       ^bb0(%a: f32, %b: f32, %q: !llvm.ptr<1>):
// CHECK-NEXT:    %[[LOG2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT:    %add = arith.addf %a, %b : f32
// CHECK-NEXT:    %sub = arith.subf %a, %b : f32
// CHECK-NEXT:    %mul = arith.mulf %a, %b : f32
// CHECK-NEXT:    %div = llvm.call_intrinsic "llvm.nvvm.div.full"(%a, %b) : (f32, f32) -> f32
// CHECK-NEXT:    %rem = arith.remf %a, %b : f32
// CHECK-NEXT:    %neg = arith.negf %a : f32
// CHECK-NEXT:    %abs = math.absf %a : f32
// CHECK-NEXT:    %[[X:.*]] = arith.mulf %a, %[[LOG2E]] : f32
// CHECK-NEXT:    %exp = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[X]]) : (f32) -> f32
// CHECK-NEXT:    %exp2 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %log = math.log %a : f32
// CHECK-NEXT:    %log2 = math.log2 %a : f32
// CHECK-NEXT:    %sqrt = llvm.call_intrinsic "llvm.nvvm.sqrt.approx.ftz.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %rsqrt = llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.ftz.f"(%a) : (f32) -> f32
// CHECK-NEXT:    %sin = math.sin %a : f32
// CHECK-NEXT:    %cos = math.cos %a : f32
// CHECK-NEXT:    %floor = math.floor %a : f32
// CHECK-NEXT:    %ceil = math.ceil %a : f32
// CHECK-NEXT:    %v = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_1 = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[V:.*]] = arith.mulf %v, %[[LOG2E]] : f32
// CHECK-NEXT:    %w = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[V]]) : (f32) -> f32
// CHECK-NEXT:    %[[V1:.*]] = arith.mulf %v_1, %[[LOG2E]] : f32
// CHECK-NEXT:    %w_1 = llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"(%[[V1]]) : (f32) -> f32
// CHECK-NEXT:    %z = llvm.call_intrinsic "llvm.nvvm.div.full"(%w, %v) : (f32, f32) -> f32
// CHECK-NEXT:    %z_1 = llvm.call_intrinsic "llvm.nvvm.div.full"(%w_1, %v_1) : (f32, f32) -> f32
// CHECK-NEXT:    llvm.store %z, %q : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %z_1, %q : f32, !llvm.ptr<1>
