// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-legalize-fp8-dots,tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// max_num_imprecise_acc = 64 on a 64 x 128 x 64 fp8 dot (K = 128, four m64n64k32 MMAs): two
// chunks of two MMAs, each chained onto zero accumulators (an fp8 tensor core sums with fewer
// bits than f32), committed, waited for (wait_group 0) and added into the f32 accumulator with
// arith.addf: 32 registers per thread, so 32 adds per chunk.
func.func @dot(%a: !tt.ptr<f8E4M3FN>, %b: !tt.ptr<f8E4M3FN>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<64x128x!tt.ptr<f8E4M3FN>>
  %bs = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
  %av = tt.load %as : tensor<64x128x!tt.ptr<f8E4M3FN>>
  %bv = tt.load %bs : tensor<128x64x!tt.ptr<f8E4M3FN>>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %acc = tt.load %cs : tensor<64x64x!tt.ptr<f32>>
  %d = tt.dot %av, %bv, %acc {max_num_imprecise_acc = 64 : i32} : tensor<64x128xf8E4M3FN> * tensor<128x64xf8E4M3FN> -> tensor<64x64xf32>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       %[[ZERO:.*]] = "arith.constant"() <{value = 0.000000e+00 : f32}>
// CHECK:       "nvvm.wgmma.fence.aligned"()
// CHECK-COUNT-2: "nvvm.wgmma.mma_async"
// CHECK-NOT:   "nvvm.wgmma.mma_async"
// CHECK:       "nvvm.wgmma.commit.group.sync.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
// CHECK-COUNT-32: "arith.addf"
// CHECK-NOT:   "arith.addf"
// CHECK:       "nvvm.wgmma.fence.aligned"()
// CHECK-COUNT-2: "nvvm.wgmma.mma_async"
// CHECK-NOT:   "nvvm.wgmma.mma_async"
// CHECK:       "nvvm.wgmma.commit.group.sync.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
// CHECK-COUNT-32: "arith.addf"
// CHECK-NOT:   "arith.addf"
// CHECK:       "gpu.return"()
