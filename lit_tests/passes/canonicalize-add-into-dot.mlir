// RUN: mytriton-opt %s -p canonicalize | filecheck %s

// `dot(a, b, 0) + c` accumulates into the dot: `dot(a, b, c)` (either operand order, any zero
// block). Any other accumulator (a non-zero constant, a runtime value) must stay: folding it
// would drop it from the sum.

func.func @zero_splat_dot_plus_c(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %z = arith.constant 0.0 : f32
  %acc = tt.splat %z : f32 -> tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  func.return %s : tensor<16x16xf32>
}
// CHECK-LABEL: func.func @zero_splat_dot_plus_c(
// CHECK-NEXT:    %s = tt.dot %a, %b, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:    func.return %s : tensor<16x16xf32>

func.func @zero_full_c_plus_dot(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %z = arith.constant 0.0 : f32
  %acc = tt.full %z : f32 -> tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %c, %d : tensor<16x16xf32>
  func.return %s : tensor<16x16xf32>
}
// CHECK-LABEL: func.func @zero_full_c_plus_dot(
// CHECK-NEXT:    %s = tt.dot %a, %b, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:    func.return %s : tensor<16x16xf32>

func.func @zeros_op(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %acc = tt.zeros : tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  func.return %s : tensor<16x16xf32>
}
// CHECK-LABEL: func.func @zeros_op(
// CHECK-NEXT:    %s = tt.dot %a, %b, %c : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:    func.return %s : tensor<16x16xf32>

// The dot keeps its input precision (tf32 lets it run on tensor cores).
func.func @keeps_precision(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %acc = tt.zeros : tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc {input_precision = "tf32"} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  func.return %s : tensor<16x16xf32>
}
// CHECK-LABEL: func.func @keeps_precision(
// CHECK-NEXT:    %s = tt.dot %a, %b, %c {input_precision = "tf32"} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>

// tl.dot(a, b, tl.full(.., 1.0)) + c is a @ b + 1 + c, not a @ b + c.
func.func @one_full_is_kept(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %one = arith.constant 1.0 : f32
  %acc = tt.full %one : f32 -> tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  %d2 = tt.dot %b, %a, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s2 = tt.add %c, %d2 : tensor<16x16xf32>
  func.return %s, %s2 : tensor<16x16xf32>, tensor<16x16xf32>
}
// CHECK-LABEL: func.func @one_full_is_kept(
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %acc = tt.full %one : f32 -> tensor<16x16xf32>
// CHECK-NEXT:    %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:    %s = tt.add %d, %c : tensor<16x16xf32>
// CHECK-NEXT:    %d2 = tt.dot %b, %a, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:    %s2 = tt.add %c, %d2 : tensor<16x16xf32>
// CHECK-NEXT:    func.return %s, %s2 :

func.func @negative_splat_is_kept(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %m = arith.constant -2.5 : f32
  %acc = tt.splat %m : f32 -> tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  func.return %s : tensor<16x16xf32>
}
// CHECK-LABEL: func.func @negative_splat_is_kept(
// CHECK:         %d = tt.dot %a, %b, %acc :
// CHECK-NEXT:    %s = tt.add %d, %c : tensor<16x16xf32>

// An accumulator not known to be zero (a runtime value) is kept.
func.func @runtime_acc_is_kept(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>, %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  func.return %s : tensor<16x16xf32>
}
// CHECK-LABEL: func.func @runtime_acc_is_kept(
// CHECK-NEXT:    %d = tt.dot %a, %b, %acc :
// CHECK-NEXT:    %s = tt.add %d, %c : tensor<16x16xf32>

// A dot used elsewhere too stays as it is (folding would compute the product twice).
func.func @dot_with_two_uses(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  %acc = tt.zeros : tensor<16x16xf32>
  %d = tt.dot %a, %b, %acc : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  %s = tt.add %d, %c : tensor<16x16xf32>
  func.return %s, %d : tensor<16x16xf32>, tensor<16x16xf32>
}
// CHECK-LABEL: func.func @dot_with_two_uses(
// CHECK-NEXT:    %acc = tt.zeros : tensor<16x16xf32>
// CHECK-NEXT:    %d = tt.dot %a, %b, %acc :
// CHECK-NEXT:    %s = tt.add %d, %c : tensor<16x16xf32>

// An fp8 dot with max_num_imprecise_acc adds its partial sums into a zero accumulator first:
// `dot + c` stays (Triton's rule for float adds).
func.func @promoted_dot_plus_c(%a: tensor<64x64xf8E4M3FN>, %b: tensor<64x64xf8E4M3FN>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %acc = tt.zeros : tensor<64x64xf32>
  %d = tt.dot %a, %b, %acc {max_num_imprecise_acc = 32 : i32} : tensor<64x64xf8E4M3FN> * tensor<64x64xf8E4M3FN> -> tensor<64x64xf32>
  %s = tt.add %d, %c : tensor<64x64xf32>
  func.return %s : tensor<64x64xf32>
}
// CHECK-LABEL: func.func @promoted_dot_plus_c(
// CHECK:         %d = tt.dot %a, %b, %{{.*}} {max_num_imprecise_acc = 32 : i32}
// CHECK-NEXT:    %s = tt.add %d, %c
