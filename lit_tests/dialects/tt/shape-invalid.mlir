// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @not_a_permutation(%a: tensor<4x8xf32>) {
  %t = tt.trans %a {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x8xf32>
  func.return
}
// CHECK: Operation does not verify: tt.trans: order [1, 1] is not a permutation of the 2 dimensions

// -----

func.func @trans_wrong_shape(%a: tensor<4x8xf32>) {
  %t = tt.trans %a {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  func.return
}
// CHECK: Operation does not verify: tt.trans: the result must have shape [8, 4], got tensor<4x8xf32>

// -----

func.func @reshape_numel(%a: tensor<4x8xf32>) {
  %r = tt.reshape %a : tensor<4x8xf32> -> tensor<4x4xf32>
  func.return
}
// CHECK: Operation does not verify: tt.reshape: the number of elements changes from 32 to 16

// -----

func.func @join_shapes(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  %j = tt.join %a, %b : tensor<4xf32>, tensor<8xf32> -> tensor<4x2xf32>
  func.return
}
// CHECK: Operation does not verify: tt.join: both operands must have shape [4], got tensor<8xf32>

// -----

func.func @split_not_two(%a: tensor<4x4xf32>) {
  %x, %y = tt.split %a : tensor<4x4xf32> -> tensor<4xf32>, tensor<4xf32>
  func.return
}
// CHECK: Operation does not verify: tt.split: the operand's minor dimension must have size 2 (and rank >= 2), got tensor<4x4xf32>

// -----

func.func @cat_rank(%a: tensor<2x4xf32>) {
  %c = tt.cat %a, %a : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.cat: operands must be rank-1 blocks, got ranks 2, 2

// -----

func.func @gather_float_index(%a: tensor<4x8xf32>, %i: tensor<4x2xf32>) {
  %g = tt.gather %a[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
  func.return
}
// CHECK: Operation does not verify: tt.gather: indices must be integers, got tensor<4x2xf32>

// -----

func.func @gather_other_dim(%a: tensor<4x8xf32>, %i: tensor<2x8xi32>) {
  %g = tt.gather %a[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<2x8xi32> -> tensor<2x8xf32>
  func.return
}
// CHECK: Operation does not verify: tt.gather: index dimension 0 (2) differs from the source's (4)

// -----

func.func @dot3d_batch(%a: tensor<2x4x8xf32>, %b: tensor<4x8x4xf32>, %c: tensor<2x4x4xf32>) {
  %d = tt.dot %a, %b, %c : tensor<2x4x8xf32> * tensor<4x8x4xf32> -> tensor<2x4x4xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: batch dimensions differ: [2, 4, 8] x [4, 8, 4]

// -----

func.func @histogram_rank2(%a: tensor<4x4xi32>) {
  %h = tt.histogram %a : tensor<4x4xi32> -> tensor<8xi32>
  func.return
}
// CHECK: Operation does not verify: tt.histogram: the operand must be a rank-1 integer block, got tensor<4x4xi32>

// -----

func.func @histogram_counts_i64(%a: tensor<8xi32>) {
  %h = tt.histogram %a : tensor<8xi32> -> tensor<8xi64>
  func.return
}
// CHECK: Operation does not verify: tt.histogram: the result must be a rank-1 i32 block, got tensor<8xi64>
