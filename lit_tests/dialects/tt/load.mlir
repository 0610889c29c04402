// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @loads(%p: !tt.ptr<f32>, %c: i1, %d: f32, %ps: tensor<64x!tt.ptr<i32>>, %m: tensor<64xi1>, %o: tensor<64xi32>, %s: tensor<2x4x!tt.ptr<f16, 3>>) {
  %a = tt.load %p : !tt.ptr<f32>
  %b = tt.load %p, %c : !tt.ptr<f32>
  %e = tt.load %p, %c, %d : !tt.ptr<f32>
  %f = tt.load %ps : tensor<64x!tt.ptr<i32>>
  %g = tt.load %ps, %m : tensor<64x!tt.ptr<i32>>
  %h = tt.load %ps, %m, %o : tensor<64x!tt.ptr<i32>>
  %k = tt.load %s : tensor<2x4x!tt.ptr<f16, 3>>
  func.return
}
// CHECK-LABEL: func.func @loads(
// CHECK-NEXT:    %a = tt.load %p : !tt.ptr<f32>
// CHECK-NEXT:    %b = tt.load %p, %c : !tt.ptr<f32>
// CHECK-NEXT:    %e = tt.load %p, %c, %d : !tt.ptr<f32>
// CHECK-NEXT:    %f = tt.load %ps : tensor<64x!tt.ptr<i32>>
// CHECK-NEXT:    %g = tt.load %ps, %m : tensor<64x!tt.ptr<i32>>
// CHECK-NEXT:    %h = tt.load %ps, %m, %o : tensor<64x!tt.ptr<i32>>
// CHECK-NEXT:    %k = tt.load %s : tensor<2x4x!tt.ptr<f16, 3>>
// CHECK-NEXT:    func.return

// The result type is derived from the pointer type; mask and other are optional operands.
// GENERIC: %a = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (!tt.ptr<f32>) -> f32
// GENERIC: %b = "tt.load"(%p, %c) <{operandSegmentSizes = array<i32: 1, 1, 0, 0, 0>}> : (!tt.ptr<f32>, i1) -> f32
// GENERIC: %e = "tt.load"(%p, %c, %d) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (!tt.ptr<f32>, i1, f32) -> f32
// GENERIC: %h = "tt.load"(%ps, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>}> : (tensor<64x!tt.ptr<i32>>, tensor<64xi1>, tensor<64xi32>) -> tensor<64xi32>
// GENERIC: %k = "tt.load"(%s) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (tensor<2x4x!tt.ptr<f16, 3>>) -> tensor<2x4xf16>

// A host descriptor's load names its tensor map and block coordinates (outermost first): the
// same load, which ttg-pipeline may turn into a TMA copy.
func.func @through_a_tensor_map(%ps: tensor<64x32x!tt.ptr<f16>>, %m: tensor<64x32xi1>, %o: tensor<64x32xf16>, %map: !tt.ptr<i8>, %r: i32, %c: i32) {
  %t = tt.load %ps, %m, %o tensor_map %map[%r, %c] : tensor<64x32x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @through_a_tensor_map(
// CHECK-NEXT:    %t = tt.load %ps, %m, %o tensor_map %map[%r, %c] : tensor<64x32x!tt.ptr<f16>>
// GENERIC: %t = "tt.load"(%ps, %m, %o, %map, %r, %c) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 2>}>
