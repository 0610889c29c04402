// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline' | filecheck %s

// A host descriptor's loads (tt.load ... tensor_map) feeding a warpgroup-MMA dot are copied by
// TMA: one mbarrier a tile, initialised before the loop (then a barrier of every thread), one
// barrier_expect of both tiles' bytes and one copy a tile per iteration issued (two iterations
// ahead, masked off past the end), a wait on this iteration's barrier (its phase flips as the
// tiles wrap around) before the cp.async wait that synchronises the threads, and the barriers
// invalidated after the loop. The dot stays in flight: the copies go into the tile the previous
// iteration's dot read (three tiles, as many as stages), after its wait and a barrier of every
// thread (the copy engine writes the tile as soon as the copy is issued). The kernel records each map's box (A's 8-row groups move: an
// 8-row box a group), swizzle and span of rotated groups (A's 8: its span map) for the
// runtime; A's copies take the tensor's rows (its descriptor's shape0, %am), which say where a
// span may be copied through the span map.
func.func @tma_loop(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %am: i32, %ak: i32, %as: i64, %amap: !tt.ptr<i8>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bk: i32, %bn: i32, %bs: i64, %bmap: !tt.ptr<i8>, %c: !tt.ptr<f32>, %k: i32, %row: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap tensor_map %amap[%row, %i] : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp tensor_map %bmap[%i, %c0] : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @tma_loop
// CHECK-SAME:    attributes {ttg.tensor_maps = {"4" = array<i64: 8, 64, 128, 8>, "9" = array<i64: 64, 64, 128, 0>}}
// CHECK:         %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64
// CHECK-COUNT-3: ttg.init_barrier %{{.*}}, 1
// CHECK-NEXT:    gpu.barrier
// CHECK:         ttg.barrier_expect %{{.*}}, 16384, %{{.*}}
// CHECK-NEXT:    ttg.memdesc_index
// CHECK-NEXT:    ttg.async_tma_copy_global_to_local %amap[%row, %{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} rows %am : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>
// CHECK-NEXT:    ttg.memdesc_index
// CHECK-NEXT:    ttg.async_tma_copy_global_to_local %bmap[%{{.*}}, %c0] %{{.*}}, %{{.*}}, %{{.*}} : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>
// CHECK-NOT:     ttg.async_copy_global_to_local
// CHECK:         scf.for %{{.*}} iter_args({{.*}}, %[[STAGE:stage]] = %{{.*}}, %[[PHASE:phase]] = %{{.*}})
// CHECK-NEXT:      %[[BAR:.*]] = ttg.memdesc_index %[[BARS]], %[[STAGE]]
// CHECK-NEXT:      ttg.wait_barrier %[[BAR]], %[[PHASE]]
// CHECK-NEXT:      ttg.async_wait {num = 1 : i32}
// CHECK-NOT:       tt.load
// CHECK:           %[[D:.*]] = tt.dot {{.*}}ttg.async
// CHECK-NEXT:      ttg.dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NEXT:      gpu.barrier
// CHECK:           ttg.barrier_expect
// CHECK:           ttg.async_tma_copy_global_to_local %amap[{{.*}}] {{.*}} rows %am :
// CHECK:           ttg.async_tma_copy_global_to_local %bmap
// CHECK:           scf.yield
// CHECK:         ttg.async_wait {num = 0 : i32}
// CHECK-COUNT-3: ttg.inval_barrier
// CHECK:         tt.store

// An innermost coordinate not known to be a multiple of 16 bytes (here of 2 bytes: %row may be
// odd) stays a cp.async copy (the copy engine refuses it); B's map is still used.
func.func @unaligned(%a: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %am: i32, %ak: i32, %as: i64, %amap: !tt.ptr<i8>, %b: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %bk: i32, %bn: i32, %bs: i64, %bmap: !tt.ptr<i8>, %c: !tt.ptr<f32>, %k: i32, %row: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c64 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %col = tt.add %i, %row : i32
    %av = tt.load %ap tensor_map %amap[%c0, %col] : tensor<64x64x!tt.ptr<f16>>
    %bv = tt.load %bp tensor_map %bmap[%i, %c0] : tensor<64x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @unaligned
// CHECK-SAME:    attributes {ttg.tensor_maps = {"9" = array<i64: 64, 64, 128, 0>}}
// CHECK:         ttg.barrier_expect %{{.*}}, 8192, %{{.*}}
// CHECK:         ttg.async_copy_global_to_local
// CHECK:         ttg.async_tma_copy_global_to_local %bmap
