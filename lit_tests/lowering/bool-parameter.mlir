// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A boolean parameter travels as an i32 (0 or 1), so no backend has to agree on how a 1-bit
// parameter is passed; the kernel turns it back into an i1 (!= 0) once, at its entry, and
// every use sees the i1.
func.func @flag(%x: !tt.ptr<f32>, %b: i1, %out: !tt.ptr<i1>) {
  %bs = tt.splat %b : i1 -> tensor<32xi1>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %v = tt.load %xs, %bs : tensor<32x!tt.ptr<f32>>
  tt.store %xs, %v : tensor<32x!tt.ptr<f32>>
  tt.store %out, %b : !tt.ptr<i1>
  func.return
}
// CHECK:       "gpu.func"() <{function_type = (!llvm.ptr<1>, i32, !llvm.ptr<1>) -> ()}> ({
// CHECK-NEXT:  ^bb0(%x: !llvm.ptr<1>, %b: i32, %out: !llvm.ptr<1>):
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[B:.*]] = arith.cmpi ne, %b, %[[ZERO]] : i32
// CHECK-NEXT:    %v = scf.if %[[B]] -> (f32) {
// CHECK:         llvm.store %v, %x : f32, !llvm.ptr<1>
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %[[B]], %out : i1, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK:       mytriton.pointee_types = [f32, i1]
