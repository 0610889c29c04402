// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// ttg.dot_wait reads only an asynchronous dot (ttg-pipeline marks them ttg.async), or what a
// loop carries from one.
func.func @wait_for_a_synchronous_dot(%a: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  %d = tt.dot %a, %a, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %w = ttg.dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32>
  func.return
}
// CHECK: ttg.dot_wait: the operand must be a tt.dot marked ttg.async

// -----

func.func @wait_for_a_loop_result_of_no_dot(%c: tensor<64x64xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c) -> (tensor<64x64xf32>) : i32 {
    scf.yield %acc : tensor<64x64xf32>
  }
  %w = ttg.dot_wait %r {pendings = 0 : i32} : tensor<64x64xf32>
  func.return
}
// CHECK: ttg.dot_wait: the operand must be a tt.dot marked ttg.async, or a loop's result that such a dot yields
