// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | filecheck %s --check-prefix=NOCONV

// A reduction leaves the slice of its operand's layout along the reduced axis: the result's
// elements stay in the threads that held the reduced rows or columns, so no data moves.

// The layouts of both kernels (aliases are printed first):
// CHECK-DAG:   #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[S0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[B]]}>
// CHECK-DAG:   #[[S1:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[B]]}>
// CHECK-DAG:   #[[B3:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 4, 8], warpsPerCTA = [2, 1, 2], order = [2, 1, 0]}>
// CHECK-DAG:   #[[S31:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[B3]]}>
// CHECK-DAG:   #[[S310:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[S31]]}>

func.func @rows_and_cols(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %cols = tt.reduce max %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32>
  %rows = tt.reduce sum %v {axis = 1 : i32} : tensor<8x64xf32> -> tensor<8xf32>
  %total = tt.reduce min %rows {axis = 0 : i32} : tensor<8xf32> -> f32
  tt.store %x, %total : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: func.func @rows_and_cols
// CHECK:         %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    %cols = tt.reduce max %v {axis = 0 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    %rows = tt.reduce sum %v {axis = 1 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<8xf32, #[[S1]]>
// A reduction to a scalar has no layout; its operand keeps the one it has.
// CHECK-NEXT:    %total = tt.reduce min %rows {axis = 0 : i32} : tensor<8xf32, #[[S1]]> -> f32
// CHECK-NEXT:    tt.store %x, %total : !tt.ptr<f32>
// CHECK:         func.return

// Reducing a slice again nests slices: the parent of the result is the operand's slice.
func.func @rank3(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x8x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x4x8x!tt.ptr<f32>>
  %a = tt.reduce sum %v {axis = 1 : i32} : tensor<2x4x8xf32> -> tensor<2x8xf32>
  %b = tt.reduce sum %a {axis = 0 : i32} : tensor<2x8xf32> -> tensor<8xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  tt.store %os, %b : tensor<8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @rank3
// CHECK:         %v = tt.load %xs : tensor<2x4x8x!tt.ptr<f32>, #[[B3]]>
// CHECK-NEXT:    %a = tt.reduce sum %v {axis = 1 : i32} : tensor<2x4x8xf32, #[[B3]]> -> tensor<2x8xf32, #[[S31]]>
// CHECK-NEXT:    %b = tt.reduce sum %a {axis = 0 : i32} : tensor<2x8xf32, #[[S31]]> -> tensor<8xf32, #[[S310]]>
// The store follows its (bound) value: the pointers are built in the nested slice.
// CHECK-NEXT:    %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>, #[[S310]]>
// CHECK-NEXT:    tt.store %os, %b : tensor<8x!tt.ptr<f32>, #[[S310]]>

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
