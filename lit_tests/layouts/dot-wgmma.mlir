// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s --check-prefix=W4
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=8},tt-assign-layouts{num_warps=8}' | %{aliases} | filecheck %s --check-prefix=W8
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80}' | %{aliases} | filecheck %s --check-prefix=SM80

// On sm_90 (capability 90, the default) an f16/bf16 or tf32 dot whose tile allows warpgroup
// MMAs (M a multiple of 16 x num_warps, N a multiple of 64 up to 256, K whole 128-byte swizzled
// rows: 64 f16/bf16 or 32 tf32 elements) is decided for wgmma by ttg-accelerate-matmul
// (ttg.mma = #ttg.nvidia_mma with versionMajor = 3, one instruction of n = N per warpgroup
// row block, written per warp as instrShape = [16, N, k]), puts every warp along M and stages its operands in
// 128-byte swizzled tiles: A K-contiguous with its 8-row groups rotated over 2 x num_warps
// groups, an f16/bf16 B N-contiguous, a tf32 B K-contiguous (the instruction reads 32-bit
// operands K-major only; a tf32 B loaded along N is then copied an element at a time, so its
// load puts each warp on 4 rows x 8 columns: 32 different banks of the swizzled tile). The module records the target. Other chips, and tiles that do not
// allow it, keep mma.sync's layouts.

func.func @f16(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<128x64x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  %av = tt.load %as : tensor<128x64x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<64x128x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<128x128xf32>
  %d = tt.dot %av, %bv, %zero : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<128x128x!tt.ptr<f32>>
  func.return
}
// W4-DAG:   #[[M4:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG:   #[[KC:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// W4-DAG:   ttg.target = "cuda:90"
// W4-LABEL: func.func @f16
// W4:         %d = tt.dot %av, %bv, %zero {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>} : {{.*}} -> tensor<128x128xf32, #[[M4]]>
// W8-DAG:   #[[M8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [8, 1], order = [1, 0]}>
// W8-LABEL: func.func @f16
// W8:         %d = tt.dot %av, %bv, %zero {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 16}>, {{.*}} -> tensor<128x128xf32, #[[M8]]>
// SM80-DAG:  ttg.target = "cuda:80"
// SM80-LABEL: func.func @f16
// SM80:        %d = tt.dot %av, %bv, %zero {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>}

func.func @tf32(%f: !tt.ptr<f32>) {
  %fa = tt.splat %f : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %fb = tt.splat %f : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %fc = tt.splat %f : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %av = tt.load %fa : tensor<64x32x!tt.ptr<f32>>
  %bv = tt.load %fb : tensor<32x64x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<64x64xf32>
  %t = tt.dot %av, %bv, %zero {input_precision = "tf32"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  tt.store %fc, %t : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// W4-LABEL: func.func @tf32
// W4:         %bv = tt.load %fb : tensor<32x64x!tt.ptr<f32>, #[[KC]]>
// W4:         %t = tt.dot %av, %bv, %zero {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [0, 1], swizzle = 128, rotate = 0}>} : {{.*}} -> tensor<64x64xf32, #[[M4]]>
// SM80-LABEL: func.func @tf32
// SM80:        %t = tt.dot {{.*}}ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 8]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>

// K = 32 of f16 and 16 of tf32 are half a 128-byte row: 64-byte swizzled rows for A (and the
// K-major tf32 B; an N-major B keeps 128-byte rows along N). K = 16 of f16 (32 bytes) and M =
// 64 over 8 warps (no whole 64-row warpgroup instructions) stay on mma.sync.
func.func @not_wgmma(%a: !tt.ptr<f16>, %f: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bs = tt.splat %a : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %as16 = tt.splat %a : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
  %bs16 = tt.splat %a : !tt.ptr<f16> -> tensor<16x64x!tt.ptr<f16>>
  %fa = tt.splat %f : !tt.ptr<f32> -> tensor<64x16x!tt.ptr<f32>>
  %fb = tt.splat %f : !tt.ptr<f32> -> tensor<16x64x!tt.ptr<f32>>
  %fc = tt.splat %f : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %av = tt.load %as : tensor<64x32x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<32x64x!tt.ptr<f16>>
  %av16 = tt.load %as16 : tensor<64x16x!tt.ptr<f16>>
  %bv16 = tt.load %bs16 : tensor<16x64x!tt.ptr<f16>>
  %fav = tt.load %fa : tensor<64x16x!tt.ptr<f32>>
  %fbv = tt.load %fb : tensor<16x64x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<64x64xf32>
  %k32 = tt.dot %av, %bv, %zero : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  %t = tt.dot %fav, %fbv, %zero {input_precision = "tf32"} : tensor<64x16xf32> * tensor<16x64xf32> -> tensor<64x64xf32>
  %k16 = tt.dot %av16, %bv16, %zero : tensor<64x16xf16> * tensor<16x64xf16> -> tensor<64x64xf32>
  tt.store %fc, %k32 : tensor<64x64x!tt.ptr<f32>>
  tt.store %fc, %t : tensor<64x64x!tt.ptr<f32>>
  tt.store %fc, %k16 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// W4-LABEL: func.func @not_wgmma
// W4:         %k32 = tt.dot {{.*}}ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 64, rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>}
// W4:         %t = tt.dot {{.*}}ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 64, rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [0, 1], swizzle = 64, rotate = 0}>}
// W4:         %k16 = tt.dot {{.*}}ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>
// W8-LABEL: func.func @not_wgmma
// W8:         %k32 = tt.dot {{.*}}ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 8, 16]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>
