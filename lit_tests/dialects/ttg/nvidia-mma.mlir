// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// A dot's tensor-core instruction (ttg.mma, #ttg.nvidia_mma in Triton's spelling; versionMinor
// defaults to 0) and its operands' staging round-trip, through the generic form too.
#acc = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#op = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @wgmma(%a: tensor<64x64xf16, #op>, %b: tensor<64x64xf16, #op>, %c: tensor<64x64xf32, #acc>) {
  %d = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [1, 0]}>} : tensor<64x64xf16, #op> * tensor<64x64xf16, #op> -> tensor<64x64xf32, #acc>
  func.return
}
// CHECK-LABEL: func.func @wgmma
// CHECK:         tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>}

func.func @mma_sync(%a: tensor<32x16xf16>, %b: tensor<16x32xf16>, %c: tensor<32x32xf32>) {
  %d = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>} : tensor<32x16xf16> * tensor<16x32xf16> -> tensor<32x32xf32>
  func.return
}
// CHECK-LABEL: func.func @mma_sync
// CHECK:         tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>} :
