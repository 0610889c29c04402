// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline' | filecheck %s
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80},ttg-pipeline' | filecheck %s --check-prefix=SM80

// A tf32 K loop whose B is loaded N-contiguous. On sm_90 the warpgroup MMAs read B K-major
// only: its tile is K-contiguous, and its copies, along N, move one 4-byte element each
// (cp.async's smallest): both operands are still copied ahead and the dot stays in flight. On
// sm_80 (mma.sync, B K-contiguous too, read by ldmatrix untransposed) only A is copied ahead:
// the dot stores B's registers itself.
func.func @k_loop(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap0 = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %bp0 = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %res:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f32>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %acc {input_precision = "tf32"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    %sa = tt.splat %c32 : i32 -> tensor<64x32xi32>
    %sb = tt.splat %c32 : i32 -> tensor<32x64xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x32x!tt.ptr<f32>>, tensor<64x32xi32>
    %bp2 = tt.addptr %bp, %sb : tensor<32x64x!tt.ptr<f32>>, tensor<32x64xi32>
    scf.yield %d, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f32>>, tensor<32x64x!tt.ptr<f32>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf32, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf32, #ttg.nvmma_shared<{order = [0, 1], swizzle = 128, rotate = 0}>>
// CHECK:       scf.for
// CHECK:         %[[D:.*]] = tt.dot {{.*}}ttg.async
// CHECK-NEXT:    ttg.dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NEXT:    gpu.barrier
// CHECK:         ttg.async_copy_global_to_local {{.*}}!ttg.memdesc<64x32xf32
// CHECK:         ttg.async_copy_global_to_local {{.*}}!ttg.memdesc<32x64xf32, #ttg.nvmma_shared<{order = [0, 1]
// SM80:        ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf32, #ttg.shared<{order = [1, 0], pad = 4}>>
// SM80-NOT:    ttg.local_alloc
// SM80:        scf.for
// SM80:          ttg.async_copy_global_to_local {{.*}}!ttg.memdesc<64x32xf32
// SM80-NOT:      ttg.async_copy_global_to_local
// SM80:          tt.dot
