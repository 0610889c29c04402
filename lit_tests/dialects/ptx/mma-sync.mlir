// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// ptx.mma.sync: the fp8 warp MMA upstream's nvvm.mma.sync lacks, with its operands and
// properties; A and B e4m3 or e5m2 each, four f32 accumulators.
func.func @fp8(%a: i32, %b: i32, %c: f32) {
  %0 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %b, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  %1 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %b, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e5m2>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK-LABEL: func.func @fp8(
// CHECK-NEXT:    %0 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %b, %c, %c, %c, %c) <{{{.*}}multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>{{.*}}}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %1 = "ptx.mma.sync"({{.*}}multiplicandAPtxType = #nvvm.mma_type<e5m2>, multiplicandBPtxType = #nvvm.mma_type<e4m3>
// CHECK-NEXT:    func.return
