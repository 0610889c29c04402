// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// A 64 x 32 x 64 tf32 dot on sm_90 as warpgroup MMAs (dot_wgmma.py): K = 32 f32 elements is one
// 128-byte swizzled row, and the instruction reads 32-bit operands K-major only, so B is staged
// K-contiguous too (its registers, loaded N-contiguous, stored transposed). Both descriptors
// have A's fields (LBO 16, unused; SBO 1024; 128-byte swizzle: 0x4000004000010000); B starts
// 64 x 32 x 4 = 8192 bytes into the staging buffer. Four m64n64k8 MMAs (typeA = typeB = tf32,
// layoutB = col), the K step 8 elements = 32 bytes further in both descriptors (+2 >> 4).
func.func @dot(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %av = tt.load %as : tensor<64x32x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<32x64x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<64x64xf32>
  %d = tt.dot %av, %bv, %zero {input_precision = "tf32"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<4096xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 1024 : i64}>
// CHECK:       %[[FIELDS:.*]] = "arith.constant"() <{value = 4611686293305360384 : i64}>
// CHECK-NEXT:  %[[A_DESC:.*]] = "arith.ori"(%{{.*}}, %[[FIELDS]])
// CHECK-NEXT:  "arith.constant"() <{value = 8192 : i64}>
// CHECK:       %[[B_DESC:.*]] = "arith.ori"(%{{.*}}, %[[FIELDS]])
// CHECK-NEXT:  %[[STEP:.*]] = "arith.constant"() <{value = 2 : i64}>
// CHECK:       "memref.store"
// CHECK:       "nvvm.fence.proxy"()
// CHECK-NEXT:  "gpu.barrier"()
// CHECK:       "nvvm.wgmma.fence.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A_DESC]], %[[B_DESC]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 8>, typeA = #nvvm.wgmma_type<tf32>, typeB = #nvvm.wgmma_type<tf32>, typeD = #nvvm.wgmma_type<f32>, {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-NEXT:  %[[B1:.*]] = "arith.addi"(%[[B_DESC]], %[[STEP]])
// CHECK-NEXT:  %[[A1:.*]] = "arith.addi"(%[[A_DESC]], %[[STEP]])
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A1]], %[[B1]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 8>, typeA = #nvvm.wgmma_type<tf32>
// CHECK-COUNT-2: "nvvm.wgmma.mma_async"({{.*}}) <{shape = #nvvm.shape<m = 64, n = 64, k = 8>
// CHECK-NEXT:  "nvvm.wgmma.commit.group.sync.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
