// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// #ttg.nvidia_mma names an instruction that exists, and a tt.dot's ttg attributes are declared
// and agree with the dot (tests/dialects/test_nvidia_mma.py has every case).
func.func @version(%a: tensor<32x16xf16>, %c: tensor<32x32xf32>) {
  %d = tt.dot %a, %a, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>} : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  func.return
}
// CHECK: #ttg.nvidia_mma: versionMajor must be 2 (mma.sync) or 3 (wgmma)

// -----

func.func @undeclared(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  %d = tt.dot %a, %b, %c {ttg.mma_v2} : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  func.return
}
// CHECK: tt.dot: unknown attribute ttg.mma_v2

// -----

func.func @wrong_k(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  %d = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8, 8]}>} : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  func.return
}
// CHECK: tt.dot: instrShape k = 8 reads 32-bit operands, not f16
