// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s

// A store takes the layout of its first bound operand, pointers first: pointers that are
// bound (carried through a loop: they cannot be recomputed elsewhere) keep their layout and
// the value is converted to it; free pointers are rebuilt in the value's (or mask's) layout.

// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[S0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[T]]}>

// Output pointers advanced in a loop, then used to store column sums (a slice layout).
func.func @carried_pointers(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %q0 = tt.addptr %os, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %q = scf.for %i = %c0 to %n step %c1 iter_args(%qq = %q0) -> (tensor<64x!tt.ptr<f32>>) : i32 {
    %s64 = tt.splat %c64 : i32 -> tensor<64xi32>
    %qn = tt.addptr %qq, %s64 : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    scf.yield %qn : tensor<64x!tt.ptr<f32>>
  }
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = tt.cmp lt, %r, %ns : tensor<64xi32>
  tt.store %q, %s, %m : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @carried_pointers
// CHECK:         %q = scf.for %i = %c0 to %n step %c1 iter_args(%qq = %q0) -> (tensor<64x!tt.ptr<f32>, #[[V]]>) : i32 {
// CHECK:         %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32, #[[T]]> -> tensor<64xf32, #[[S0]]> {
// CHECK-NEXT:         ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:           %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:           tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:         }
// CHECK-NEXT:    %[[S:.*]] = ttg.convert_layout %s : tensor<64xf32, #[[S0]]> -> tensor<64xf32, #[[V]]>
// The (free) mask is built in the pointers' layout.
// CHECK-NEXT:    %ns = tt.splat %n : i32 -> tensor<64xi32, #[[V]]>
// CHECK-NEXT:    %m = tt.cmp lt, %r, %ns : tensor<64xi32, #[[V]]>
// CHECK-NEXT:    tt.store %q, %[[S]], %m : tensor<64x!tt.ptr<f32>, #[[V]]>

// Free pointers and value, bound mask (from loaded data): the store follows the mask.
func.func @bound_mask(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %f: f32) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.maximum %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %fs = tt.splat %f : f32 -> tensor<64xf32>
  %m = tt.cmp gt, %s, %fs : tensor<64xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  tt.store %os, %fs, %m : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @bound_mask
// CHECK:         %m = tt.cmp gt, %s, %fs : tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #[[S0]]>
// CHECK-NEXT:    tt.store %os, %fs, %m : tensor<64x!tt.ptr<f32>, #[[S0]]>
