// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80}' | %{aliases} | filecheck %s --check-prefix=W4
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=8 capability=80},tt-assign-layouts{num_warps=8 capability=80}' | %{aliases} | filecheck %s --check-prefix=W8
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 tensor_cores=false},tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s --check-prefix=FMA

// On sm_80 (mma.sync; on sm_90 such tiles run as warpgroup MMAs, layouts/dot-wgmma.mlir)
// a dot with a tensor-core form (mma_policy: f16/bf16 operands, or f32 with
// input_precision = "tf32", into an f32 accumulator, M, N, K multiples of 16, 8, 16 (8 for
// tf32)) is decided for mma.sync by ttg-accelerate-matmul (ttg.mma = #ttg.nvidia_mma with
// versionMajor = 2; a dot without one runs the FMA loop) and gets the MMA accumulator layout:
// lane 4g + q owns columns 2q, 2q + 1 of row g of each 8 x 8 piece, warps split the larger per-warp extent first. Its operands are staged row-major
// (A K-contiguous, f16/bf16 B N-contiguous for ldmatrix.trans, order [1, 0]) with 16 bytes of
// padding per row; a tf32 B K-contiguous (order [0, 1]).

func.func @f16(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x128x!tt.ptr<f16>>
  %av = tt.load %as : tensor<64x32x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<32x128x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<64x128xf32>
  %d = tt.dot %av, %bv, %zero : tensor<64x32xf16> * tensor<32x128xf16> -> tensor<64x128xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<64x128x!tt.ptr<f32>>
  func.return
}
// W4-DAG:   #[[M4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>
// W4-LABEL: func.func @f16
// W4:         %zero = tt.zeros : tensor<64x128xf32, #[[M4]]>
// W4-NEXT:    %d = tt.dot %av, %bv, %zero {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>} : {{.*}} -> tensor<64x128xf32, #[[M4]]>
// W4-NEXT:    %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>, #[[M4]]>
// W8-DAG:   #[[M8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [2, 4], order = [1, 0]}>
// W8-LABEL: func.func @f16
// W8:         %d = tt.dot {{.*}}{ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 4], instrShape = [16, 8, 16]}>, {{.*}} -> tensor<64x128xf32, #[[M8]]>
// FMA-LABEL: func.func @f16
// FMA-NOT:     ttg.mma
// FMA:         %d = tt.dot %av, %bv, %zero {ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0], pad = 0}>} : {{.*}} -> tensor<64x128xf32, #blocked{{[0-9]*}}>

// f32 operands: tf32 goes to tensor cores (4 elements of padding: 16 bytes), ieee does not.
func.func @f32(%p: !tt.ptr<f32>) {
  %as = tt.splat %p : !tt.ptr<f32> -> tensor<32x8x!tt.ptr<f32>>
  %bs = tt.splat %p : !tt.ptr<f32> -> tensor<8x32x!tt.ptr<f32>>
  %cs = tt.splat %p : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  %a = tt.load %as : tensor<32x8x!tt.ptr<f32>>
  %b = tt.load %bs : tensor<8x32x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<32x32xf32>
  %t = tt.dot %a, %b, %zero {input_precision = "tf32"} : tensor<32x8xf32> * tensor<8x32xf32> -> tensor<32x32xf32>
  %i = tt.dot %a, %b, %zero {input_precision = "ieee"} : tensor<32x8xf32> * tensor<8x32xf32> -> tensor<32x32xf32>
  tt.store %cs, %t : tensor<32x32x!tt.ptr<f32>>
  tt.store %cs, %i : tensor<32x32x!tt.ptr<f32>>
  func.return
}
// W4-LABEL: func.func @f32
// W4:         %t = tt.dot {{.*}}{input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 8]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>{{.*}} -> tensor<32x32xf32, #[[M4]]>
// W4:         %i = tt.dot {{.*}}{input_precision = "ieee", ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>{{.*}} -> tensor<32x32xf32, #blocked{{[0-9]*}}>

// No tensor-core form or no room for the warps: CUDA cores. An f16 accumulator; K = 8 for
// f16; a 16 x 16 tile (two 16 x 8 instruction tiles) for 4 or 8 warps.
func.func @fma(%p: !tt.ptr<f16>, %q: !tt.ptr<f32>) {
  %s16 = tt.splat %p : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %sa8 = tt.splat %p : !tt.ptr<f16> -> tensor<16x8x!tt.ptr<f16>>
  %sb8 = tt.splat %p : !tt.ptr<f16> -> tensor<8x16x!tt.ptr<f16>>
  %c16 = tt.splat %p : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %c32 = tt.splat %q : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  %a = tt.load %s16 : tensor<16x16x!tt.ptr<f16>>
  %a8 = tt.load %sa8 : tensor<16x8x!tt.ptr<f16>>
  %b8 = tt.load %sb8 : tensor<8x16x!tt.ptr<f16>>
  %z16 = tt.zeros : tensor<16x16xf16>
  %z32 = tt.zeros : tensor<16x16xf32>
  %h = tt.dot %a, %a, %z16 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  %k8 = tt.dot %a8, %b8, %z32 : tensor<16x8xf16> * tensor<8x16xf16> -> tensor<16x16xf32>
  %s = tt.dot %a, %a, %z32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  tt.store %c16, %h : tensor<16x16x!tt.ptr<f16>>
  tt.store %c32, %k8 : tensor<16x16x!tt.ptr<f32>>
  tt.store %c32, %s : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// W4-LABEL: func.func @fma
// W4:         %h = tt.dot {{.*}}{ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>
// W4:         %k8 = tt.dot {{.*}}{ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>
// W4:         %s = tt.dot {{.*}}{ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>
