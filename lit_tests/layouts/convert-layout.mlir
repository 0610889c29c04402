// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s

// A bound value (a load, a reduction, a dot: anything that is not free to recompute) needed
// in a layout other than its own, and not cheaper to rebuild there (rebuilt-loads.mlir: a
// volatile load is never loaded again), goes through one `ttg.convert_layout`, placed at the
// first use and reused by later users in the same layout. An elementwise op takes the layout
// of its first bound operand.

// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[S0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[B]]}>
// CHECK-DAG:   #[[S1:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[B]]}>
// CHECK-DAG:   #[[ROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG:   #[[SROW:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[ROW]]}>

// The column sums of a tile (slice layout) added to a loaded vector (vector layout): the
// operand in the other layout is converted, whichever comes first.
func.func @reduce_plus_load(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %w = tt.load %ys {isVolatile} : tensor<64x!tt.ptr<f32>>
  %a = tt.add %s, %w : tensor<64xf32>
  %b = tt.mul %s, %w : tensor<64xf32>
  %c = tt.sub %w, %s : tensor<64xf32>
  tt.store %ys, %a : tensor<64x!tt.ptr<f32>>
  tt.store %ys, %b : tensor<64x!tt.ptr<f32>>
  tt.store %ys, %c : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @reduce_plus_load
// CHECK:         %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<64xf32, #[[S0]]> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    %w = tt.load %ys {isVolatile} : tensor<64x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    %[[W:.*]] = ttg.convert_layout %w : tensor<64xf32, #[[V]]> -> tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    %a = tt.add %s, %[[W]] : tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    %b = tt.mul %s, %[[W]] : tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    %[[S:.*]] = ttg.convert_layout %s : tensor<64xf32, #[[S0]]> -> tensor<64xf32, #[[V]]>
// CHECK-NEXT:    %c = tt.sub %w, %[[S]] : tensor<64xf32, #[[V]]>
// Each store follows its value; the (free) pointers are rebuilt in the slice layout once.
// CHECK-NEXT:    %ys_1 = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #[[S0]]>
// CHECK-NEXT:    tt.store %ys_1, %a : tensor<64x!tt.ptr<f32>, #[[S0]]>
// CHECK-NEXT:    tt.store %ys_1, %b : tensor<64x!tt.ptr<f32>, #[[S0]]>
// CHECK-NEXT:    tt.store %ys, %c : tensor<64x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    func.return

// Row sums (a slice along dim 1) expanded along dim 0: expand_dims needs the slice along its
// own axis, so the sums are converted, and the result takes the default 1x8 layout.
func.func @expand_other_axis(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 1 : i32} : tensor<8x64xf32> -> tensor<8xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %e = tt.expand_dims %s {axis = 0 : i32} : tensor<8xf32> -> tensor<1x8xf32>
  %ps = tt.splat %x : !tt.ptr<f32> -> tensor<1x8x!tt.ptr<f32>>
  tt.store %ps, %e : tensor<1x8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @expand_other_axis
// CHECK:         %s = tt.reduce %v {axis = 1 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<8xf32, #[[S1]]> {
// CHECK-NEXT:         ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:           %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:           tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:         }
// CHECK-NEXT:    %[[C:.*]] = ttg.convert_layout %s : tensor<8xf32, #[[S1]]> -> tensor<8xf32, #[[SROW]]>
// CHECK-NEXT:    %e = tt.expand_dims %[[C]] {axis = 0 : i32} : tensor<8xf32, #[[SROW]]> -> tensor<1x8xf32, #[[ROW]]>
// CHECK-NEXT:    %ps = tt.splat %x : !tt.ptr<f32> -> tensor<1x8x!tt.ptr<f32>, #[[ROW]]>
// CHECK-NEXT:    tt.store %ps, %e : tensor<1x8x!tt.ptr<f32>, #[[ROW]]>
