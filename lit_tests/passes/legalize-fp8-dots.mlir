// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-legalize-fp8-dots' | filecheck %s
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=89},tt-legalize-fp8-dots' | filecheck %s --check-prefix=SM89
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-legalize-fp8-dots' | filecheck %s --check-prefix=SM80
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 tensor_cores=false},tt-legalize-fp8-dots' | filecheck %s --check-prefixes=SM80,FMA
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-legalize-fp8-dots' --print-debuginfo | filecheck %s --check-prefix=LOC

// An fp8 dot stays fp8 where fp8 MMAs run it: warpgroup ones on sm_90 (four warps along M = 64,
// N = 64, K = 128 bytes, an f32 accumulator), else warp ones (ptx.mma.sync, sm_89 on: M = 16),
// unless f16 warpgroup MMAs take the tile widened (K = 32 fp8 is 64 bytes of f16). Every other
// dot gets f16 operands (tt.cast, exact) just before it, at its location: the f16 accumulator
// always; on sm_89 only it (no warpgroup MMAs there); on sm_80, or without tensor cores, all.
// ttg-accelerate-matmul decides (ttg.mma: instrShape k = 32 reads fp8, k = 16 f16; none: the
// FMA loop), tt-legalize-fp8-dots widens what its decision says and keeps the decision.
func.func @dots(%a: tensor<64x128xf8E4M3FN>, %b: tensor<128x64xf8E4M3FN>, %c: tensor<64x64xf32>, %h: tensor<64x64xf16>, %a16: tensor<16x128xf8E5M2>, %b16: tensor<128x64xf8E5M2>, %c16: tensor<16x64xf32>, %a32: tensor<64x32xf8E4M3FN>, %b32: tensor<32x64xf8E4M3FN>) {
  %wgmma = tt.dot %a, %b, %c : tensor<64x128xf8E4M3FN> * tensor<128x64xf8E4M3FN> -> tensor<64x64xf32> loc("k.py":10:4)
  %f16_acc = tt.dot %a, %b, %h : tensor<64x128xf8E4M3FN> * tensor<128x64xf8E4M3FN> -> tensor<64x64xf16> loc("k.py":11:4)
  %short_m = tt.dot %a16, %b16, %c16 : tensor<16x128xf8E5M2> * tensor<128x64xf8E5M2> -> tensor<16x64xf32> loc("k.py":12:4)
  %short_k = tt.dot %a32, %b32, %c : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32> loc("k.py":13:4)
  func.return
}
// CHECK-LABEL: func.func @dots(
// CHECK-NEXT:    %wgmma = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 32]}>} : tensor<64x128xf8E4M3FN> * tensor<128x64xf8E4M3FN> -> tensor<64x64xf32>
// CHECK-NEXT:    %0 = tt.cast %a : tensor<64x128xf8E4M3FN> -> tensor<64x128xf16>
// CHECK-NEXT:    %1 = tt.cast %b : tensor<128x64xf8E4M3FN> -> tensor<128x64xf16>
// CHECK-NEXT:    %f16_acc = tt.dot %0, %1, %h : tensor<64x128xf16> * tensor<128x64xf16> -> tensor<64x64xf16>
// CHECK-NEXT:    %short_m = tt.dot %a16, %b16, %c16 {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8, 32]}>} : tensor<16x128xf8E5M2> * tensor<128x64xf8E5M2> -> tensor<16x64xf32>
// CHECK-NEXT:    %2 = tt.cast %a32 : tensor<64x32xf8E4M3FN> -> tensor<64x32xf16>
// CHECK-NEXT:    %3 = tt.cast %b32 : tensor<32x64xf8E4M3FN> -> tensor<32x64xf16>
// CHECK-NEXT:    %short_k = tt.dot %2, %3, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>} : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT:    func.return

// SM89-LABEL: func.func @dots(
// SM89-NEXT:    %wgmma = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 32]}>} : tensor<64x128xf8E4M3FN> * tensor<128x64xf8E4M3FN> -> tensor<64x64xf32>
// SM89-NEXT:    %0 = tt.cast %a
// SM89-NEXT:    %1 = tt.cast %b
// SM89-NEXT:    %f16_acc = tt.dot %0, %1, %h
// SM89-NEXT:    %short_m = tt.dot %a16, %b16, %c16 {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 4], instrShape = [16, 8, 32]}>} : tensor<16x128xf8E5M2> * tensor<128x64xf8E5M2> -> tensor<16x64xf32>
// SM89-NEXT:    %short_k = tt.dot %a32, %b32, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 32]}>} : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
// SM89-NEXT:    func.return

// SM80-LABEL: func.func @dots(
// SM80-NEXT:    %0 = tt.cast %a : tensor<64x128xf8E4M3FN> -> tensor<64x128xf16>
// SM80-NEXT:    %1 = tt.cast %b : tensor<128x64xf8E4M3FN> -> tensor<128x64xf16>
// SM80-NEXT:    %wgmma = tt.dot %0, %1, %c {{.*}}: tensor<64x128xf16> * tensor<128x64xf16> -> tensor<64x64xf32>
// SM80-COUNT-6:  tt.cast
// SM80-NOT:      f8E4M3FN> * tensor
// FMA-NOT:       ttg.mma

// LOC: %0 = tt.cast %a : tensor<64x128xf8E4M3FN> -> tensor<64x128xf16> loc("k.py":11:4)
