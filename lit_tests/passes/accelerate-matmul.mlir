// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=90}' | filecheck %s --check-prefix=SM90
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80}' | filecheck %s --check-prefix=SM80
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 tensor_cores=false}' | filecheck %s --check-prefix=FMA

// ttg-accelerate-matmul writes each dot's tensor-core instruction on it as ttg.mma, a
// #ttg.nvidia_mma: versionMajor = 3 for Hopper's warpgroup MMAs (sm_90: every warp along M,
// one instruction of n = N, written per warp as instrShape [16, N, k]), 2 for mma.sync (warp
// MMAs of 16 x 8 x k, warps split the larger per-warp extent first), none for the FMA loop
// (an ieee f32 dot, or without tensor cores). k is 256 bits of the operand: 16 for f16, 8 for
// tf32. Layout assignment then gives the accumulator the blocked layout that holds the
// instruction's results (layouts/dot-mma.mlir, layouts/dot-wgmma.mlir).
func.func @dots(%a: tensor<128x64xf16>, %b: tensor<64x128xf16>, %c: tensor<128x128xf32>, %fa: tensor<64x32xf32>, %fb: tensor<32x64xf32>, %fc: tensor<64x64xf32>) {
  %f16 = tt.dot %a, %b, %c : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
  %tf32 = tt.dot %fa, %fb, %fc {input_precision = "tf32"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %ieee = tt.dot %fa, %fb, %fc {input_precision = "ieee"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  func.return
}
// SM90-LABEL: func.func @dots
// SM90-NEXT:    %f16 = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>} :
// SM90-NEXT:    %tf32 = tt.dot %fa, %fb, %fc {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>} :
// SM90-NEXT:    %ieee = tt.dot %fa, %fb, %fc {input_precision = "ieee"} :

// SM80-LABEL: func.func @dots
// SM80-NEXT:    %f16 = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>} :
// SM80-NEXT:    %tf32 = tt.dot %fa, %fb, %fc {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 8]}>} :
// SM80-NEXT:    %ieee = tt.dot %fa, %fb, %fc {input_precision = "ieee"} :

// FMA-LABEL: func.func @dots
// FMA-NOT:     ttg.mma
// FMA:         func.return

// Warp MMAs where warpgroup ones do not take the tile (M = 32 < 16 x 4 warps), and a K no
// instruction takes (K = 8 of f16): the FMA loop, also on sm_90.
func.func @other_tiles(%a: tensor<32x64xf16>, %b: tensor<64x64xf16>, %c: tensor<32x64xf32>, %a8: tensor<64x8xf16>, %b8: tensor<8x64xf16>, %c8: tensor<64x64xf32>) {
  %short_m = tt.dot %a, %b, %c : tensor<32x64xf16> * tensor<64x64xf16> -> tensor<32x64xf32>
  %short_k = tt.dot %a8, %b8, %c8 : tensor<64x8xf16> * tensor<8x64xf16> -> tensor<64x64xf32>
  func.return
}
// SM90-LABEL: func.func @other_tiles
// SM90-NEXT:    %short_m = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>} :
// SM90-NEXT:    %short_k = tt.dot %a8, %b8, %c8 :
