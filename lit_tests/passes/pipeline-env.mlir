// RUN: env MYTRITON_PIPELINE=licm mytriton-opt %s --jit-pipeline | filecheck %s --check-prefix=LICM
// RUN: env MYTRITON_PIPELINE=cse,dce mytriton-opt %s --jit-pipeline | filecheck %s --check-prefix=CSE
// RUN: env MYTRITON_PIPELINE= mytriton-opt %s --jit-pipeline | filecheck %s --check-prefix=NONE
// RUN: not env MYTRITON_PIPELINE=cse,bogus mytriton-opt %s --jit-pipeline 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not mytriton-opt %s --jit-pipeline -p cse 2>&1 | filecheck %s --check-prefix=BOTH

// MYTRITON_PIPELINE replaces the pipeline @jit runs (an empty value runs no pass).

func.func @k(%x: tensor<16xi32>, %n: i32) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (tensor<16xi32>) : i32 {
    %a = tt.splat %n : i32 -> tensor<16xi32>
    %b = tt.splat %n : i32 -> tensor<16xi32>
    %s = tt.add %a, %b : tensor<16xi32>
    %t = tt.add %acc, %s : tensor<16xi32>
    scf.yield %t : tensor<16xi32>
  }
  func.return %r : tensor<16xi32>
}

// licm alone hoists both splats and their sum but does not merge the splats.
// LICM-LABEL: func.func @k(%x: tensor<16xi32>, %n: i32)
// LICM:         %[[A:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// LICM-NEXT:    %[[B:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// LICM-NEXT:    %[[S:.*]] = tt.add %[[A]], %[[B]] : tensor<16xi32>
// LICM-NEXT:    scf.for

// cse alone merges the splats but leaves everything in the loop.
// CSE-LABEL: func.func @k(%x: tensor<16xi32>, %n: i32)
// CSE:         scf.for
// CSE-NEXT:      %[[A:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// CSE-NEXT:      %[[S:.*]] = tt.add %[[A]], %[[A]] : tensor<16xi32>

// NONE-LABEL: func.func @k(%x: tensor<16xi32>, %n: i32)
// NONE:         scf.for
// NONE-NEXT:      %[[A:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// NONE-NEXT:      %[[B:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// NONE-NEXT:      %[[S:.*]] = tt.add %[[A]], %[[B]] : tensor<16xi32>

// ERR: mytriton-opt: error: unknown pass 'bogus'; known passes: {{.*}}canonicalize{{.*}}, cse, {{.*}}tt-simplify

// BOTH: mytriton-opt: error: --jit-pipeline and -p cannot be combined
