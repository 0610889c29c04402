// RUN: mytriton-opt %s --split-input-file --verify-diagnostics -p 'tt-assign-layouts' | filecheck %s
// RUN: not mytriton-opt %s --split-input-file -p 'tt-assign-layouts' 2>&1 | filecheck %s --check-prefix=EXIT

// What tt-assign-layouts rejects. Without --verify-diagnostics the first error ends
// mytriton-opt with a one-line message (exit code 2).

// Kernel arguments are scalars and pointers; a block has no layout to start from.
func.func @block_argument(%x: !tt.ptr<f32>, %a: tensor<16xf32>) {
  func.return
}
// CHECK: kernel arguments cannot be blocks
// EXIT: mytriton-opt: error: kernel arguments cannot be blocks

// -----

// Layout conversions are the pass's output, not its input (running it twice on IR that
// needed one is an error).
#v = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#w = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
func.func @convert_before(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #v>
  %b = tt.load %a : tensor<32x!tt.ptr<f32>, #v>
  %c = ttg.convert_layout %b : tensor<32xf32, #v> -> tensor<32xf32, #w>
  %d = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #w>
  tt.store %d, %c : tensor<32x!tt.ptr<f32>, #w>
  func.return
}
// CHECK: ttg.convert_layout before layout assignment

// -----

// Other ops still lay out after an error in an earlier chunk.
func.func @fine(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %b = tt.load %a : tensor<32x!tt.ptr<f32>>
  func.return
}
// CHECK: %b = tt.load %a : tensor<32x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
