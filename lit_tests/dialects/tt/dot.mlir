// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @dots(%a: tensor<16x32xf32>, %b: tensor<32x64xf32>, %c: tensor<16x64xf32>, %x: tensor<1x1xf32>) {
  %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
  %e = tt.dot %x, %x, %x : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
  func.return
}
// CHECK-LABEL: func.func @dots(
// CHECK-NEXT:    %d = tt.dot %a, %b, %c : tensor<16x32xf32> * tensor<32x64xf32> -> tensor<16x64xf32>
// CHECK-NEXT:    %e = tt.dot %x, %x, %x : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
// CHECK-NEXT:    func.return

// GENERIC: %d = "tt.dot"(%a, %b, %c) : (tensor<16x32xf32>, tensor<32x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>

// Triton's other operand/accumulator pairs: i8 -> i32, f16 -> f16 or f32, f64 -> f64.
func.func @dtypes(%i: tensor<16x16xi8>, %ic: tensor<16x16xi32>, %h: tensor<16x16xf16>, %f: tensor<16x16xf32>, %d: tensor<16x16xf64>) {
  %0 = tt.dot %i, %i, %ic : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %1 = tt.dot %h, %h, %h : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  %2 = tt.dot %h, %h, %f : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %3 = tt.dot %d, %d, %d : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
  func.return
}
// CHECK-LABEL: func.func @dtypes(
// CHECK-NEXT:    %0 = tt.dot %i, %i, %ic : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
// CHECK-NEXT:    %1 = tt.dot %h, %h, %h : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT:    %2 = tt.dot %h, %h, %f : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
// CHECK-NEXT:    %3 = tt.dot %d, %d, %d : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
// CHECK-NEXT:    func.return

// fp8e4nv and fp8e5 operands (either format each) into f32 or f16, as f16 operands
func.func @fp8(%e4: tensor<16x32xf8E4M3FN>, %e4b: tensor<32x16xf8E4M3FN>, %e5: tensor<16x32xf8E5M2>, %e5b: tensor<32x16xf8E5M2>, %f: tensor<16x16xf32>, %h: tensor<16x16xf16>) {
  %0 = tt.dot %e4, %e4b, %f : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
  %1 = tt.dot %e5, %e5b, %h : tensor<16x32xf8E5M2> * tensor<32x16xf8E5M2> -> tensor<16x16xf16>
  %2 = tt.dot %e4, %e5b, %f : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>
  func.return
}
// CHECK-LABEL: func.func @fp8(
// CHECK-NEXT:    %0 = tt.dot %e4, %e4b, %f : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>
// CHECK-NEXT:    %1 = tt.dot %e5, %e5b, %h : tensor<16x32xf8E5M2> * tensor<32x16xf8E5M2> -> tensor<16x16xf16>
// CHECK-NEXT:    %2 = tt.dot %e4, %e5b, %f : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>
// CHECK-NEXT:    func.return
