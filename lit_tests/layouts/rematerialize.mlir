// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | filecheck %s --check-prefix=NOCONV

// Free values (ranges, splats, broadcasts, expand_dims, pointer arithmetic and elementwise
// math over them) are never converted: they are rebuilt in each layout a user needs, once per
// layout, under the original name (the copies get a suffix).

// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[S0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[B]]}>

// %offs (start + range) feeds a 64-element load and, through expand_dims, an 8x64 load: it
// appears twice, in the vector layout and in the slice of the tile layout; each copy is then
// reused by every user in the same layout.
func.func @two_layouts(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %start: i32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ss = tt.splat %start : i32 -> tensor<64xi32>
  %offs = tt.add %ss, %r : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %w = tt.load %p : tensor<64x!tt.ptr<f32>>
  tt.store %p, %w : tensor<64x!tt.ptr<f32>>
  %oe = tt.expand_dims %offs {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %ob = tt.broadcast %oe : tensor<1x64xi32> -> tensor<8x64xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %q = tt.addptr %ys, %ob : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
  %v = tt.load %q : tensor<8x64x!tt.ptr<f32>>
  tt.store %q, %v : tensor<8x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @two_layouts
// CHECK:         %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    %ss = tt.splat %start : i32 -> tensor<64xi32, #[[V]]>
// CHECK-NEXT:    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #[[V]]>
// CHECK-NEXT:    %offs = tt.add %ss, %r : tensor<64xi32, #[[V]]>
// CHECK-NEXT:    %p = tt.addptr %xs, %offs : tensor<64x!tt.ptr<f32>, #[[V]]>, tensor<64xi32, #[[V]]>
// CHECK-NEXT:    %w = tt.load %p : tensor<64x!tt.ptr<f32>, #[[V]]>
// The store reuses the copy of %p already built in its layout.
// CHECK-NEXT:    tt.store %p, %w : tensor<64x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    %ss_1 = tt.splat %start : i32 -> tensor<64xi32, #[[S0]]>
// CHECK-NEXT:    %r_1 = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #[[S0]]>
// CHECK-NEXT:    %offs_1 = tt.add %ss_1, %r_1 : tensor<64xi32, #[[S0]]>
// CHECK-NEXT:    %oe = tt.expand_dims %offs_1 {axis = 0 : i32} : tensor<64xi32, #[[S0]]> -> tensor<1x64xi32, #[[B]]>
// CHECK-NEXT:    %ob = tt.broadcast %oe : tensor<1x64xi32, #[[B]]> -> tensor<8x64xi32, #[[B]]>
// CHECK-NEXT:    %q = tt.addptr %ys, %ob : tensor<8x64x!tt.ptr<f32>, #[[B]]>, tensor<8x64xi32, #[[B]]>
// CHECK-NEXT:    %v = tt.load %q : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    tt.store %q, %v : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    func.return

// A free value nobody uses is dropped (it is only ever built on demand).
func.func @unused(%x: !tt.ptr<f32>) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @unused
// CHECK-NEXT:    func.return

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
