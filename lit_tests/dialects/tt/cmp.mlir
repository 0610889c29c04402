// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every predicate; the printed type is the operands', the result is i1 of that shape.
func.func @cmp(%a: tensor<16xi32>, %b: tensor<16xi32>, %f: f32, %g: f32, %p: tensor<16x!tt.ptr<f32>>) {
  %lt = tt.cmp lt, %a, %b : tensor<16xi32>
  %le = tt.cmp le, %a, %b : tensor<16xi32>
  %gt = tt.cmp gt, %a, %b : tensor<16xi32>
  %ge = tt.cmp ge, %a, %b : tensor<16xi32>
  %eq = tt.cmp eq, %f, %g : f32
  %ne = tt.cmp ne, %f, %g : f32
  %peq = tt.cmp eq, %p, %p : tensor<16x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @cmp(
// CHECK-NEXT:    %lt = tt.cmp lt, %a, %b : tensor<16xi32>
// CHECK-NEXT:    %le = tt.cmp le, %a, %b : tensor<16xi32>
// CHECK-NEXT:    %gt = tt.cmp gt, %a, %b : tensor<16xi32>
// CHECK-NEXT:    %ge = tt.cmp ge, %a, %b : tensor<16xi32>
// CHECK-NEXT:    %eq = tt.cmp eq, %f, %g : f32
// CHECK-NEXT:    %ne = tt.cmp ne, %f, %g : f32
// CHECK-NEXT:    %peq = tt.cmp eq, %p, %p : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    func.return

// GENERIC: %lt = "tt.cmp"(%a, %b) <{predicate = #tt<cmp_predicate lt>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
// GENERIC: %ne = "tt.cmp"(%f, %g) <{predicate = #tt<cmp_predicate ne>}> : (f32, f32) -> i1
// GENERIC: %peq = "tt.cmp"(%p, %p) <{predicate = #tt<cmp_predicate eq>}> : (tensor<16x!tt.ptr<f32>>, tensor<16x!tt.ptr<f32>>) -> tensor<16xi1>
