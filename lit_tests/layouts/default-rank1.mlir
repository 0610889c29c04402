// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1}' | %{aliases} | filecheck %s --check-prefix=W1
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s --check-prefix=W4
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=8}' | %{aliases} | filecheck %s --check-prefix=W8
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=8}' | filecheck %s --check-prefix=NOCONV

// The default layout of a rank-1 load and store: one element per thread per tile, lanes then
// warps along the only dimension (coalesced); a block larger than the tile (256 or 1024
// elements over 32 * num_warps threads) wraps around, so the layout only depends on num_warps.
// Every block of the kernel gets the same layout: no conversion.
func.func @copy(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  %v = tt.load %p : tensor<256x!tt.ptr<f32>>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %q = tt.addptr %os, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %q, %v : tensor<256x!tt.ptr<f32>>
  func.return
}
// W1:      #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// W1-NOT:  #blocked1
// W1-LABEL: func.func @copy
// W1:        %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
// W1-NEXT:   %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32, #blocked>
// W1-NEXT:   %p = tt.addptr %xs, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
// W1-NEXT:   %v = tt.load %p : tensor<256x!tt.ptr<f32>, #blocked>
// W1-NEXT:   %os = tt.splat %out : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>, #blocked>
// W1-NEXT:   %q = tt.addptr %os, %r : tensor<256x!tt.ptr<f32>, #blocked>, tensor<256xi32, #blocked>
// W1-NEXT:   tt.store %q, %v : tensor<256x!tt.ptr<f32>, #blocked>

// W4:      #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// W4-LABEL: func.func @copy
// W4:        %v = tt.load %p : tensor<256x!tt.ptr<f32>, #blocked>
// W4:        tt.store %q, %v : tensor<256x!tt.ptr<f32>, #blocked>

// W8:      #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// W8-LABEL: func.func @copy
// W8:        %v = tt.load %p : tensor<256x!tt.ptr<f32>, #blocked>
// W8:        tt.store %q, %v : tensor<256x!tt.ptr<f32>, #blocked>

// A masked load with `other`: the mask and `other` share the pointers' layout.
func.func @masked(%x: !tt.ptr<i32>, %out: !tt.ptr<i32>, %n: i32) {
  %r = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %ns = tt.splat %n : i32 -> tensor<1024xi32>
  %m = tt.cmp lt, %r, %ns : tensor<1024xi32>
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>>
  %p = tt.addptr %xs, %r : tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>
  %c = arith.constant -1 : i32
  %other = tt.splat %c : i32 -> tensor<1024xi32>
  %v = tt.load %p, %m, %other : tensor<1024x!tt.ptr<i32>>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<1024x!tt.ptr<i32>>
  %q = tt.addptr %os, %r : tensor<1024x!tt.ptr<i32>>, tensor<1024xi32>
  tt.store %q, %v, %m : tensor<1024x!tt.ptr<i32>>
  func.return
}
// W1-LABEL: func.func @masked
// W1:        %m = tt.cmp lt, %r, %ns : tensor<1024xi32, #blocked>
// W1:        %other = tt.splat %c : i32 -> tensor<1024xi32, #blocked>
// W1-NEXT:   %v = tt.load %p, %m, %other : tensor<1024x!tt.ptr<i32>, #blocked>
// W1:        tt.store %q, %v, %m : tensor<1024x!tt.ptr<i32>, #blocked>

// W8-LABEL: func.func @masked
// W8:        %v = tt.load %p, %m, %other : tensor<1024x!tt.ptr<i32>, #blocked>
// W8:        tt.store %q, %v, %m : tensor<1024x!tt.ptr<i32>, #blocked>

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
