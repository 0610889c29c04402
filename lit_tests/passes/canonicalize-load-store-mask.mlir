// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// Constant masks: all-true masks are dropped; an all-false load gives `other`; a store
// under an all-false mask is erased.

func.func @load_true_mask(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %t = arith.constant true
  %m = tt.splat %t : i1 -> tensor<16xi1>
  %v = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  func.return %v : tensor<16xf32>
}
// CHECK-LABEL: func.func @load_true_mask(%p: tensor<16x!tt.ptr<f32>>)
// CHECK-NEXT:    %[[V:.*]] = tt.load %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    func.return %[[V]] : tensor<16xf32>

func.func @load_true_mask_other(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %t = arith.constant true
  %m = tt.splat %t : i1 -> tensor<16xi1>
  %v = tt.load %p, %m, %o : tensor<16x!tt.ptr<f32>>
  func.return %v : tensor<16xf32>
}
// CHECK-LABEL: func.func @load_true_mask_other(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>)
// CHECK-NEXT:    %[[V:.*]] = tt.load %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    func.return %[[V]] : tensor<16xf32>

func.func @load_false_mask_other(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>) -> tensor<16xf32> {
  %f = arith.constant false
  %m = tt.splat %f : i1 -> tensor<16xi1>
  %v = tt.load %p, %m, %o : tensor<16x!tt.ptr<f32>>
  func.return %v : tensor<16xf32>
}
// CHECK-LABEL: func.func @load_false_mask_other(%p: tensor<16x!tt.ptr<f32>>, %o: tensor<16xf32>)
// CHECK-NEXT:    func.return %o : tensor<16xf32>

// Without `other` the masked-off value is undefined: the load is kept as written.
func.func @load_false_mask_no_other(%p: tensor<16x!tt.ptr<f32>>) -> tensor<16xf32> {
  %f = arith.constant false
  %m = tt.splat %f : i1 -> tensor<16xi1>
  %v = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  func.return %v : tensor<16xf32>
}
// CHECK-LABEL: func.func @load_false_mask_no_other(%p: tensor<16x!tt.ptr<f32>>)
// CHECK:         %[[V:.*]] = tt.load %p, %{{.*}} : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    func.return %[[V]] : tensor<16xf32>

func.func @load_scalar_true(%p: !tt.ptr<i32>) -> i32 {
  %t = arith.constant true
  %v = tt.load %p, %t : !tt.ptr<i32>
  func.return %v : i32
}
// CHECK-LABEL: func.func @load_scalar_true(%p: !tt.ptr<i32>)
// CHECK-NEXT:    %[[V:.*]] = tt.load %p : !tt.ptr<i32>
// CHECK-NEXT:    func.return %[[V]] : i32

func.func @store_true_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %t = arith.constant true
  %m = tt.splat %t : i1 -> tensor<16xi1>
  tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @store_true_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>)
// CHECK-NEXT:    tt.store %p, %v : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    func.return

func.func @store_false_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %f = arith.constant false
  %m = tt.splat %f : i1 -> tensor<16xi1>
  tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @store_false_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>)
// CHECK-NEXT:    func.return

// A mask that folds to true (0 < 16 for every lane of a splat) disappears too.
func.func @store_folded_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %a = tt.splat %c0 : i32 -> tensor<16xi32>
  %b = tt.splat %c16 : i32 -> tensor<16xi32>
  %m = tt.cmp lt, %a, %b : tensor<16xi32>
  tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @store_folded_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>)
// CHECK-NEXT:    tt.store %p, %v : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    func.return

// A runtime mask is kept.
func.func @store_runtime_mask(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>, %m: tensor<16xi1>) {
  tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @store_runtime_mask(
// CHECK-NEXT:    tt.store %p, %v, %m : tensor<16x!tt.ptr<f32>>
