// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Float maximum/minimum are Triton's: by default (tl.PropagateNan.NONE) LLVM's maxnum/minnum,
// which ignore a NaN operand (PTX max.f32/min.f32); with `propagate_nan = all` (PropagateNan.ALL)
// maximumf/minimumf, which return NaN (PTX max.NaN.f32). Integers use arith.maxsi/minsi
// (elementwise-int.mlir) whatever propagate_nan says.
func.func @extrema(%a: f32, %b: f32, %out: !tt.ptr<f32>) {
  %max = tt.maximum %a, %b : f32
  %min = tt.minimum %a, %b : f32
  %s = tt.add %max, %min : f32
  tt.store %out, %s : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %max = arith.maxnumf %a, %b : f32
// CHECK-NEXT:    %min = arith.minnumf %a, %b : f32
// CHECK-NEXT:    %s = arith.addf %max, %min : f32

// -----

func.func @extrema_propagating_nan(%a: f32, %b: f32, %out: !tt.ptr<f32>) {
  %max = tt.maximum %a, %b, propagate_nan = all : f32
  %min = tt.minimum %a, %b, propagate_nan = all : f32
  %s = tt.add %max, %min : f32
  tt.store %out, %s : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %max = arith.maximumf %a, %b : f32
// CHECK-NEXT:    %min = arith.minimumf %a, %b : f32
// CHECK-NEXT:    %s = arith.addf %max, %min : f32

// -----

func.func @int_extrema(%a: i32, %b: i32, %out: !tt.ptr<i32>) {
  %max = tt.maximum %a, %b, propagate_nan = all : i32
  %min = tt.minimum %a, %b : i32
  %s = tt.add %max, %min : i32
  tt.store %out, %s : !tt.ptr<i32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %max = arith.maxsi %a, %b : i32
// CHECK-NEXT:    %min = arith.minsi %a, %b : i32
// CHECK-NEXT:    %s = arith.addi %max, %min : i32
