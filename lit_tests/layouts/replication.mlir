// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | filecheck %s --check-prefix=NOCONV

// Blocks smaller than the CTA (4 warps = 128 threads) keep a full-size layout: every lane and
// warp still has a place, and the threads beyond the block replicate its elements (the
// lowering wraps their coordinates modulo the shape, see lowering/make-range.mlir). The
// leftover threads go to the fastest dimension (order[0]).

// 16 elements: 32 lanes and 4 warps along the only dimension, 8 copies of every element.
func.func @vector16(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<16x!tt.ptr<f32>>
  tt.store %xs, %v : tensor<16x!tt.ptr<f32>>
  func.return
}

// A single element: every thread holds it.
func.func @vector1(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<1x!tt.ptr<f32>>
  tt.store %xs, %v : tensor<1x!tt.ptr<f32>>
  func.return
}

// 4x4: 4 lanes per row and 4 rows use 16 lanes; the other 16 lanes and all 4 warps replicate
// along the columns (threadsPerWarp = [4, 8], warpsPerCTA = [1, 4]).
func.func @tile4x4(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<4x4x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<4x4x!tt.ptr<i32>>
  tt.store %xs, %v : tensor<4x4x!tt.ptr<i32>>
  func.return
}

// 1x1: everything replicates along the columns.
func.func @tile1x1(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<1x1x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<1x1x!tt.ptr<i32>>
  tt.store %xs, %v : tensor<1x1x!tt.ptr<i32>>
  func.return
}

// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[T4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG:   #[[T1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-LABEL: func.func @vector16
// CHECK:         %v = tt.load %xs : tensor<16x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    tt.store %xs, %v : tensor<16x!tt.ptr<f32>, #[[V]]>
// CHECK-LABEL: func.func @vector1
// CHECK:         %v = tt.load %xs : tensor<1x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    tt.store %xs, %v : tensor<1x!tt.ptr<f32>, #[[V]]>
// CHECK-LABEL: func.func @tile4x4
// CHECK:         %v = tt.load %xs : tensor<4x4x!tt.ptr<i32>, #[[T4]]>
// CHECK-NEXT:    tt.store %xs, %v : tensor<4x4x!tt.ptr<i32>, #[[T4]]>
// CHECK-LABEL: func.func @tile1x1
// CHECK:         %v = tt.load %xs : tensor<1x1x!tt.ptr<i32>, #[[T1]]>
// CHECK-NEXT:    tt.store %xs, %v : tensor<1x1x!tt.ptr<i32>, #[[T1]]>

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
