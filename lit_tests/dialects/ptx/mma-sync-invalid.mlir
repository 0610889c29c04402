// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_fp8(%a: i32, %b: i32, %c: f32) {
  %0 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %b, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<s8>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: ptx.mma.sync: A and B must be e4m3 or e5m2 (nvvm.mma.sync has the other types), not e4m3 and s8

// -----

func.func @shape(%a: i32, %b: i32, %c: f32) {
  %0 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %b, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e5m2>, multiplicandBPtxType = #nvvm.mma_type<e5m2>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: ptx.mma.sync: fp8 operands need shape m16n8k32

// -----

func.func @b_registers(%a: i32, %b: i32, %c: f32) {
  %0 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %c, %c, %c, %c) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, operandSegmentSizes = array<i32: 4, 1, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}> : (i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: ptx.mma.sync: fp8 needs 2 B operands of i32

// -----

func.func @overflow(%a: i32, %b: i32, %c: f32) {
  %0 = "ptx.mma.sync"(%a, %a, %a, %a, %b, %b, %c, %c, %c, %c) <{intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<e4m3>, multiplicandBPtxType = #nvvm.mma_type<e4m3>, operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 32>}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: ptx.mma.sync: intOverflowBehavior is for integer forms only
