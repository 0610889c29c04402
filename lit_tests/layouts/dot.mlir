// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s --check-prefix=W4
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=1},tt-assign-layouts{num_warps=1}' | %{aliases} | filecheck %s --check-prefix=W1

// `tt.dot` produces a register-tile layout: each thread owns a contiguous tm x tn tile of the
// accumulator (as square as possible, at most 8x8), tiles laid out like the default layout.
// Its operands keep their own (load) layouts; the op records how each is staged in shared
// memory: A [M, K] column-major (order = [0, 1], a k step reads a column) with 4 elements of
// padding after each column, B [K, N] row-major (order = [1, 0]) without padding.

func.func @dot16(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>>
  %av = tt.load %as : tensor<16x8x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<8x16x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<16x16xf32>
  %d = tt.dot %av, %bv, %zero : tensor<16x8xf32> * tensor<8x16xf32> -> tensor<16x16xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// 16x16 over 128 threads: 2 elements per thread, a 1x2 tile.
// W4-DAG:   #[[A:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG:   #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG:   #[[C:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG:   #[[C64:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-LABEL: func.func @dot16
// W4:         %av = tt.load %as : tensor<16x8x!tt.ptr<f32>, #[[A]]>
// W4:         %bv = tt.load %bs : tensor<8x16x!tt.ptr<f32>, #[[B]]>
// W4-NEXT:    %zero = tt.zeros : tensor<16x16xf32, #[[C]]>
// W4-NEXT:    %d = tt.dot %av, %bv, %zero {ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0], pad = 0}>} : tensor<16x8xf32, #[[A]]> * tensor<8x16xf32, #[[B]]> -> tensor<16x16xf32, #[[C]]>
// The result is stored in its own layout.
// W4-NEXT:    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #[[C]]>
// W4-NEXT:    tt.store %cs, %d : tensor<16x16x!tt.ptr<f32>, #[[C]]>

// With one warp, 8 elements per thread: a 2x4 tile.
// W1-DAG:   #[[C:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-DAG:   #[[C64:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8, 8], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-LABEL: func.func @dot16
// W1:         %d = tt.dot %av, %bv, %zero {{.*}} -> tensor<16x16xf32, #[[C]]>

// 64x64 over 128 threads: 32 elements per thread, a 4x8 tile; with one warp the tile is capped
// at 8x8 (the rest is covered by repeating the tile).
func.func @dot64(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<64x4x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<4x64x!tt.ptr<f32>>
  %av = tt.load %as : tensor<64x4x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<4x64x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<64x64xf32>
  %d = tt.dot %av, %bv, %zero : tensor<64x4xf32> * tensor<4x64xf32> -> tensor<64x64xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// W4-LABEL: func.func @dot64
// W4:         %zero = tt.zeros : tensor<64x64xf32, #[[C64]]>
// W4-NEXT:    %d = tt.dot %av, %bv, %zero {{.*}} -> tensor<64x64xf32, #[[C64]]>
// W1-LABEL: func.func @dot64
// W1:         %zero = tt.zeros : tensor<64x64xf32, #[[C64]]>
// W1-NEXT:    %d = tt.dot %av, %bv, %zero {{.*}} -> tensor<64x64xf32, #[[C64]]>

// An accumulator that already has a layout (a loaded C) keeps it: the dot accumulates in the
// load's layout (the default 16x16 layout, the same as B's) rather than converting C.
func.func @loaded_acc(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %av = tt.load %as : tensor<16x8x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<8x16x!tt.ptr<f32>>
  %cv = tt.load %cs : tensor<16x16x!tt.ptr<f32>>
  %d = tt.dot %av, %bv, %cv : tensor<16x8xf32> * tensor<8x16xf32> -> tensor<16x16xf32>
  tt.store %cs, %d : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// W4-LABEL: func.func @loaded_acc
// W4:         %cv = tt.load %cs : tensor<16x16x!tt.ptr<f32>, #[[B]]>
// W4-NEXT:    %d = tt.dot %av, %bv, %cv {{.*}} -> tensor<16x16xf32, #[[B]]>
// W4-NEXT:    tt.store %cs, %d : tensor<16x16x!tt.ptr<f32>, #[[B]]>
