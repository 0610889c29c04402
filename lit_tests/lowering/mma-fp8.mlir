// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=1 capability=89},tt-legalize-fp8-dots,tt-assign-layouts{num_warps=1 capability=89},tt-lower-to-gpu' | filecheck %s

// A 16 x 32 x 16 fp8e4nv x fp8e5 dot on sm_89 (one warp: no warpgroup) as fp8 warp MMAs
// (ptx.mma.sync, m16n8k32 e4m3.e5m2): both operands staged K-contiguous as bytes (rows of 32 +
// 16 padding: A 16 x 48, then B^T 16 x 48 = 1536 bytes), read with untransposed ldmatrix (the
// 16-bit matrices hold byte pairs: the s8 fragments), one MMA per 16 x 8 tile of the K step.
func.func @dot(%a: !tt.ptr<f8E4M3FN>, %b: !tt.ptr<f8E5M2>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<16x32x!tt.ptr<f8E4M3FN>>
  %bs = tt.splat %b : !tt.ptr<f8E5M2> -> tensor<32x16x!tt.ptr<f8E5M2>>
  %av = tt.load %as : tensor<16x32x!tt.ptr<f8E4M3FN>>
  %bv = tt.load %bs : tensor<32x16x!tt.ptr<f8E5M2>>
  %zero = tt.zeros : tensor<16x16xf32>
  %d = tt.dot %av, %bv, %zero : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<1536xi8, 3 : i64>
// CHECK:       "gpu.barrier"() : () -> ()
// CHECK-NEXT:  scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
// CHECK:         llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    "nvvm.ldmatrix"(%{{.*}}) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:         llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    "nvvm.ldmatrix"(%{{.*}}) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK:         "ptx.mma.sync"({{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 32>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e5m2>, operandSegmentSizes = array<i32: 4, 2, 4>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         "ptx.mma.sync"
// CHECK-NOT:     "nvvm.mma.sync"
// CHECK:         scf.yield
