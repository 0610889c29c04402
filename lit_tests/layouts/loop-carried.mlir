// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s

// A block carried through `scf.for` gets, before the body is laid out, the layout its yielded
// value will have: the iter_arg, the yield and the loop result share it, and the initial value
// is built (free) or converted (bound) into it.

// CHECK-DAG:   #[[A:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[B:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[C:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[S0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[T]]}>
// CHECK-DAG:   #[[P8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>

// A K loop: the zero accumulator is created directly in the dot's register-tile layout, the
// operand pointers (incremented every iteration) keep their load layouts, the scalar iter_arg
// has no layout.
func.func @k_loop(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %acc0 = tt.zeros : tensor<16x16xf32>
  %ap0 = tt.splat %a : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %bp0 = tt.splat %b : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>>
  %res:4 = scf.for %i = %c0 to %k step %c8 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0, %n = %c0) -> (tensor<16x16xf32>, tensor<16x8x!tt.ptr<f32>>, tensor<8x16x!tt.ptr<f32>>, i32) : i32 {
    %av = tt.load %ap : tensor<16x8x!tt.ptr<f32>>
    %bv = tt.load %bp : tensor<8x16x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %acc : tensor<16x8xf32> * tensor<8x16xf32> -> tensor<16x16xf32>
    %sa = tt.splat %c8 : i32 -> tensor<16x8xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<16x8x!tt.ptr<f32>>, tensor<16x8xi32>
    %sb = tt.splat %c8 : i32 -> tensor<8x16xi32>
    %bp2 = tt.addptr %bp, %sb : tensor<8x16x!tt.ptr<f32>>, tensor<8x16xi32>
    %n2 = tt.add %n, %c8 : i32
    scf.yield %d, %ap2, %bp2, %n2 : tensor<16x16xf32>, tensor<16x8x!tt.ptr<f32>>, tensor<8x16x!tt.ptr<f32>>, i32
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @k_loop
// CHECK:         %acc0 = tt.zeros : tensor<16x16xf32, #[[C]]>
// CHECK-NEXT:    %ap0 = tt.splat %a : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>, #[[A]]>
// CHECK-NEXT:    %bp0 = tt.splat %b : !tt.ptr<f32> -> tensor<8x16x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:    %res, %res_1, %res_2, %res_3 = scf.for %i = %c0 to %k step %c8 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0, %n = %c0) -> (tensor<16x16xf32, #[[C]]>, tensor<16x8x!tt.ptr<f32>, #[[A]]>, tensor<8x16x!tt.ptr<f32>, #[[B]]>, i32) : i32 {
// CHECK-NEXT:      %av = tt.load %ap : tensor<16x8x!tt.ptr<f32>, #[[A]]>
// CHECK-NEXT:      %bv = tt.load %bp : tensor<8x16x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:      %d = tt.dot %av, %bv, %acc {{.*}} : tensor<16x8xf32, #[[A]]> * tensor<8x16xf32, #[[B]]> -> tensor<16x16xf32, #[[C]]>
// CHECK-NEXT:      %sa = tt.splat %c8 : i32 -> tensor<16x8xi32, #[[A]]>
// CHECK-NEXT:      %ap2 = tt.addptr %ap, %sa : tensor<16x8x!tt.ptr<f32>, #[[A]]>, tensor<16x8xi32, #[[A]]>
// CHECK-NEXT:      %sb = tt.splat %c8 : i32 -> tensor<8x16xi32, #[[B]]>
// CHECK-NEXT:      %bp2 = tt.addptr %bp, %sb : tensor<8x16x!tt.ptr<f32>, #[[B]]>, tensor<8x16xi32, #[[B]]>
// CHECK-NEXT:      %n2 = tt.add %n, %c8 : i32
// CHECK-NEXT:      scf.yield %d, %ap2, %bp2, %n2 : tensor<16x16xf32, #[[C]]>, tensor<16x8x!tt.ptr<f32>, #[[A]]>, tensor<8x16x!tt.ptr<f32>, #[[B]]>, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>, #[[C]]>
// CHECK-NEXT:    tt.store %cs, %res : tensor<16x16x!tt.ptr<f32>, #[[C]]>

// A carried sum of column sums (a slice layout) initialised from a loaded vector (the vector
// layout): the loop carries the slice, the initial value is converted once before the loop
// (a volatile load: any other would be loaded in the slice, rebuilt-loads.mlir).
func.func @bound_init(%x: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %init = tt.load %xs {isVolatile} : tensor<64x!tt.ptr<f32>>
  %ts = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<64xf32>) : i32 {
    %v = tt.load %ts : tensor<8x64x!tt.ptr<f32>>
    %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32> {
    ^bb0(%s_lhs: f32, %s_rhs: f32):
      %s_acc = tt.add %s_lhs, %s_rhs : f32
      tt.reduce.return %s_acc : f32
    }
    %t = tt.add %acc, %s : tensor<64xf32>
    scf.yield %t : tensor<64xf32>
  }
  tt.store %xs, %res : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @bound_init
// CHECK:         %init = tt.load %xs {isVolatile} : tensor<64x!tt.ptr<f32>, #[[V]]>
// CHECK-NEXT:    %[[INIT:.*]] = ttg.convert_layout %init : tensor<64xf32, #[[V]]> -> tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %[[INIT]]) -> (tensor<64xf32, #[[S0]]>) : i32 {
// CHECK:           %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32, #[[T]]> -> tensor<64xf32, #[[S0]]> {
// CHECK-NEXT:           ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:             %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:             tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:           }
// CHECK-NEXT:      %t = tt.add %acc, %s : tensor<64xf32, #[[S0]]>
// CHECK-NEXT:      scf.yield %t : tensor<64xf32, #[[S0]]>
// CHECK-NEXT:    }
// The store follows its bound value (the loop result): the pointers are rebuilt in the slice.
// CHECK-NEXT:    %xs_1 = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #[[S0]]>
// CHECK-NEXT:    tt.store %xs_1, %res : tensor<64x!tt.ptr<f32>, #[[S0]]>

// A pointer block advanced by itself (`p += 32`) predicts nothing from its yield: it takes the
// layout of the loads made through it, with as many consecutive f16 elements per thread as
// one aligned 16-byte access moves (8; the axis analysis carries the contiguity of the initial
// row of pointers through every iteration), not one element per thread.
func.func @advanced_pointers(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %row = tt.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %offs = tt.broadcast %row : tensor<1x32xi32> -> tensor<64x32xi32>
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %p0 = tt.addptr %xs, %offs : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %acc0 = tt.zeros : tensor<64x32xf16>
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %p0, %acc = %acc0) -> (tensor<64x32x!tt.ptr<f16>>, tensor<64x32xf16>) : i32 {
    %v = tt.load %p : tensor<64x32x!tt.ptr<f16>>
    %s = tt.add %acc, %v : tensor<64x32xf16>
    %step = tt.splat %c32 : i32 -> tensor<64x32xi32>
    %p2 = tt.addptr %p, %step : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    scf.yield %p2, %s : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xf16>
  }
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %q = tt.addptr %ys, %offs : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  tt.store %q, %res#1 : tensor<64x32x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @advanced_pointers
// CHECK:         scf.for {{.*}} -> (tensor<64x32x!tt.ptr<f16>, #[[P8]]>, tensor<64x32xf16, #[[P8]]>) : i32 {
// CHECK-NEXT:      %v = tt.load %p : tensor<64x32x!tt.ptr<f16>, #[[P8]]>
