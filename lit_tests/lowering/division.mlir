// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' -t cuda | filecheck %s --check-prefix=CUDA

// Float division as Triton computes it: tt.div of f32 (`/`, tl.fdiv) is PTX's approximate
// div.full.f32 (llvm.call_intrinsic of NVVM's llvm.nvvm.div.full), per register on blocks;
// tt.precise_divf (tl.div_rn, tl.fdiv(..., ieee_rounding=True)) stays IEEE arith.divf
// (div.rn.f32), and so does tt.div of f64 and of the halves tl.fdiv divides in their own
// dtype (f16 natively, bf16 through f32).
func.func @division(%a: f32, %b: f32, %h: f16, %k: f16, %x: bf16, %y: bf16, %d: f64, %e: f64, %q: !tt.ptr<f32>) {
  %div = tt.div %a, %b : f32
  %rn = tt.precise_divf %a, %b : f32
  %hdiv = tt.div %h, %k : f16
  %hrn = tt.precise_divf %h, %k : f16
  %xdiv = tt.div %x, %y : bf16
  %xrn = tt.precise_divf %x, %y : bf16
  %ddiv = tt.div %d, %e : f64
  %drn = tt.precise_divf %d, %e : f64
  %qs = tt.splat %q : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %v = tt.load %qs : tensor<64x!tt.ptr<f32>>
  %as = tt.splat %a : f32 -> tensor<64xf32>
  %w = tt.div %v, %as : tensor<64xf32>
  %u = tt.precise_divf %w, %v : tensor<64xf32>
  tt.store %qs, %u : tensor<64x!tt.ptr<f32>>
  func.return
}
// (f16 and bf16 parameters travel as f64 and f32: narrowed-param lines come first)
// CHECK:       ^bb0(%a: f32, %b: f32, %h_abi: f64, %k_abi: f64, %x_abi: f32, %y_abi: f32, %d: f64, %e: f64, %q: !llvm.ptr<1>):
// CHECK:         %div = llvm.call_intrinsic "llvm.nvvm.div.full"(%a, %b) : (f32, f32) -> f32
// CHECK-NEXT:    %rn = arith.divf %a, %b : f32
// CHECK-NEXT:    %hdiv = arith.divf %h, %k : f16
// CHECK-NEXT:    %hrn = arith.divf %h, %k : f16
// CHECK-NEXT:    %[[X:.*]] = arith.extf %x : bf16 to f32
// CHECK-NEXT:    %[[Y:.*]] = arith.extf %y : bf16 to f32
// CHECK-NEXT:    %[[XY:.*]] = arith.divf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    %xdiv = arith.truncf %[[XY]] : f32 to bf16
// CHECK-NEXT:    %[[X2:.*]] = arith.extf %x : bf16 to f32
// CHECK-NEXT:    %[[Y2:.*]] = arith.extf %y : bf16 to f32
// CHECK-NEXT:    %[[XY2:.*]] = arith.divf %[[X2]], %[[Y2]] : f32
// CHECK-NEXT:    %xrn = arith.truncf %[[XY2]] : f32 to bf16
// CHECK-NEXT:    %ddiv = arith.divf %d, %e : f64
// CHECK-NEXT:    %drn = arith.divf %d, %e : f64
// CHECK-NEXT:    %v = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_1 = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %w = llvm.call_intrinsic "llvm.nvvm.div.full"(%v, %a) : (f32, f32) -> f32
// CHECK-NEXT:    %w_1 = llvm.call_intrinsic "llvm.nvvm.div.full"(%v_1, %a) : (f32, f32) -> f32
// CHECK-NEXT:    %u = arith.divf %w, %v : f32
// CHECK-NEXT:    %u_1 = arith.divf %w_1, %v_1 : f32
// CHECK-NOT:     div.full

// The CUDA C++: div.full.f32 as inline PTX, the IEEE quotient as C's `/` (nvcc's default
// -prec-div=true: div.rn.f32).
// CUDA:          float [[DIV:div_[0-9]+]];
// CUDA-NEXT:     asm("div.full.f32 %0, %1, %2;" : "=f"([[DIV]]) : "f"(a), "f"(b));
// CUDA-NEXT:     float {{rn_[0-9]+}} = a / b;
// CUDA-NEXT:     mt_half {{hdiv_[0-9]+}} = mt_f2h(mt_h2f({{h_[0-9]+}}) / mt_h2f({{k_[0-9]+}}));
// CUDA:          double {{ddiv_[0-9]+}} = d / e;
// CUDA:          asm("div.full.f32 %0, %1, %2;" : "=f"([[W:w_[0-9]+]]) : "f"([[V:v_[0-9]+]]), "f"(a));
// CUDA:          asm("div.full.f32 %0, %1, %2;"
// CUDA-NEXT:     float {{u_[0-9]+}} = [[W]] / [[V]];
// CUDA-NOT:      div.full
