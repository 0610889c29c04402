// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// Every #ttg.blocked list has one entry per dimension...
func.func @rank_mismatch(%x: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32, 1], warpsPerCTA = [4], order = [0]}>>) {
  func.return
}
// CHECK: #ttg.blocked: threadsPerWarp must have 1 entries

// -----

func.func @warps_rank(%x: tensor<4x4xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4], order = [1, 0]}>>) {
  func.return
}
// CHECK: #ttg.blocked: warpsPerCTA must have 2 entries

// -----

// ... the order is a permutation of the dimensions...
func.func @order(%x: tensor<4x4xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>>) {
  func.return
}
// CHECK: #ttg.blocked: order must be a permutation of the dimensions

// -----

// ... a warp has exactly 32 lanes...
func.func @lanes(%x: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>>) {
  func.return
}
// CHECK: #ttg.blocked: threadsPerWarp must multiply to 32

// -----

// ... and every count is a power of two (so coordinates are bit fields of the thread id).
func.func @power_of_two(%x: tensor<16xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  func.return
}
// CHECK: #ttg.blocked: every entry must be a power of two

// -----

func.func @zero_warps(%x: tensor<4x4xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [0, 1], order = [1, 0]}>>) {
  func.return
}
// CHECK: #ttg.blocked: every entry must be a power of two

// -----

// The four lists come in order, with their names.
func.func @missing(%x: tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32]}>>) {
  func.return
}
// CHECK: Expected ','

// -----

// A slice removes an existing dimension of a layout.
func.func @slice_dim(%x: tensor<16xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>}>>) {
  func.return
}
// CHECK: #ttg.slice: dim out of range for the parent layout

// -----

func.func @slice_parent(%x: tensor<16xf32, #ttg.slice<{dim = 0, parent = #ttg.shared<{order = [1, 0]}>}>>) {
  func.return
}
// CHECK: #ttg.slice: parent must be a layout

// -----

// ttg.convert_layout moves data between threads; it keeps the shape and element type...
func.func @convert_shape(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  %b = tt.load %a : tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  %c = ttg.convert_layout %b : tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>> -> tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>
  func.return
}
// CHECK: Operation does not verify: ttg.convert_layout: shape and element type must not change

// -----

func.func @convert_element(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  %b = tt.load %a : tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  %c = ttg.convert_layout %b : tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>> -> tensor<32xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>
  func.return
}
// CHECK: Operation does not verify: ttg.convert_layout: shape and element type must not change

// -----

// ... and needs a layout of the block's rank on both sides.
func.func @convert_no_layout(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %b = tt.load %a : tensor<32x!tt.ptr<f32>>
  %c = ttg.convert_layout %b : tensor<32xf32> -> tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>>
  func.return
}
// CHECK: Operation does not verify: ttg.convert_layout: operand and result need layouts of the block's rank

// -----

func.func @convert_rank(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  %b = tt.load %a : tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  %c = ttg.convert_layout %b : tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>> -> tensor<32xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>>
  func.return
}
// CHECK: Operation does not verify: ttg.convert_layout: operand and result need layouts of the block's rank
