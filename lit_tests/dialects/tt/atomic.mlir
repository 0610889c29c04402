// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @atomics(%p: !tt.ptr<f32>, %f: f32, %ps: tensor<64x!tt.ptr<i32>>, %v: tensor<64xi32>, %m: tensor<64xi1>, %u: !tt.ptr<ui64>, %w: ui64, %h: !tt.ptr<f16>, %g: f16) {
  %a = tt.atomic_rmw add, acq_rel, gpu, %p, %f : !tt.ptr<f32>
  %b = tt.atomic_rmw xor, relaxed, cta, %ps, %v, %m : tensor<64x!tt.ptr<i32>>
  %c = tt.atomic_rmw max, release, sys, %u, %w : !tt.ptr<ui64>
  %d = tt.atomic_rmw add, acquire, gpu, %h, %g : !tt.ptr<f16>
  %e = tt.atomic_cas acq_rel, gpu, %ps, %v, %b : tensor<64x!tt.ptr<i32>>
  %k = tt.atomic_cas relaxed, cta, %h, %g, %d : !tt.ptr<f16>
  func.return
}
// CHECK:      %a = tt.atomic_rmw add, acq_rel, gpu, %p, %f : !tt.ptr<f32>
// CHECK-NEXT: %b = tt.atomic_rmw xor, relaxed, cta, %ps, %v, %m : tensor<64x!tt.ptr<i32>>
// CHECK-NEXT: %c = tt.atomic_rmw max, release, sys, %u, %w : !tt.ptr<ui64>
// CHECK-NEXT: %d = tt.atomic_rmw add, acquire, gpu, %h, %g : !tt.ptr<f16>
// CHECK-NEXT: %e = tt.atomic_cas acq_rel, gpu, %ps, %v, %b : tensor<64x!tt.ptr<i32>>
// CHECK-NEXT: %k = tt.atomic_cas relaxed, cta, %h, %g, %d : !tt.ptr<f16>

// GENERIC:      %a = "tt.atomic_rmw"(%p, %f) <{kind = #tt<atomic_kind add>, sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tt.ptr<f32>, f32) -> f32
// GENERIC:      %e = "tt.atomic_cas"(%ps, %v, %b) <{sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>}> : (tensor<64x!tt.ptr<i32>>, tensor<64xi32>, tensor<64xi32>) -> tensor<64xi32>
