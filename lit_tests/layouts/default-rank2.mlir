// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1}' | %{aliases} | filecheck %s --check-prefix=W1
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s --check-prefix=W4
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=8}' | %{aliases} | filecheck %s --check-prefix=W8
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=8}' | filecheck %s --check-prefix=NOCONV

// The default layout of rank-2 loads and stores: row-major (order = [1, 0]), one element per
// thread per tile; the 32 lanes fill the fastest dimension first (up to its size), then the
// next; warps do the same with what the lanes left over. Threads left over once the block is
// covered replicate it along the fastest dimension (see replication.mlir).

// 32x64: a warp covers a row-segment of 32 columns; 2 warps cover the 64 columns, further
// warps go down the rows.
func.func @wide(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<32x64x!tt.ptr<f32>>
  tt.store %xs, %v : tensor<32x64x!tt.ptr<f32>>
  func.return
}

// 64x16: 16 lanes along a row, 2 rows per warp; every warp goes down the rows.
func.func @narrow(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<64x16x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<64x16x!tt.ptr<i32>>
  tt.store %xs, %v : tensor<64x16x!tt.ptr<i32>>
  func.return
}

// 16x8: 8 lanes along a row, 4 rows per warp; 4 warps cover the 16 rows, with 8 warps the
// last 2 replicate along the columns.
func.func @small(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<16x8x!tt.ptr<f32>>
  tt.store %xs, %v : tensor<16x8x!tt.ptr<f32>>
  func.return
}

// W1-DAG:   #[[WIDE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-DAG:   #[[NARROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-DAG:   #[[SMALL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
// W1-LABEL: func.func @wide
// W1:         %v = tt.load %xs : tensor<32x64x!tt.ptr<f32>, #[[WIDE]]>
// W1-NEXT:    tt.store %xs, %v : tensor<32x64x!tt.ptr<f32>, #[[WIDE]]>
// W1-LABEL: func.func @narrow
// W1:         %v = tt.load %xs : tensor<64x16x!tt.ptr<i32>, #[[NARROW]]>
// W1-NEXT:    tt.store %xs, %v : tensor<64x16x!tt.ptr<i32>, #[[NARROW]]>
// W1-LABEL: func.func @small
// W1:         %v = tt.load %xs : tensor<16x8x!tt.ptr<f32>, #[[SMALL]]>
// W1-NEXT:    tt.store %xs, %v : tensor<16x8x!tt.ptr<f32>, #[[SMALL]]>

// W4-DAG:   #[[WIDE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// W4-DAG:   #[[NARROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG:   #[[SMALL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-LABEL: func.func @wide
// W4:         %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>, #[[WIDE]]>
// W4-NEXT:    %v = tt.load %xs : tensor<32x64x!tt.ptr<f32>, #[[WIDE]]>
// W4-NEXT:    tt.store %xs, %v : tensor<32x64x!tt.ptr<f32>, #[[WIDE]]>
// W4-LABEL: func.func @narrow
// W4:         %v = tt.load %xs : tensor<64x16x!tt.ptr<i32>, #[[NARROW]]>
// W4-LABEL: func.func @small
// W4:         %v = tt.load %xs : tensor<16x8x!tt.ptr<f32>, #[[SMALL]]>

// W8-DAG:   #[[WIDE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
// W8-DAG:   #[[NARROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8-DAG:   #[[SMALL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 2], order = [1, 0]}>
// W8-LABEL: func.func @wide
// W8:         %v = tt.load %xs : tensor<32x64x!tt.ptr<f32>, #[[WIDE]]>
// W8-LABEL: func.func @narrow
// W8:         %v = tt.load %xs : tensor<64x16x!tt.ptr<i32>, #[[NARROW]]>
// W8-LABEL: func.func @small
// W8:         %v = tt.load %xs : tensor<16x8x!tt.ptr<f32>, #[[SMALL]]>

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
