// RUN: mytriton-opt %s | filecheck %s
// RUN: mytriton-opt %s | mytriton-opt | filecheck %s

// The wgmma tile encoding round-trips (128- and 64-byte rows); stacked pipeline stages of it are 1024-byte aligned
// tiles (a 64 x 64 f16 tile is 8 KiB: no padding between stages).
func.func @tiles() {
  %a = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>
  %b = ttg.local_alloc : () -> !ttg.memdesc<64x256xbf16, #ttg.nvmma_shared<{order = [1, 0]}>>
  %c = ttg.local_alloc : () -> !ttg.memdesc<3x128x32xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 64, rotate = 8}>>
  func.return
}
// CHECK-LABEL: func.func @tiles
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<64x256xbf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<3x128x32xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 64, rotate = 8}>>
