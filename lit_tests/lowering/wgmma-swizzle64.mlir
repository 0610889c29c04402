// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// A 64 x 32 x 64 f16 dot on sm_90 (BLOCK_K = 32: half a 128-byte row) as warpgroup MMAs: A in
// 64-byte swizzled rows, its descriptor in swizzle mode 2 (bits 62-63) with LBO 16 (unused)
// and its 8-row groups 512 bytes apart (SBO): 2^63 + (512 >> 4) << 32 + (16 >> 4) << 16, as an
// i64 -9223371899415756800; B (N-major, 128-byte rows along N) 64 x 32 x 2 = 4096 bytes on,
// mode 1, LBO 32 rows x 128 bytes = 4096, SBO 1024. Two m64n64k16 MMAs, the second A 32
// bytes (+2 >> 4) and B 16 rows (2048 bytes: +128) further.
func.func @dot(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %av = tt.load %as : tensor<64x32x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<32x64x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<64x64xf32>
  %d = tt.dot %av, %bv, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<4096xf16, 3 : i64>, initial_value, sym_visibility = "private", alignment = 1024 : i64}>
// CHECK:       %[[A_FIELDS:.*]] = "arith.constant"() <{value = -9223371899415756800 : i64}>
// CHECK-NEXT:  %[[A_DESC:.*]] = "arith.ori"(%{{.*}}, %[[A_FIELDS]])
// CHECK-NEXT:  "arith.constant"() <{value = 4096 : i64}>
// CHECK:       %[[B_FIELDS:.*]] = "arith.constant"() <{value = 4611686293322072064 : i64}>
// CHECK-NEXT:  %[[B_DESC:.*]] = "arith.ori"(%{{.*}}, %[[B_FIELDS]])
// CHECK-NEXT:  %[[B_STEP:.*]] = "arith.constant"() <{value = 128 : i64}>
// CHECK-NEXT:  %[[A_STEP:.*]] = "arith.constant"() <{value = 2 : i64}>
// CHECK:       "nvvm.wgmma.fence.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A_DESC]], %[[B_DESC]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 16>
// CHECK-NEXT:  %[[B1:.*]] = "arith.addi"(%[[B_DESC]], %[[B_STEP]])
// CHECK-NEXT:  %[[A1:.*]] = "arith.addi"(%[[A_DESC]], %[[A_STEP]])
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A1]], %[[B1]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 16>
// CHECK-NEXT:  "nvvm.wgmma.commit.group.sync.aligned"()
