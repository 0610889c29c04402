// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-legalize-tf32x3-dots' | filecheck %s
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 tensor_cores=false},tt-legalize-tf32x3-dots' | filecheck %s --check-prefix=CUDA-CORES
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-legalize-tf32x3-dots' --print-debuginfo | filecheck %s --check-prefix=LOC

// A tf32x3 dot whose tf32 form runs on tensor cores (64 x 64 x 32 over four warps) becomes three
// tf32 dots of each operand's upper 19 bits (big: bits & 0xFFFFE000 = -8192) and the rest
// (small = x - big), the small terms first, at the dot's location. A tile no MMA takes (K = 4),
// a tf32 or ieee dot, or no tensor cores at all: unchanged. ttg-accelerate-matmul decides (a
// tf32x3 dot as its tf32 dots: ttg.mma = a tf32 MMA, k = 8), the split keeps the decision.
func.func @dots(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>, %c: tensor<64x64xf32>, %a4: tensor<64x4xf32>, %b4: tensor<4x64xf32>) {
  %x3 = tt.dot %a, %b, %c {input_precision = "tf32x3"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32> loc("k.py":10:4)
  %small_k = tt.dot %a4, %b4, %c {input_precision = "tf32x3"} : tensor<64x4xf32> * tensor<4x64xf32> -> tensor<64x64xf32> loc("k.py":11:4)
  %tf32 = tt.dot %a, %b, %c {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32> loc("k.py":12:4)
  %ieee = tt.dot %a, %b, %c {input_precision = "ieee"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32> loc("k.py":13:4)
  func.return
}
// CHECK-LABEL: func.func @dots(
// CHECK-NEXT:    %0 = arith.constant -8192 : i32
// CHECK-NEXT:    %1 = tt.splat %0 : i32 -> tensor<64x32xi32>
// CHECK-NEXT:    %2 = tt.bitcast %a : tensor<64x32xf32> -> tensor<64x32xi32>
// CHECK-NEXT:    %3 = tt.and %2, %1 : tensor<64x32xi32>
// CHECK-NEXT:    %[[BIG_A:.*]] = tt.bitcast %3 : tensor<64x32xi32> -> tensor<64x32xf32>
// CHECK-NEXT:    %[[SMALL_A:.*]] = tt.sub %a, %[[BIG_A]] : tensor<64x32xf32>
// CHECK:         %[[BIG_B:.*]] = tt.bitcast %{{.*}} : tensor<32x64xi32> -> tensor<32x64xf32>
// CHECK-NEXT:    %[[SMALL_B:.*]] = tt.sub %b, %[[BIG_B]] : tensor<32x64xf32>
// CHECK-NEXT:    %[[ACC1:.*]] = tt.dot %[[SMALL_A]], %[[BIG_B]], %c {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>}
// CHECK-NEXT:    %[[ACC2:.*]] = tt.dot %[[BIG_A]], %[[SMALL_B]], %[[ACC1]] {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>}
// CHECK-NEXT:    %[[X3:.*]] = tt.dot %[[BIG_A]], %[[BIG_B]], %[[ACC2]] {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>}
// CHECK-NEXT:    %small_k = tt.dot %a4, %b4, %c {input_precision = "tf32x3"} :
// CHECK-NEXT:    %tf32 = tt.dot %a, %b, %c {input_precision = "tf32", ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 8]}>}
// CHECK-NEXT:    %ieee = tt.dot %a, %b, %c {input_precision = "ieee"} :
// CHECK-NEXT:    func.return

// CUDA-CORES-LABEL: func.func @dots(
// CUDA-CORES-NEXT:    %x3 = tt.dot %a, %b, %c {input_precision = "tf32x3"} :
// CUDA-CORES-NEXT:    %small_k = tt.dot

// LOC:     tt.dot {{.*}}"tf32"{{.*}} loc("k.py":10:4)
// LOC:     tt.dot {{.*}}"tf32"{{.*}} loc("k.py":10:4)
// LOC:     tt.dot {{.*}}"tf32"{{.*}} loc("k.py":10:4)
// LOC:     tt.dot {{.*}}"tf32x3"{{.*}} loc("k.py":11:4)
