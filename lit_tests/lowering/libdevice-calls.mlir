// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A libdevice function without an upstream op is one llvm.call of its __nv_* symbol per
// element, the symbol declared once beside the kernel (both backends link libdevice).
// Narrowing toward zero is arith only (arith.truncf's rounding attribute would reach NVPTX as
// a constrained fptrunc that it emits as cvt.rn): round to nearest, and where that went away
// from zero (|back| > |x|) take the bit pattern one lower.
func.func @libdevice(%x: f32, %y: f32, %n: i32, %l: i64, %d: f64) {
  %h = tt.extern_elementwise "__nv_hypotf"(%x, %y) : (f32, f32) -> f32
  %h2 = tt.extern_elementwise "__nv_hypotf"(%y, %x) : (f32, f32) -> f32
  %e = tt.extern_elementwise "__nv_ldexpf"(%x, %n) : (f32, i32) -> f32
  %c = tt.extern_elementwise "__nv_clzll"(%l) : (i64) -> i32
  %r = tt.fp_to_fp %x rounding = "rtz" : f32 -> f16
  %s = tt.fp_to_fp %d rounding = "rtz" : f64 -> f32
  func.return
}
// CHECK:       "gpu.module"() <{sym_name = "kernels"}> ({
// CHECK-NEXT:    llvm.func @__nv_hypotf(f32, f32) -> f32
// CHECK-NEXT:    llvm.func @__nv_ldexpf(f32, i32) -> f32
// CHECK-NEXT:    llvm.func @__nv_clzll(i64) -> i32
// CHECK-NEXT:    "gpu.func"()
// CHECK-NEXT:    ^bb0(%x: f32, %y: f32, %n: i32, %l: i64, %d: f64):
// CHECK-DAG:       %[[ONE16:.*]] = arith.constant 1 : i16
// CHECK-DAG:       %[[ONE32:.*]] = arith.constant 1 : i32
// CHECK:           %h = llvm.call @__nv_hypotf(%x, %y) : (f32, f32) -> f32
// CHECK-NEXT:      %h2 = llvm.call @__nv_hypotf(%y, %x) : (f32, f32) -> f32
// CHECK-NEXT:      %e = llvm.call @__nv_ldexpf(%x, %n) : (f32, i32) -> f32
// CHECK-NEXT:      %c = llvm.call @__nv_clzll(%l) : (i64) -> i32
// CHECK-NEXT:      %[[NEAR:.*]] = arith.truncf %x : f32 to f16
// CHECK-NEXT:      %[[BACK:.*]] = arith.extf %[[NEAR]] : f16 to f32
// CHECK-NEXT:      %[[MAG:.*]] = math.absf %x : f32
// CHECK-NEXT:      %[[BACKMAG:.*]] = math.absf %[[BACK]] : f32
// CHECK-NEXT:      %[[AWAY:.*]] = arith.cmpf ogt, %[[BACKMAG]], %[[MAG]] : f32
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %[[NEAR]] : f16 to i16
// CHECK-NEXT:      %[[LOWBITS:.*]] = arith.subi %[[BITS]], %[[ONE16]] : i16
// CHECK-NEXT:      %[[LOW:.*]] = arith.bitcast %[[LOWBITS]] : i16 to f16
// CHECK-NEXT:      %r = arith.select %[[AWAY]], %[[LOW]], %[[NEAR]] : f16
// CHECK-NEXT:      %[[NEAR2:.*]] = arith.truncf %d : f64 to f32
// CHECK:           %[[LOWBITS2:.*]] = arith.subi %{{.*}}, %[[ONE32]] : i32
// CHECK:           %s = arith.select %{{.*}}, %{{.*}}, %[[NEAR2]] : f32
