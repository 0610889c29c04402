// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @short_rows() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x32xf16, #ttg.nvmma_shared<{order = [1, 0]}>>
  func.return
}
// CHECK: a 128-byte swizzled tile needs its contiguous dimension a multiple of 64 and the other a multiple of 8, got [64, 32]

// -----

func.func @rotate_span() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], rotate = 16}>>
  func.return
}
// CHECK: rotate = 16 needs rows in multiples of 128

// -----

func.func @swizzle() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 32}>>
  func.return
}
// CHECK: #ttg.nvmma_shared: swizzle must be 128 or 64

// -----

func.func @short_rows_of_64_bytes() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 64}>>
  func.return
}
// CHECK: a 64-byte swizzled tile needs its contiguous dimension a multiple of 32 and the other a multiple of 8, got [64, 16]

// -----

func.func @rotate_power() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], rotate = 3}>>
  func.return
}
// CHECK: #ttg.nvmma_shared: rotate must be 0 or a power of two

// -----

func.func @unknown() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: #ttg.nvmma_shared: unknown parameter 'pad'
