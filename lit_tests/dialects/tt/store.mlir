// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @stores(%p: !tt.ptr<f32>, %c: i1, %v: f32, %ps: tensor<8x8x!tt.ptr<i32>>, %m: tensor<8x8xi1>, %w: tensor<8x8xi32>, %map: !tt.ptr<i8>, %r: i32) {
  tt.store %p, %v : !tt.ptr<f32>
  tt.store %p, %v, %c : !tt.ptr<f32>
  tt.store %ps, %w : tensor<8x8x!tt.ptr<i32>>
  tt.store %ps, %w, %m : tensor<8x8x!tt.ptr<i32>>
  tt.store %ps, %w, %m tensor_map %map[%r, %r] : tensor<8x8x!tt.ptr<i32>>
  func.return
}
// CHECK-LABEL: func.func @stores(
// CHECK-NEXT:    tt.store %p, %v : !tt.ptr<f32>
// CHECK-NEXT:    tt.store %p, %v, %c : !tt.ptr<f32>
// CHECK-NEXT:    tt.store %ps, %w : tensor<8x8x!tt.ptr<i32>>
// CHECK-NEXT:    tt.store %ps, %w, %m : tensor<8x8x!tt.ptr<i32>>
// CHECK-NEXT:    tt.store %ps, %w, %m tensor_map %map[%r, %r] : tensor<8x8x!tt.ptr<i32>>
// CHECK-NEXT:    func.return

// GENERIC: "tt.store"(%p, %v) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tt.ptr<f32>, f32) -> ()
// GENERIC: "tt.store"(%p, %v, %c) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tt.ptr<f32>, f32, i1) -> ()
// GENERIC: "tt.store"(%ps, %w, %m) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<8x8x!tt.ptr<i32>>, tensor<8x8xi32>, tensor<8x8xi1>) -> ()
// GENERIC: "tt.store"(%ps, %w, %m, %map, %r, %r) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 2>}>
