// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline' | filecheck %s
// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80},ttg-pipeline' | filecheck %s --check-prefix=SM80

// On sm_90 the K loop's dot runs as warpgroup MMAs over swizzled tiles: it only starts
// (ttg.async) and stays in flight into the next iteration, whose dot chains onto it; a
// pendings = 1 wait after the dot retires the previous iteration's (in this warp), a barrier
// waits for every warp's, then the copies of iteration i + 2 are issued into the tile iteration
// i - 1 read (three tiles, one a stage). The loop's result is waited for after the loop. On sm_80
// (mma.sync) the copies come first and the dot is synchronous.
func.func @k_loop(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp0 = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c64 : i32 -> tensor<64x64xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %bp2 = tt.addptr %bp, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    scf.yield %d, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>
// CHECK:       %[[RES:[a-z0-9_]+]], {{.*}} = scf.for
// CHECK:         ttg.async_wait {num = 1 : i32}
// CHECK-NOT:     ttg.async_copy_global_to_local
// CHECK:         %[[D:.*]] = tt.dot {{.*}}ttg.async
// CHECK-NEXT:    ttg.dot_wait %[[D]] {pendings = 1 : i32} : tensor<64x64xf32
// CHECK-NEXT:    gpu.barrier
// CHECK-NOT:     gpu.barrier
// CHECK:         ttg.async_copy_global_to_local
// CHECK:         ttg.async_copy_global_to_local
// CHECK:         ttg.async_commit_group
// CHECK-NOT:     ttg.dot_wait
// CHECK:         scf.yield %[[D]],
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[W:.*]] = ttg.dot_wait %[[RES]] {pendings = 0 : i32}
// CHECK-NEXT:  ttg.async_wait {num = 0 : i32}
// CHECK:       tt.store %{{.*}}, %[[W]]
// SM80:        scf.for
// SM80:          ttg.async_wait {num = 1 : i32}
// SM80:          ttg.async_copy_global_to_local
// SM80:          ttg.async_commit_group
// SM80-NOT:      ttg.dot_wait
// SM80:          tt.dot
// SM80-NOT:      ttg.dot_wait
// SM80:          scf.yield

// A dot that does not accumulate into what the loop carries (here every iteration's dot starts
// from zeros) is waited for before the yield: nothing chains onto it, three tiles, and no
// barrier before the copies (the one after the next iteration's async_wait follows its wait).
func.func @fresh_accumulator(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp0 = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res:3 = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc0 : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c64 : i32 -> tensor<64x64xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %bp2 = tt.addptr %bp, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    scf.yield %d, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @fresh_accumulator
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
// CHECK-NOT:     gpu.barrier
// CHECK:         %[[D2:.*]] = tt.dot {{.*}}ttg.async
// CHECK-NOT:     gpu.barrier
// CHECK:         ttg.async_commit_group
// CHECK-NEXT:    %[[W2:.*]] = ttg.dot_wait %[[D2]] {pendings = 0 : i32} : tensor<64x64xf32
// CHECK-NEXT:    scf.yield %[[W2]],
// CHECK:       ttg.async_wait {num = 0 : i32}
// CHECK-NOT:   ttg.dot_wait
// CHECK:       func.return
