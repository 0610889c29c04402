// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | filecheck %s --check-prefix=NOCONV

// `tt.broadcast` keeps its operand's layout (each thread reuses the register it has along the
// stretched dimension), and whatever consumes the broadcast follows.

// CHECK-DAG:   #[[ROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG:   #[[COL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG:   #[[TILE:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>

// A loaded 1x64 row broadcast to 16x64: the 16x64 block keeps the row's layout, not the
// default 16x64 one, and so does the add and the store.
func.func @row(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1x64x!tt.ptr<f32>>
  %r = tt.load %xs : tensor<1x64x!tt.ptr<f32>>
  %rb = tt.broadcast %r : tensor<1x64xf32> -> tensor<16x64xf32>
  %s = tt.add %rb, %rb : tensor<16x64xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
  tt.store %os, %s : tensor<16x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @row
// CHECK:         %r = tt.load %xs : tensor<1x64x!tt.ptr<f32>, #[[ROW]]>
// CHECK-NEXT:    %rb = tt.broadcast %r : tensor<1x64xf32, #[[ROW]]> -> tensor<16x64xf32, #[[ROW]]>
// CHECK-NEXT:    %s = tt.add %rb, %rb : tensor<16x64xf32, #[[ROW]]>
// CHECK-NEXT:    %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>, #[[ROW]]>
// CHECK-NEXT:    tt.store %os, %s : tensor<16x64x!tt.ptr<f32>, #[[ROW]]>

// The same for a 16x1 column broadcast to 16x64.
func.func @column(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
  %c = tt.load %xs : tensor<16x1x!tt.ptr<f32>>
  %cb = tt.broadcast %c : tensor<16x1xf32> -> tensor<16x64xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
  tt.store %os, %cb : tensor<16x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @column
// CHECK:         %c = tt.load %xs : tensor<16x1x!tt.ptr<f32>, #[[COL]]>
// CHECK-NEXT:    %cb = tt.broadcast %c : tensor<16x1xf32, #[[COL]]> -> tensor<16x64xf32, #[[COL]]>
// CHECK-NEXT:    %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>, #[[COL]]>
// CHECK-NEXT:    tt.store %os, %cb : tensor<16x64x!tt.ptr<f32>, #[[COL]]>

// A broadcast of a free value (a splat) is free itself: it is built in its user's layout
// (here the default 16x64 layout of the load it is added to).
func.func @free(%x: !tt.ptr<f32>, %f: f32) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<16x64x!tt.ptr<f32>>
  %fs = tt.splat %f : f32 -> tensor<1x64xf32>
  %fb = tt.broadcast %fs : tensor<1x64xf32> -> tensor<16x64xf32>
  %s = tt.mul %v, %fb : tensor<16x64xf32>
  tt.store %xs, %s : tensor<16x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @free
// CHECK:         %v = tt.load %xs : tensor<16x64x!tt.ptr<f32>, #[[TILE]]>
// CHECK-NEXT:    %fs = tt.splat %f : f32 -> tensor<1x64xf32, #[[TILE]]>
// CHECK-NEXT:    %fb = tt.broadcast %fs : tensor<1x64xf32, #[[TILE]]> -> tensor<16x64xf32, #[[TILE]]>
// CHECK-NEXT:    %s = tt.mul %v, %fb : tensor<16x64xf32, #[[TILE]]>
// CHECK-NEXT:    tt.store %xs, %s : tensor<16x64x!tt.ptr<f32>, #[[TILE]]>

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
