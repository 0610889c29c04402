// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline' | filecheck %s

// Attention's loop on sm_90: S = Q @ K^T is synchronous (the softmax reads it at once) and
// P @ V (A from registers: P is laid out as S, the accumulator) is only started. No dot chains
// onto P @ V, and the loop carries its result into a rescale that reads it after the next
// iteration's Q @ K^T, whose wait (wgmma.wait_group 0) retires both: the carried value is read
// through a ttg.dot_wait placed right after that dot, P @ V stays in flight across the yield,
// and the copies of iteration i + 2 follow P @ V after a barrier (every warpgroup has retired
// the P @ V of iteration i - 1, which read the V tile being rewritten): three tiles each, as
// Triton's attention loop. The loop's result is waited for after it.
func.func @attention(%q: !tt.ptr<f16>, %k: !tt.ptr<f16>, %v: !tt.ptr<f16>, %o: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = tt.zeros : tensor<64x64xf32>
  %half = arith.constant 0.5 : f32
  %qp = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qt = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %kp0 = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %vp0 = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %kp = %kp0, %vp = %vp0) -> (tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>) : i32 {
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %s = tt.dot %qt, %kt, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %p = tt.exp2 %s : tensor<64x64xf32>
    %hs = tt.splat %half : f32 -> tensor<64x64xf32>
    %scaled = tt.mul %acc, %hs : tensor<64x64xf32>
    %ph = tt.cast %p : tensor<64x64xf32> -> tensor<64x64xf16>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %ph, %vt, %scaled : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c64 : i32 -> tensor<64x64xi32>
    %kp2 = tt.addptr %kp, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vp2 = tt.addptr %vp, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    scf.yield %d, %kp2, %vp2 : tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>
  }
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %os, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
// CHECK:       ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16
// CHECK:       %[[RES:[a-z0-9_]+]], {{.*}} = scf.for %{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{.*}},
// CHECK:         ttg.async_wait {num = 1 : i32}
// CHECK-NOT:     ttg.async_copy_global_to_local
// CHECK:         %[[S:.*]] = tt.dot %{{.*}}, %{{.*}}, %{{.*}} {
// CHECK-NOT:     ttg.async
// CHECK-SAME:    -> tensor<64x64xf32
// CHECK-NEXT:    %[[W:.*]] = ttg.dot_wait %[[ACC]] {pendings = 0 : i32}
// CHECK-NOT:     %[[ACC]]
// CHECK:         tt.exp2 %[[S]]
// CHECK:         tt.mul %[[W]],
// CHECK:         %[[D:.*]] = tt.dot {{.*}}ttg.async
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK:         ttg.async_copy_global_to_local
// CHECK:         ttg.async_copy_global_to_local
// CHECK:         ttg.async_commit_group
// CHECK-NOT:     ttg.dot_wait
// CHECK:         scf.yield %[[D]],
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[R:.*]] = ttg.dot_wait %[[RES]] {pendings = 0 : i32}
// CHECK-NEXT:  ttg.async_wait {num = 0 : i32}
// CHECK:       tt.store %{{.*}}, %[[R]]

// The same loop reading the carried value before Q @ K^T: P @ V still starts before the copies
// (its A is in registers, its V tile is not rewritten this iteration) but is waited for before
// the yield, and no barrier precedes the copies.
func.func @read_before_retiring(%q: !tt.ptr<f16>, %k: !tt.ptr<f16>, %v: !tt.ptr<f16>, %o: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = tt.zeros : tensor<64x64xf32>
  %half = arith.constant 0.5 : f32
  %qp = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %qt = tt.load %qp : tensor<64x64x!tt.ptr<f16>>
  %kp0 = tt.splat %k : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %vp0 = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res:3 = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero, %kp = %kp0, %vp = %vp0) -> (tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>) : i32 {
    %hs = tt.splat %half : f32 -> tensor<64x64xf32>
    %scaled = tt.mul %acc, %hs : tensor<64x64xf32>
    %kt = tt.load %kp : tensor<64x64x!tt.ptr<f16>>
    %s = tt.dot %qt, %kt, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %p = tt.exp2 %s : tensor<64x64xf32>
    %ph = tt.cast %p : tensor<64x64xf32> -> tensor<64x64xf16>
    %vt = tt.load %vp : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %ph, %vt, %scaled : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c64 : i32 -> tensor<64x64xi32>
    %kp2 = tt.addptr %kp, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    %vp2 = tt.addptr %vp, %sa : tensor<64x64x!tt.ptr<f16>>, tensor<64x64xi32>
    scf.yield %d, %kp2, %vp2 : tensor<64x64xf32>, tensor<64x64x!tt.ptr<f16>>, tensor<64x64x!tt.ptr<f16>>
  }
  %os = tt.splat %o : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %os, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @read_before_retiring
// CHECK:         scf.for
// CHECK-NOT:     ttg.dot_wait
// CHECK:         %[[D2:.*]] = tt.dot {{.*}}ttg.async
// CHECK-NOT:     gpu.barrier
// CHECK:         ttg.async_commit_group
// CHECK-NEXT:    %[[W2:.*]] = ttg.dot_wait %[[D2]] {pendings = 0 : i32}
// CHECK-NEXT:    scf.yield %[[W2]],
// CHECK:       ttg.async_wait {num = 0 : i32}
// CHECK-NOT:   ttg.dot_wait
// CHECK:       func.return
