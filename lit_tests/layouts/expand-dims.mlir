// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s

// `tt.expand_dims` consumes the slice of its result's layout along the new axis (the same
// registers, no data movement), so a reduction result expanded back along the reduced axis
// returns to the reduction's operand layout: the softmax pattern x - max(x, 1)[:, None] needs
// no conversion.

// CHECK-DAG:   #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[S1:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[B]]}>
// CHECK-DAG:   #[[S0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[B]]}>
// CHECK-DAG:   #[[R:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG:   #[[SR:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[R]]}>

func.func @row_max(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %m = tt.reduce %v {axis = 1 : i32} : tensor<8x64xf32> -> tensor<8xf32> {
  ^bb0(%m_lhs: f32, %m_rhs: f32):
    %m_acc = tt.maximum %m_lhs, %m_rhs : f32
    tt.reduce.return %m_acc : f32
  }
  %me = tt.expand_dims %m {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  %mb = tt.broadcast %me : tensor<8x1xf32> -> tensor<8x64xf32>
  %d = tt.sub %v, %mb : tensor<8x64xf32>
  tt.store %xs, %d : tensor<8x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @row_max
// CHECK:         %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    %m = tt.reduce %v {axis = 1 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<8xf32, #[[S1]]> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %me = tt.expand_dims %m {axis = 1 : i32} : tensor<8xf32, #[[S1]]> -> tensor<8x1xf32, #[[B]]>
// CHECK-NEXT:    %mb = tt.broadcast %me : tensor<8x1xf32, #[[B]]> -> tensor<8x64xf32, #[[B]]>
// CHECK-NEXT:    %d = tt.sub %v, %mb : tensor<8x64xf32, #[[B]]>
// CHECK-NEXT:    tt.store %xs, %d : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         func.return

// A free operand (a range) is built directly in the slice its user needs.
func.func @range_columns(%x: !tt.ptr<f32>) {
  %c = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tt.broadcast %ce : tensor<1x64xi32> -> tensor<8x64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %cb : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
  %v = tt.load %p : tensor<8x64x!tt.ptr<f32>>
  tt.store %p, %v : tensor<8x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @range_columns
// CHECK:         %c = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32, #[[S0]]>
// CHECK-NEXT:    %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #[[S0]]> -> tensor<1x64xi32, #[[B]]>
// CHECK-NEXT:    %cb = tt.broadcast %ce : tensor<1x64xi32, #[[B]]> -> tensor<8x64xi32, #[[B]]>
// CHECK-NEXT:    %p = tt.addptr %xs, %cb : tensor<8x64x!tt.ptr<f32>, #[[B]]>, tensor<8x64xi32, #[[B]]>
// CHECK-NEXT:    %v = tt.load %p : tensor<8x64x!tt.ptr<f32>, #[[B]]>

// A bound operand that is not the slice of the result's layout (a loaded vector) is needed in
// it; the result takes the default layout of its own shape (32x1: the rows across the lanes,
// the warps replicating along the single column), which its broadcast keeps. The vector, a
// load through free pointers smaller than the program's threads, is loaded in the slice
// instead of converted to it, and its first copy, unused, is erased.
func.func @loaded_vector(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<32x!tt.ptr<f32>>
  %ve = tt.expand_dims %v {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  %vb = tt.broadcast %ve : tensor<32x1xf32> -> tensor<32x4xf32>
  %ys = tt.splat %x : !tt.ptr<f32> -> tensor<32x4x!tt.ptr<f32>>
  tt.store %ys, %vb : tensor<32x4x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @loaded_vector
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #[[SR]]>
// CHECK-NEXT:    %v = tt.load %xs : tensor<32x!tt.ptr<f32>, #[[SR]]>
// CHECK-NEXT:    %ve = tt.expand_dims %v {axis = 1 : i32} : tensor<32xf32, #[[SR]]> -> tensor<32x1xf32, #[[R]]>
// CHECK-NEXT:    %vb = tt.broadcast %ve : tensor<32x1xf32, #[[R]]> -> tensor<32x4xf32, #[[R]]>
// CHECK-NEXT:    %ys = tt.splat %x : !tt.ptr<f32> -> tensor<32x4x!tt.ptr<f32>, #[[R]]>
// The re-issued load is read by other threads than the default layout's: a barrier before the
// next write (reissue_fences), as the convert through shared memory would have had.
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    tt.store %ys, %vb : tensor<32x4x!tt.ptr<f32>, #[[R]]>
