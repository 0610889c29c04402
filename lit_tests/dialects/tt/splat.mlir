// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @splats(%i: i32, %f: f16, %b: i1, %p: !tt.ptr<f32>, %s: !tt.ptr<i8, 3>) {
  %a = tt.splat %i : i32 -> tensor<128xi32>
  %c = tt.splat %f : f16 -> tensor<16x32xf16>
  %d = tt.splat %b : i1 -> tensor<64xi1>
  %e = tt.splat %p : !tt.ptr<f32> -> tensor<4x4x!tt.ptr<f32>>
  %g = tt.splat %s : !tt.ptr<i8, 3> -> tensor<8x!tt.ptr<i8, 3>>
  func.return
}
// CHECK-LABEL: func.func @splats(%i: i32, %f: f16, %b: i1, %p: !tt.ptr<f32>, %s: !tt.ptr<i8, 3>)
// CHECK-NEXT:    %a = tt.splat %i : i32 -> tensor<128xi32>
// CHECK-NEXT:    %c = tt.splat %f : f16 -> tensor<16x32xf16>
// CHECK-NEXT:    %d = tt.splat %b : i1 -> tensor<64xi1>
// CHECK-NEXT:    %e = tt.splat %p : !tt.ptr<f32> -> tensor<4x4x!tt.ptr<f32>>
// CHECK-NEXT:    %g = tt.splat %s : !tt.ptr<i8, 3> -> tensor<8x!tt.ptr<i8, 3>>
// CHECK-NEXT:    func.return

// GENERIC: %a = "tt.splat"(%i) : (i32) -> tensor<128xi32>
// GENERIC: %e = "tt.splat"(%p) : (!tt.ptr<f32>) -> tensor<4x4x!tt.ptr<f32>>
