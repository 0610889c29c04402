// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// ttg.dot_wait reads only an asynchronous dot (ttg-pipeline marks them ttg.async).
func.func @wait_for_a_synchronous_dot(%a: tensor<64x64xf16>, %c: tensor<64x64xf32>) {
  %d = tt.dot %a, %a, %c : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %w = ttg.dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32>
  func.return
}
// CHECK: ttg.dot_wait: the operand must be a tt.dot marked ttg.async
