// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80},ttg-pipeline' | filecheck %s

// The module names no tt.num_stages: the default, 3 (ttg-pipeline-stages.mlir sets others).
// On sm_80 (mma.sync: layouts/dot-mma.mlir; passes/ttg-pipeline-wgmma.mlir has sm_90's
// warpgroup MMAs) a K loop of f16 tensor-core dots whose operand pointers are carried and advanced: both loads
// become asynchronous copies into 3 stacked tiles, two iterations ahead. Before the loop the
// copies of iterations 0 and 1 (the pointers advanced once in between), in the loop a wait for
// this iteration's group, the copies of iteration i + 2 into the tile iteration i - 1 read, the
// pointers of iteration i + 3 carried on, and the dot reading tile i % 3. The loop no longer
// carries the pointers of iteration i: nothing reads them.
func.func @k_loop(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap0 = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bp0 = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %res:3 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap = %ap0, %bp = %bp0) -> (tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %sa = tt.splat %c32 : i32 -> tensor<64x32xi32>
    %ap2 = tt.addptr %ap, %sa : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
    %sb = tt.splat %c32 : i32 -> tensor<32x64xi32>
    %bp2 = tt.addptr %bp, %sb : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %ap2, %bp2 : tensor<64x64xf32>, tensor<64x32x!tt.ptr<f16>>, tensor<32x64x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res#0 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @k_loop
// CHECK:         %[[ABUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
// CHECK-NEXT:    %[[BBUF:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
// CHECK:         %[[T0:.*]] = ttg.memdesc_index %[[ABUF]], %{{.*}} : !ttg.memdesc<3x64x32xf16, {{.*}}> -> !ttg.memdesc<64x32xf16, {{.*}}>
// CHECK-NEXT:    ttg.async_copy_global_to_local %ap0, %[[T0]] mask %{{.*}}
// CHECK:         ttg.async_copy_global_to_local %bp0, %{{.*}} mask
// CHECK-NEXT:    ttg.async_commit_group
// CHECK:         %[[AP1:.*]] = tt.addptr %ap0,
// CHECK:         %[[BP1:.*]] = tt.addptr %bp0,
// CHECK:         ttg.async_copy_global_to_local %[[AP1]],
// CHECK:         ttg.async_copy_global_to_local %[[BP1]],
// CHECK-NEXT:    ttg.async_commit_group
// CHECK:         %[[AP2:.*]] = tt.addptr %[[AP1]],
// CHECK:         %[[BP2:.*]] = tt.addptr %[[BP1]],
// CHECK:         scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0, %ap_ahead = %[[AP2]], %bp_ahead = %[[BP2]], %stage = %{{.*}}) -> ({{.*}}, i32) : i32 {
// CHECK-NEXT:      ttg.async_wait {num = 1 : i32}
// CHECK:           ttg.async_copy_global_to_local %ap_ahead,
// CHECK:           ttg.async_copy_global_to_local %bp_ahead,
// CHECK-NEXT:      ttg.async_commit_group
// CHECK:           %[[APN:.*]] = tt.addptr %ap_ahead,
// CHECK:           %[[BPN:.*]] = tt.addptr %bp_ahead,
// CHECK:           %[[AV:.*]] = ttg.memdesc_index %[[ABUF]], %stage
// CHECK-NEXT:      %av = ttg.local_load %[[AV]] : !ttg.memdesc<64x32xf16, {{.*}}> -> tensor<64x32xf16, #{{.*}}>
// CHECK-NEXT:      %[[BV:.*]] = ttg.memdesc_index %[[BBUF]], %stage
// CHECK-NEXT:      %bv = ttg.local_load %[[BV]]
// CHECK-NEXT:      %d = tt.dot %av, %bv, %acc
// CHECK-NEXT:      scf.yield %d, %[[APN]], %[[BPN]], %{{.*}} :
// CHECK-NEXT:    }
// CHECK-NEXT:    ttg.async_wait {num = 0 : i32}

// A loop whose body stores stays: a copy issued iterations early could miss what it writes.
func.func @stores(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    tt.store %cs, %d : tensor<64x64x!tt.ptr<f32>>
    scf.yield %d : tensor<64x64xf32>
  }
  func.return
}
// CHECK-LABEL: func.func @stores
// CHECK-NOT:     ttg.local_alloc
// CHECK:         %av = tt.load %ap

// A masked load whose other is not zero stays (the copy engine fills zeros), as does an
// ieee f32 dot (CUDA cores) and a loop marked tt.num_stages = 1; the load without other beside
// it is still pipelined, into 3 tiles.
func.func @other(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1.0 : f16
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %ones = tt.splat %one : f16 -> tensor<64x32xf16>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %ks = tt.splat %i : i32 -> tensor<64x32xi32>
    %m = tt.cmp lt, %ks, %ks : tensor<64x32xi32>
    %av = tt.load %ap, %m, %ones : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @other
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16,
// CHECK-NOT:     ttg.local_alloc
// CHECK:         %av = tt.load %ap, %m, %ones
// CHECK:         %bv = ttg.local_load

func.func @ieee(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f32> -> tensor<64x32x!tt.ptr<f32>>
  %bp = tt.splat %b : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f32>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %acc {input_precision = "ieee"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tt.num_stages = 4 : i32}
  %res2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %res) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f32>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  } {tt.num_stages = 1 : i32}
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res2 : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @ieee
// CHECK-NOT:     ttg.{{local|async|memdesc}}
// CHECK:         tt.store

// A dot operand defined before the loop (attention's Q) is stored into its own tile once,
// before the loop, and the dot reads the tile; the loaded operand is pipelined as usual.
func.func @invariant(%q: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %qp = tt.splat %q : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %qv = tt.load %qp : tensor<64x32x!tt.ptr<f16>>
  %bp = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %qv, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @invariant
// CHECK:         %qv = tt.load %qp
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16,
// CHECK:         %[[Q:.*]] = ttg.local_alloc %qv : (tensor<64x32xf16, #{{.*}}>) -> !ttg.memdesc<64x32xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
// CHECK-NEXT:    scf.for
// CHECK:           %[[QV:.*]] = ttg.local_load %[[Q]] : !ttg.memdesc<64x32xf16, {{.*}}> -> tensor<64x32xf16, #{{.*}}>
// CHECK-NEXT:      %d = tt.dot %[[QV]], %bv, %acc
