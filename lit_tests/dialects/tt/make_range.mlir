// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @ranges() -> (tensor<128xi32>, tensor<16xi32>, tensor<1xi32>) {
  %a = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %b = tt.make_range {start = 16 : i32, end = 32 : i32} : tensor<16xi32>
  %c = tt.make_range {start = 7 : i32, end = 8 : i32} : tensor<1xi32>
  func.return %a, %b, %c : tensor<128xi32>, tensor<16xi32>, tensor<1xi32>
}
// CHECK-LABEL: func.func @ranges()
// CHECK-NEXT:    %a = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
// CHECK-NEXT:    %b = tt.make_range {start = 16 : i32, end = 32 : i32} : tensor<16xi32>
// CHECK-NEXT:    %c = tt.make_range {start = 7 : i32, end = 8 : i32} : tensor<1xi32>
// CHECK-NEXT:    func.return %a, %b, %c : tensor<128xi32>, tensor<16xi32>, tensor<1xi32>

// GENERIC: %a = "tt.make_range"() <{start = 0 : i32, end = 128 : i32}> : () -> tensor<128xi32>
// GENERIC: %b = "tt.make_range"() <{start = 16 : i32, end = 32 : i32}> : () -> tensor<16xi32>
