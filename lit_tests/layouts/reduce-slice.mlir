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
  %cols = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32> {
  ^bb0(%cols_lhs: f32, %cols_rhs: f32):
    %cols_acc = tt.maximum %cols_lhs, %cols_rhs : f32
    tt.reduce.return %cols_acc : f32
  }
  %rows = tt.reduce %v {axis = 1 : i32} : tensor<8x64xf32> -> tensor<8xf32> {
  ^bb0(%rows_lhs: f32, %rows_rhs: f32):
    %rows_acc = tt.add %rows_lhs, %rows_rhs : f32
    tt.reduce.return %rows_acc : f32
  }
  %total = tt.reduce %rows {axis = 0 : i32} : tensor<8xf32> -> f32 {
  ^bb0(%total_lhs: f32, %total_rhs: f32):
    %total_acc = tt.minimum %total_lhs, %total_rhs : f32
    tt.reduce.return %total_acc : f32
  }
  tt.store %x, %total : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: func.func @rows_and_cols
// CHECK:         %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    %cols = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<64xf32, #[[S0]]> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %rows = tt.reduce %v {axis = 1 : i32} : tensor<8x64xf32, #[[B]]> -> tensor<8xf32, #[[S1]]> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// A reduction to a scalar has no layout; its operand keeps the one it has.
// CHECK-NEXT:    %total = tt.reduce %rows {axis = 0 : i32} : tensor<8xf32, #[[S1]]> -> f32 {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.minimum %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    tt.store %x, %total : !tt.ptr<f32>
// CHECK:         func.return

// Reducing a slice again nests slices: the parent of the result is the operand's slice.
func.func @rank3(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x8x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x4x8x!tt.ptr<f32>>
  %a = tt.reduce %v {axis = 1 : i32} : tensor<2x4x8xf32> -> tensor<2x8xf32> {
  ^bb0(%a_lhs: f32, %a_rhs: f32):
    %a_acc = tt.add %a_lhs, %a_rhs : f32
    tt.reduce.return %a_acc : f32
  }
  %b = tt.reduce %a {axis = 0 : i32} : tensor<2x8xf32> -> tensor<8xf32> {
  ^bb0(%b_lhs: f32, %b_rhs: f32):
    %b_acc = tt.add %b_lhs, %b_rhs : f32
    tt.reduce.return %b_acc : f32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>>
  tt.store %os, %b : tensor<8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @rank3
// CHECK:         %v = tt.load %xs : tensor<2x4x8x!tt.ptr<f32>, #[[B3]]>
// CHECK-NEXT:    %a = tt.reduce %v {axis = 1 : i32} : tensor<2x4x8xf32, #[[B3]]> -> tensor<2x8xf32, #[[S31]]> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %b = tt.reduce %a {axis = 0 : i32} : tensor<2x8xf32, #[[S31]]> -> tensor<8xf32, #[[S310]]> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// The store follows its (bound) value: the pointers are built in the nested slice.
// CHECK-NEXT:    %os = tt.splat %out : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>, #[[S310]]>
// CHECK-NEXT:    tt.store %os, %b : tensor<8x!tt.ptr<f32>, #[[S310]]>

// No block of this file needs a layout conversion.
// NOCONV-NOT: ttg.convert_layout
