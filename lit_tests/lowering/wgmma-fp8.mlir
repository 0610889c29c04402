// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-legalize-fp8-dots,tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// A 64 x 128 x 64 fp8e4nv dot on sm_90 as fp8 warpgroup MMAs (dot_wgmma.py): K = 128 bytes is
// one 128-byte swizzled row; the instruction reads 8-bit operands K-major only, so B is staged
// K-contiguous (its registers, loaded N-contiguous, stored transposed), both descriptors with
// A's fields (LBO 16, unused; SBO 1024; 128-byte swizzle: 0x4000004000010000). The staging
// buffer holds bytes (an fp8 lives in its byte); B starts 64 x 128 = 8192 bytes in. Four
// m64n64k32 MMAs (typeA = typeB = e4m3, layoutB = col), each K step 32 bytes further in both
// descriptors (+2 >> 4).
func.func @dot(%a: !tt.ptr<f8E4M3FN>, %b: !tt.ptr<f8E4M3FN>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<64x128x!tt.ptr<f8E4M3FN>>
  %bs = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<128x64x!tt.ptr<f8E4M3FN>>
  %av = tt.load %as : tensor<64x128x!tt.ptr<f8E4M3FN>>
  %bv = tt.load %bs : tensor<128x64x!tt.ptr<f8E4M3FN>>
  %zero = tt.zeros : tensor<64x64xf32>
  %d = tt.dot %av, %bv, %zero : tensor<64x128xf8E4M3FN> * tensor<128x64xf8E4M3FN> -> tensor<64x64xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<16384xi8, 3 : i64>, initial_value, sym_visibility = "private", alignment = 1024 : i64}>
// CHECK:       %[[FIELDS:.*]] = "arith.constant"() <{value = 4611686293305360384 : i64}>
// CHECK-NEXT:  %[[A_DESC:.*]] = "arith.ori"(%{{.*}}, %[[FIELDS]])
// CHECK-NEXT:  "arith.constant"() <{value = 8192 : i64}>
// CHECK:       %[[B_DESC:.*]] = "arith.ori"(%{{.*}}, %[[FIELDS]])
// CHECK-NEXT:  %[[STEP:.*]] = "arith.constant"() <{value = 2 : i64}>
// CHECK:       "memref.store"(%{{.*}}) : (i8, memref<16384xi8, 3 : i64>, index) -> ()
// CHECK:       "nvvm.fence.proxy"()
// CHECK-NEXT:  "gpu.barrier"()
// CHECK:       "nvvm.wgmma.fence.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A_DESC]], %[[B_DESC]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 32>, typeA = #nvvm.wgmma_type<e4m3>, typeB = #nvvm.wgmma_type<e4m3>, typeD = #nvvm.wgmma_type<f32>, {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-NEXT:  %[[B1:.*]] = "arith.addi"(%[[B_DESC]], %[[STEP]])
// CHECK-NEXT:  %[[A1:.*]] = "arith.addi"(%[[A_DESC]], %[[STEP]])
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A1]], %[[B1]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 32>, typeA = #nvvm.wgmma_type<e4m3>
// CHECK-COUNT-2: "nvvm.wgmma.mma_async"
// CHECK-NEXT:  "nvvm.wgmma.commit.group.sync.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
