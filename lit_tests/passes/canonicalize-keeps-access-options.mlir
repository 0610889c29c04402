// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Dropping an all-true mask keeps tl.load/tl.store's options (cache modifier, eviction
// policy, volatile) and hints on the rebuilt op.

func.func @load_true_mask(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %t = arith.constant true
  %m = tt.splat %t : i1 -> tensor<16xi1>
  %v = tt.load %p, %m {cache = "cg", evict = "evict_last", isVolatile} : tensor<16x!tt.ptr<f32>>
  func.return %v : tensor<16xf32>
}
// CHECK-LABEL: func.func @load_true_mask
// CHECK-NEXT:    %[[V:.*]] = tt.load %p {cache = "cg", evict = "evict_last", isVolatile} : tensor<16x!tt.ptr<f32>>

func.func @store_true_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %t = arith.constant true
  %m = tt.splat %t : i1 -> tensor<16xi1>
  tt.store %p, %v, %m {cache = "cs", evict = "evict_first"} : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @store_true_mask
// CHECK-NEXT:    tt.store %p, %v {cache = "cs", evict = "evict_first"} : tensor<16x!tt.ptr<f32>>
