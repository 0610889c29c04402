// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// A 64 x 64 x 64 f16 dot on sm_90, lowered to warpgroup MMAs (dot_wgmma.py). Its operands are
// stored from registers into one 1024-byte aligned staging buffer (A's 4096 elements, then B's),
// swizzled; the writers fence the async proxy before the barrier. The matrix descriptors: the
// buffer's shared address (A from the warpgroup's first row, 8192 bytes per warpgroup), masked
// to 18 bits, >> 4, OR the fields: A LBO 16 (unused), SBO 1024, 128-byte swizzle
// (0x4000004000010000); B (8192 bytes on) LBO 64 rows x 128 bytes = 8192, SBO 1024
// (0x4000004002000000). One wgmma.fence, four m64n64k16 MMAs (one per K step; B N-major:
// layoutB = row), one group, waited for, then the barrier that frees the buffer.
func.func @dot(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %ra = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32>
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %av = tt.load %as : tensor<64x64x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<64x64x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<64x64xf32>
  %d = tt.dot %av, %bv, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<8192xf16, 3 : i64>, initial_value, sym_visibility = "private", alignment = 1024 : i64}>
// CHECK:       %[[ROWS:.*]] = "arith.constant"() <{value = 8192 : i32}>
// CHECK-NEXT:  %[[A_OFF:.*]] = "arith.muli"(%{{.*}}, %[[ROWS]])
// CHECK:       %[[ADDR:.*]] = "memref.extract_aligned_pointer_as_index"
// CHECK-NEXT:  %[[WIDE:.*]] = "arith.index_cast"(%[[ADDR]]) : (index) -> i64
// CHECK:       %[[MASK:.*]] = "arith.constant"() <{value = 262143 : i64}>
// CHECK:       "arith.constant"() <{value = 4611686293305360384 : i64}>
// CHECK:       "arith.constant"() <{value = 8192 : i64}>
// CHECK-NEXT:  "arith.addi"(%[[WIDE]], %{{.*}})
// CHECK:       "arith.constant"() <{value = 4611686293338849280 : i64}>
// CHECK:       "memref.store"
// CHECK:       "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}>
// CHECK-NEXT:  "gpu.barrier"()
// CHECK:       "nvvm.wgmma.fence.aligned"()
// CHECK-COUNT-4: "nvvm.wgmma.mma_async"({{.*}}) <{shape = #nvvm.shape<m = 64, n = 64, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>, typeD = #nvvm.wgmma_type<f32>, {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>
// CHECK-NEXT:  "nvvm.wgmma.commit.group.sync.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
// CHECK-COUNT-32: "llvm.extractvalue"
// CHECK:       "gpu.barrier"()
