// RUN: mytriton-opt %s | mytriton-opt | filecheck %s

// The TMA ops of ttg-pipeline (ttg_tma.py): a stage's mbarrier, armed with the stage's bytes,
// a copy of the block at coordinates (outermost first) into a swizzled tile (whose rows
// rotate: with the tensor's rows), the wait on the barrier's phase, and the barrier's end.
func.func @stage(%map: !tt.ptr<i8>, %r: i32, %c: i32, %pred: i1, %phase: i32, %rows: i32) {
  %bars = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #ttg.shared<{order = [0]}>>
  %tiles = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 16}>>
  %i = arith.constant 0 : i32
  %bar = ttg.memdesc_index %bars, %i : !ttg.memdesc<3x1xi64, #ttg.shared<{order = [0]}>> -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  %tile = ttg.memdesc_index %tiles, %i : !ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 16}>> -> !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 16}>>
  ttg.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  ttg.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  ttg.async_tma_copy_global_to_local %map[%r, %c] %tile, %bar, %pred rows %rows : !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 16}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  ttg.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  ttg.inval_barrier %bar : !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK-LABEL: func.func @stage(
// CHECK:         ttg.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #ttg.shared<{order = [0], pad = 0}>>
// CHECK-NEXT:    ttg.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #ttg.shared<{order = [0], pad = 0}>>
// CHECK-NEXT:    ttg.async_tma_copy_global_to_local %map[%r, %c] %tile, %bar, %pred rows %rows : !ttg.memdesc<128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 16}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0], pad = 0}>>
// CHECK-NEXT:    ttg.wait_barrier %bar, %phase : !ttg.memdesc<1xi64, #ttg.shared<{order = [0], pad = 0}>>
// CHECK-NEXT:    ttg.inval_barrier %bar : !ttg.memdesc<1xi64, #ttg.shared<{order = [0], pad = 0}>>
