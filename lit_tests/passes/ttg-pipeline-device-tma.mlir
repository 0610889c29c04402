// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline' | filecheck %s

// Descriptors made in the kernel: loads naming a top-level tt.make_tensor_map as their tensor
// map are copied by TMA as a host descriptor's are. Each map read records its box, swizzle,
// span of rotated groups (A's 8) and its slot of global scratch; the kernel gets the scratch
// as its last argument and ttg.global_scratch (256 bytes a map) for the runtime. A's copies
// take the tensor's rows from the map's first shape operand (%m).
func.func @device_maps(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32>, %m: i32, %n: i32, %k: i32 {tt.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %ks = tt.cast %k : i32 -> i64
  %ns = arith.constant 64 : i64
  %amap = tt.make_tensor_map %a, [%m, %k], [%ks, %one] : !tt.ptr<f16>
  %bmap = tt.make_tensor_map %b, [%k, %n], [%ns, %one] : !tt.ptr<f16>
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap tensor_map %amap[%c0, %i] : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp tensor_map %bmap[%i, %c0] : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @device_maps
// CHECK-SAME:    %k: i32 {tt.divisibility = 16 : i32}, %global_scratch: !tt.ptr<i8>)
// CHECK-SAME:    attributes {ttg.global_scratch = 512 : i64}
// CHECK:         %amap = tt.make_tensor_map %a, [%m, %k], [%ks, %one] {box = array<i64: 8, 64>, swizzle = 128 : i64, span = 8 : i64, slot = 0 : i64}
// CHECK:         %bmap = tt.make_tensor_map %b, [%k, %n], [%ns, %one] {box = array<i64: 64, 64>, swizzle = 128 : i64, span = 0 : i64, slot = 1 : i64}
// CHECK:         ttg.async_tma_copy_global_to_local %amap[%c0, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} rows %m :
// CHECK:         ttg.async_tma_copy_global_to_local %bmap[%{{.*}}, %c0]
// CHECK-NOT:     ttg.async_copy_global_to_local
// CHECK:         scf.for

// A base or an outer stride not known to be a multiple of 16 bytes (A's base has no known
// divisibility; B's stride %s is any i64) keeps the loads cp.async copies and their maps
// unrecorded: the kernel gets no scratch.
func.func @unaligned(%a: !tt.ptr<f16>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %c: !tt.ptr<f32>, %m: i32, %n: i32, %k: i32 {tt.divisibility = 16 : i32}, %s: i64) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %one = arith.constant 1 : i64
  %ks = tt.cast %k : i32 -> i64
  %amap = tt.make_tensor_map %a, [%m, %k], [%ks, %one] : !tt.ptr<f16>
  %bmap = tt.make_tensor_map %b, [%k, %n], [%s, %one] : !tt.ptr<f16>
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap tensor_map %amap[%c0, %i] : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp tensor_map %bmap[%i, %c0] : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @unaligned
// CHECK-NOT:     global_scratch
// CHECK:         %amap = tt.make_tensor_map %a, [%m, %k], [%ks, %one] : !tt.ptr<f16>
// CHECK:         %bmap = tt.make_tensor_map %b, [%k, %n], [%s, %one] : !tt.ptr<f16>
// CHECK-NOT:     ttg.async_tma_copy_global_to_local
// CHECK:         scf.for
