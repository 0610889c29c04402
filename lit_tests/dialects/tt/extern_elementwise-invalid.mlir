// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @unknown_symbol(%x: f32) {
  %r = tt.extern_elementwise "__nv_nosuchf"(%x) : (f32) -> f32
  func.return
}
// CHECK: Operation does not verify: tt.extern_elementwise: unknown libdevice function '__nv_nosuchf'

// -----

func.func @wrong_operand_type(%x: f64) {
  %r = tt.extern_elementwise "__nv_erfcf"(%x) : (f64) -> f32
  func.return
}
// CHECK: Operation does not verify: tt.extern_elementwise: __nv_erfcf takes (f32), got (f64)

// -----

func.func @wrong_result_type(%x: i32) {
  %r = tt.extern_elementwise "__nv_popc"(%x) : (i32) -> i64
  func.return
}
// CHECK: Operation does not verify: tt.extern_elementwise: __nv_popc returns i32, not i64

// -----

func.func @shapes_differ(%x: tensor<16xf32>, %y: tensor<8xf32>) {
  %r = tt.extern_elementwise "__nv_hypotf"(%x, %y) : (tensor<16xf32>, tensor<8xf32>) -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.extern_elementwise: operand and result shapes differ

// -----

func.func @widening(%x: f16) {
  %r = tt.fp_to_fp %x rounding = "rtz" : f16 -> f32
  func.return
}
// CHECK: Operation does not verify: tt.fp_to_fp: f16 -> f32 is not a narrowing float conversion

// -----

func.func @unknown_rounding(%x: f32) {
  %r = tt.fp_to_fp %x rounding = "rd" : f32 -> f16
  func.return
}
// CHECK: Operation does not verify: tt.fp_to_fp: rounding must be one of rtz, got 'rd'

// -----

func.func @fp8_not_from_f32(%x: f16) {
  %r = tt.fp_to_fp %x rounding = "rtz" : f16 -> f8E5M2
  func.return
}
// CHECK: Operation does not verify: tt.fp_to_fp: f16 -> f8E5M2 has no toward-zero conversion

// -----

func.func @fp8_not_e5(%x: tensor<16xf32>) {
  %r = tt.fp_to_fp %x rounding = "rtz" : tensor<16xf32> -> tensor<16xf8E4M3FN>
  func.return
}
// CHECK: Operation does not verify: tt.fp_to_fp: f32 -> f8E4M3FN has no toward-zero conversion
