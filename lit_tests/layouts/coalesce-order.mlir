// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80}' | %{aliases} | filecheck %s --check-prefix=SM80

// A memory access is laid out along the dimension its addresses are most contiguous in, as
// Triton's coalescing does: a column-major block (rows contiguous) gets order [0, 1] with a
// 16-byte run of rows per thread, a row-major one keeps order [1, 0], and one with no
// contiguity known keeps the row-major default.

// CHECK-DAG:   #[[COL:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG:   #[[ROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[KT:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>

// x[r, c] at x + r + 64 c (column-major, 64 rows), copied to y[r, c] at y + 32 r + c.
func.func @transpose(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rb = tt.broadcast %r2 : tensor<64x1xi32> -> tensor<64x32xi32>
  %cb = tt.broadcast %c2 : tensor<1x32xi32> -> tensor<64x32xi32>
  %k64 = arith.constant 64 : i32
  %s64 = tt.splat %k64 : i32 -> tensor<64x32xi32>
  %k32 = arith.constant 32 : i32
  %s32 = tt.splat %k32 : i32 -> tensor<64x32xi32>
  %cs = tt.mul %cb, %s64 : tensor<64x32xi32>
  %xo = tt.add %rb, %cs : tensor<64x32xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %xo : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  %v = tt.load %xp : tensor<64x32x!tt.ptr<f32>>
  %rs = tt.mul %rb, %s32 : tensor<64x32xi32>
  %yo = tt.add %rs, %cb : tensor<64x32xi32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %yp = tt.addptr %ys, %yo : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
  tt.store %yp, %v : tensor<64x32x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @transpose
// CHECK:         %v = tt.load %{{.*}} : tensor<64x32x!tt.ptr<f32>, #[[COL]]>
// CHECK:         %[[V:.*]] = ttg.convert_layout %v : tensor<64x32xf32, #[[COL]]> -> tensor<64x32xf32, #[[ROW]]>
// CHECK:         tt.store %{{.*}}, %[[V]] : tensor<64x32x!tt.ptr<f32>, #[[ROW]]>

// K^T read through strides (attention's first dot): B [64, 64] contiguous along K. On sm_90
// the warpgroup MMA stages B K-major (nvmma order [0, 1]); mma.sync's staging keeps it
// K-contiguous too, read by ldmatrix untransposed.
func.func @k_transposed(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %o: !tt.ptr<f32>) {
  %d = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %dk = tt.expand_dims %d {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %dn = tt.expand_dims %d {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kb = tt.broadcast %dk : tensor<64x1xi32> -> tensor<64x64xi32>
  %nb = tt.broadcast %dn : tensor<1x64xi32> -> tensor<64x64xi32>
  %k64 = arith.constant 64 : i32
  %s64 = tt.splat %k64 : i32 -> tensor<64x64xi32>
  %ns = tt.mul %nb, %s64 : tensor<64x64xi32>
  %ko = tt.add %kb, %ns : tensor<64x64xi32>
  %ks = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %kp = tt.addptr %ks, %ko : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
  %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qv = tt.load %qs : tensor<64x64x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<64x64xf32>
  %s = tt.dot %qv, %kt, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %os, %s : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @k_transposed
// CHECK:         %kt = tt.load %{{.*}} : tensor<64x64x!tt.ptr<f16>, #[[KT]]>
// CHECK:         %s = tt.dot %qv, %kt, %zero {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>, ttg.lhs_shared = #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>, ttg.rhs_shared = #ttg.nvmma_shared<{order = [0, 1], swizzle = 128, rotate = 0}>}
// SM80-LABEL: func.func @k_transposed
// SM80:         %s = tt.dot %qv, %kt, %zero {ttg.mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8, 16]}>, ttg.lhs_shared = #ttg.shared<{order = [1, 0], pad = 8}>, ttg.rhs_shared = #ttg.shared<{order = [0, 1], pad = 8}>}
