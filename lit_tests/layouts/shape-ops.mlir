// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1}' | %{aliases} | filecheck %s

// The tt_shape ops give their results the default layout of the result shape (elements move
// through shared memory, so any operand layout does, and no ttg.convert_layout is needed);
// both halves of a tt.split share it; a tt.gather takes the layout of its indices. Pairs stay in
// one thread: a reshape into [..., 2] holds both elements of a pair in each thread
// (sizePerThread 2, one lane), and tt.split then unpairs that layout (a renaming of registers).

func.func @shape_layouts(%x: !tt.ptr<f32>, %i: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<4x32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<4x32x!tt.ptr<f32>>
  %t = tt.trans %v {order = array<i32: 1, 0>} : tensor<4x32xf32> -> tensor<32x4xf32>
  %r = tt.reshape %t : tensor<32x4xf32> -> tensor<64x2xf32>
  %a, %b = tt.split %r : tensor<64x2xf32> -> tensor<64xf32>, tensor<64xf32>
  %is = tt.splat %i : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %idx = tt.load %is : tensor<64x!tt.ptr<i32>>
  %g = tt.gather %a[%idx] {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> tensor<64xf32>
  %s = tt.add %g, %b : tensor<64xf32>
  %ys = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  tt.store %ys, %s : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-DAG:   #[[ROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-DAG:   #[[T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-DAG:   #[[P:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @shape_layouts
// CHECK:         %t = tt.trans %v {order = array<i32: 1, 0>} : tensor<4x32xf32, #[[ROW]]> -> tensor<32x4xf32, #[[T]]>
// CHECK-NEXT:    %r = tt.reshape %t : tensor<32x4xf32, #[[T]]> -> tensor<64x2xf32, #[[P]]>
// CHECK-NEXT:    %a, %b = tt.split %r : tensor<64x2xf32, #[[P]]> -> tensor<64xf32, #[[V]]>, tensor<64xf32, #[[V]]>
// CHECK:         %g = tt.gather %a[%idx] {axis = 0 : i32} : tensor<64xf32, #[[V]]>, tensor<64xi32, #[[V]]> -> tensor<64xf32, #[[V]]>
// CHECK-NOT:     ttg.convert_layout
