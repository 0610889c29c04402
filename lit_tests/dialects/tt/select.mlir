// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @select(%m: tensor<16xi1>, %a: tensor<16xf32>, %b: tensor<16xf32>, %c: i1, %x: i32, %y: i32, %pm: tensor<4x4xi1>, %p: tensor<4x4x!tt.ptr<f16>>) {
  %s = tt.select %m, %a, %b : tensor<16xf32>
  %t = tt.select %c, %x, %y : i32
  %u = tt.select %pm, %p, %p : tensor<4x4x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @select(
// CHECK-NEXT:    %s = tt.select %m, %a, %b : tensor<16xf32>
// CHECK-NEXT:    %t = tt.select %c, %x, %y : i32
// CHECK-NEXT:    %u = tt.select %pm, %p, %p : tensor<4x4x!tt.ptr<f16>>
// CHECK-NEXT:    func.return

// GENERIC: %s = "tt.select"(%m, %a, %b) : (tensor<16xi1>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// GENERIC: %t = "tt.select"(%c, %x, %y) : (i1, i32, i32) -> i32
