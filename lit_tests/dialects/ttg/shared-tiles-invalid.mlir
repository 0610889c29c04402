// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @rank() {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<2x3x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: a 2-d shared layout needs a 2-d tile, optionally stacked: got shape [2, 3, 64, 16]

// -----

func.func @index_other_tile(%i: i32) {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  %tile = ttg.memdesc_index %buf, %i : !ttg.memdesc<2x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>> -> !ttg.memdesc<64x32xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: ttg.memdesc_index: the result must be one tile of the source

// -----

func.func @copy_shape(%p: tensor<32x16x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  ttg.async_copy_global_to_local %p, %buf : tensor<32x16x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>, !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: ttg.async_copy_global_to_local: the pointer block must be a block of shape [64, 16]

// -----

func.func @copy_pointee(%p: tensor<64x16x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  ttg.async_copy_global_to_local %p, %buf : tensor<64x16x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>, !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: ttg.async_copy_global_to_local: the pointers must point to f16, the tile's elements

// -----

func.func @copy_stacked(%p: tensor<64x16x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<2x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  ttg.async_copy_global_to_local %p, %buf : tensor<64x16x!tt.ptr<f16>, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>, !ttg.memdesc<2x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: ttg.async_copy_global_to_local: the destination must be one tile

// -----

func.func @wait() {
  ttg.async_wait {num = -1 : i32}
  func.return
}
// CHECK: ttg.async_wait: num must be >= 0

// -----

func.func @load_type() {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  %v = ttg.local_load %buf : !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>> -> tensor<64x16xf32, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>
  func.return
}
// CHECK: ttg.local_load: the result must hold the tile's f16

// -----

func.func @load_layout() {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  %v = ttg.local_load %buf : !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>> -> tensor<64x16xf16>
  func.return
}
// CHECK: ttg.local_load: the result needs a layout of the block's rank

// -----

func.func @alloc_from_other_shape(%v: tensor<32x16xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  %buf = ttg.local_alloc %v : (tensor<32x16xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: ttg.local_alloc: the source must be a block of shape [64, 16]

// -----

func.func @alloc_stacked_from_block(%v: tensor<64x16xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  %buf = ttg.local_alloc %v : (tensor<64x16xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>) -> !ttg.memdesc<2x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  func.return
}
// CHECK: ttg.local_alloc: a buffer made from a block must be one tile
