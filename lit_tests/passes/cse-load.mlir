// RUN: mytriton-opt %s -p cse | filecheck %s

// Loads only read memory: two identical loads merge, unless a store may have changed
// memory in between. Stores are never merged.

func.func @loads(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>) -> tensor<16xf32> {
  %a = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  %b = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  %s = tt.add %a, %b : tensor<16xf32>
  func.return %s : tensor<16xf32>
}
// CHECK-LABEL: func.func @loads(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>)
// CHECK-NEXT:    %[[A:.*]] = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[S:.*]] = tt.add %[[A]], %[[A]] : tensor<16xf32>
// CHECK-NEXT:    func.return %[[S]] : tensor<16xf32>

// Different masks are different loads.
func.func @different_masks(%p: tensor<16x!tt.ptr<f32>>, %m: tensor<16xi1>) -> tensor<16xf32> {
  %a = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
  %b = tt.load %p : tensor<16x!tt.ptr<f32>>
  %s = tt.add %a, %b : tensor<16xf32>
  func.return %s : tensor<16xf32>
}
// CHECK-LABEL: func.func @different_masks(
// CHECK-NEXT:    %[[A:.*]] = tt.load %p, %m : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[B:.*]] = tt.load %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[S:.*]] = tt.add %[[A]], %[[B]] : tensor<16xf32>

func.func @store_between(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>) -> tensor<16xf32> {
  %a = tt.load %p : tensor<16x!tt.ptr<f32>>
  tt.store %p, %v : tensor<16x!tt.ptr<f32>>
  tt.store %p, %v : tensor<16x!tt.ptr<f32>>
  %b = tt.load %p : tensor<16x!tt.ptr<f32>>
  %s = tt.add %a, %b : tensor<16xf32>
  func.return %s : tensor<16xf32>
}
// CHECK-LABEL: func.func @store_between(%p: tensor<16x!tt.ptr<f32>>, %v: tensor<16xf32>)
// CHECK-NEXT:    %[[A:.*]] = tt.load %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %p, %v : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    tt.store %p, %v : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[B:.*]] = tt.load %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    %[[S:.*]] = tt.add %[[A]], %[[B]] : tensor<16xf32>

// A load inside a loop is not replaced by an identical load before the loop.
func.func @load_in_loop(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %a = tt.load %p : !tt.ptr<f32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> (f32) : i32 {
    %b = tt.load %p : !tt.ptr<f32>
    tt.store %q, %b : !tt.ptr<f32>
    %s = tt.add %acc, %b : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
// CHECK-LABEL: func.func @load_in_loop(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>)
// CHECK:         %[[A:.*]] = tt.load %p : !tt.ptr<f32>
// CHECK:         scf.for
// CHECK-NEXT:      %[[B:.*]] = tt.load %p : !tt.ptr<f32>
// CHECK-NEXT:      tt.store %q, %[[B]] : !tt.ptr<f32>
