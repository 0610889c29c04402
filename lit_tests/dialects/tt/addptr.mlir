// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @addptrs(%p: !tt.ptr<f32>, %i: i32, %l: i64, %ps: tensor<16x!tt.ptr<f16>>, %o: tensor<16xi32>, %s: !tt.ptr<f32, 3>) {
  %a = tt.addptr %p, %i : !tt.ptr<f32>, i32
  %b = tt.addptr %p, %l : !tt.ptr<f32>, i64
  %c = tt.addptr %ps, %o : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
  %d = tt.addptr %s, %i : !tt.ptr<f32, 3>, i32
  func.return
}
// CHECK-LABEL: func.func @addptrs(
// CHECK-NEXT:    %a = tt.addptr %p, %i : !tt.ptr<f32>, i32
// CHECK-NEXT:    %b = tt.addptr %p, %l : !tt.ptr<f32>, i64
// CHECK-NEXT:    %c = tt.addptr %ps, %o : tensor<16x!tt.ptr<f16>>, tensor<16xi32>
// CHECK-NEXT:    %d = tt.addptr %s, %i : !tt.ptr<f32, 3>, i32
// CHECK-NEXT:    func.return

// GENERIC: %a = "tt.addptr"(%p, %i) : (!tt.ptr<f32>, i32) -> !tt.ptr<f32>
// GENERIC: %c = "tt.addptr"(%ps, %o) : (tensor<16x!tt.ptr<f16>>, tensor<16xi32>) -> tensor<16x!tt.ptr<f16>>
