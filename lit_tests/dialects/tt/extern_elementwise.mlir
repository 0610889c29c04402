// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// A libdevice call per element (tt.extern_elementwise) and a narrowing toward zero
// (tt.fp_to_fp): the custom syntax round-trips.
func.func @calls(%x: tensor<16xf32>, %y: tensor<16xf32>, %n: tensor<16xi32>, %d: f64, %l: i64) {
  %h = tt.extern_elementwise "__nv_hypotf"(%x, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %e = tt.extern_elementwise "__nv_ldexpf"(%x, %n) : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
  %c = tt.extern_elementwise "__nv_clzll"(%l) : (i64) -> i32
  %r = tt.fp_to_fp %x rounding = "rtz" : tensor<16xf32> -> tensor<16xf16>
  %s = tt.fp_to_fp %d rounding = "rtz" : f64 -> bf16
  func.return
}
// CHECK-LABEL: func.func @calls(
// CHECK-NEXT:    %h = tt.extern_elementwise "__nv_hypotf"(%x, %y) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %e = tt.extern_elementwise "__nv_ldexpf"(%x, %n) : (tensor<16xf32>, tensor<16xi32>) -> tensor<16xf32>
// CHECK-NEXT:    %c = tt.extern_elementwise "__nv_clzll"(%l) : (i64) -> i32
// CHECK-NEXT:    %r = tt.fp_to_fp %x rounding = "rtz" : tensor<16xf32> -> tensor<16xf16>
// CHECK-NEXT:    %s = tt.fp_to_fp %d rounding = "rtz" : f64 -> bf16
