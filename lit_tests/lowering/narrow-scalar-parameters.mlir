// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Scalar parameters narrower than the ABI's kinds travel widened, so every launcher packs only
// i32, i64, f32, f64 and pointers. The entry makes each value again as Triton's launcher packs
// a Python value: an 8- or 16-bit integer's low bits, an f16 rounded once from an f64, a bf16
// as the upper half of an f32's bits (Triton truncates the f32).
func.func @narrow(%a: i8, %b: i16, %h: f16, %bb: bf16, %o8: !tt.ptr<i8>, %o16: !tt.ptr<i16>, %oh: !tt.ptr<f16>, %ob: !tt.ptr<bf16>) {
  tt.store %o8, %a : !tt.ptr<i8>
  tt.store %o16, %b : !tt.ptr<i16>
  tt.store %oh, %h : !tt.ptr<f16>
  tt.store %ob, %bb : !tt.ptr<bf16>
  func.return
}
// CHECK:       "gpu.func"() <{function_type = (i32, i32, f64, f32, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>) -> ()}> ({
// CHECK-NEXT:  ^bb0(%a_abi: i32, %b_abi: i32, %h_abi: f64, %bb_abi: f32, %o8: !llvm.ptr<1>, %o16: !llvm.ptr<1>, %oh: !llvm.ptr<1>, %ob: !llvm.ptr<1>):
// CHECK-DAG:     %[[A:.*]] = arith.trunci %a_abi : i32 to i8
// CHECK-DAG:     %[[B:.*]] = arith.trunci %b_abi : i32 to i16
// CHECK-DAG:     %[[H:.*]] = arith.truncf %h_abi : f64 to f16
// CHECK-DAG:     %[[BITS:.*]] = arith.bitcast %bb_abi : f32 to i32
// CHECK-DAG:     %[[UPPER:.*]] = arith.shrui %[[BITS]], %{{.*}} : i32
// CHECK-DAG:     %[[HALF:.*]] = arith.trunci %[[UPPER]] : i32 to i16
// CHECK-DAG:     %[[BB:.*]] = arith.bitcast %[[HALF]] : i16 to bf16
// CHECK:         llvm.store %[[A]], %o8 : i8, !llvm.ptr<1>
// CHECK:         llvm.store %[[B]], %o16 : i16, !llvm.ptr<1>
// CHECK:         llvm.store %[[H]], %oh : f16, !llvm.ptr<1>
// CHECK:         llvm.store %[[BB]], %ob : bf16, !llvm.ptr<1>
