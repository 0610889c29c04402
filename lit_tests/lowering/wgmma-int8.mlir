// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// A 64 x 128 x 64 int8 dot into int32 on sm_90 as s8 warpgroup MMAs (dot_wgmma.py), staged as
// the fp8 one of wgmma-fp8.mlir (both tiles K-major in one byte buffer: the instruction reads
// 8-bit operands K-major only): four m64n64k32 MMAs (typeA = typeB = s8, typeD = s32, wrapping
// on overflow, layoutB = col), the accumulator struct of i32 fields.
func.func @dot(%a: !tt.ptr<i8>, %b: !tt.ptr<i8>, %c: !tt.ptr<i32>) {
  %as = tt.splat %a : !tt.ptr<i8> -> tensor<64x128x!tt.ptr<i8>>
  %bs = tt.splat %b : !tt.ptr<i8> -> tensor<128x64x!tt.ptr<i8>>
  %av = tt.load %as : tensor<64x128x!tt.ptr<i8>>
  %bv = tt.load %bs : tensor<128x64x!tt.ptr<i8>>
  %zero = tt.zeros : tensor<64x64xi32>
  %d = tt.dot %av, %bv, %zero : tensor<64x128xi8> * tensor<128x64xi8> -> tensor<64x64xi32>
  %cs = tt.splat %c : !tt.ptr<i32> -> tensor<64x64x!tt.ptr<i32>>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<i32>>
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
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A_DESC]], %[[B_DESC]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 32>, typeA = #nvvm.wgmma_type<s8>, typeB = #nvvm.wgmma_type<s8>, typeD = #nvvm.wgmma_type<s32>, {{.*}}layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, satfinite = #nvvm.mma_int_overflow<wrapped>}> : (!llvm.struct<(i32,
// CHECK-NEXT:  %[[B1:.*]] = "arith.addi"(%[[B_DESC]], %[[STEP]])
// CHECK-NEXT:  %[[A1:.*]] = "arith.addi"(%[[A_DESC]], %[[STEP]])
// CHECK-NEXT:  "nvvm.wgmma.mma_async"(%{{.*}}, %[[A1]], %[[B1]]) <{shape = #nvvm.shape<m = 64, n = 64, k = 32>, typeA = #nvvm.wgmma_type<s8>
// CHECK-COUNT-2: "nvvm.wgmma.mma_async"
// CHECK-NEXT:  "nvvm.wgmma.commit.group.sync.aligned"()
// CHECK-NEXT:  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
