// RUN: mytriton-opt %s --split-input-file -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// Past 48 KiB a program's shared buffers become views of dynamic shared memory: an f32
// 128x64 * 64x128 dot on CUDA cores stages (128 + 4) * 64 + 64 * 128 floats = 66560 bytes. No
// memref.global is left; at the kernel's entry one gpu.dynamic_shared_memory, the buffer cut
// out of it by memref.view at byte 0 and cast back to address space 3 (what every other op
// reads); the kernel records the bytes to launch with.
func.func @big_dot(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %av = tt.load %as : tensor<128x64x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<64x128x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<128x128xf32>
  %d = tt.dot %av, %bv, %zero : tensor<128x64xf32> * tensor<64x128xf32> -> tensor<128x128xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<128x128x!tt.ptr<f32>>
  func.return
}
// CHECK-NOT:   "memref.global"
// CHECK:       "gpu.func"
// CHECK:         %[[DYN:.*]] = "gpu.dynamic_shared_memory"() : () -> memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[AT:.*]] = "arith.constant"() <{value = 0 : index}> : () -> index
// CHECK-NEXT:    %[[VIEW:.*]] = "memref.view"(%[[DYN]], %[[AT]]) : (memref<?xi8, #gpu.address_space<workgroup>>, index) -> memref<16640xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[SMEM:.*]] = "memref.memory_space_cast"(%[[VIEW]]) : (memref<16640xf32, #gpu.address_space<workgroup>>) -> memref<16640xf32, 3 : i64>
// CHECK-NOT:     "memref.get_global"
// CHECK:         "memref.store"(%{{.*}}, %[[SMEM]], %{{.*}}) : (f32, memref<16640xf32, 3 : i64>, index) -> ()
// CHECK:       mytriton.dynamic_shared_memory = 66560 : i32

// -----

// Shared memory by liveness (shared_alloc): the dot's staging buffer is live over the dot only,
// so the reduction's scratch after it takes the same bytes (view at byte 0 too), and the kernel
// launches with the larger of the two, not their sum; the dot ends with a barrier, so none is
// added before the reduction's first store.
func.func @dot_then_reduce(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<64x128x!tt.ptr<f32>>
  %av = tt.load %as : tensor<128x64x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<64x128x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<128x128xf32>
  %d = tt.dot %av, %bv, %zero : tensor<128x64xf32> * tensor<64x128xf32> -> tensor<128x128xf32>
  %s = tt.reduce %d {axis = 0 : i32} : tensor<128x128xf32> -> tensor<128xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  tt.store %cs, %s : tensor<128x!tt.ptr<f32>>
  func.return
}
// CHECK:       "gpu.func"
// CHECK:         %[[DYN:.*]] = "gpu.dynamic_shared_memory"()
// CHECK-NEXT:    %[[AT0:.*]] = "arith.constant"() <{value = 0 : index}> : () -> index
// CHECK-NEXT:    %[[V0:.*]] = "memref.view"(%[[DYN]], %[[AT0]]) : {{.*}} -> memref<16640xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[STAGE:.*]] = "memref.memory_space_cast"(%[[V0]])
// CHECK-NEXT:    %[[AT1:.*]] = "arith.constant"() <{value = 0 : index}> : () -> index
// CHECK-NEXT:    %[[V1:.*]] = "memref.view"(%[[DYN]], %[[AT1]]) : {{.*}} -> memref<[[N:[0-9]+]]xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[SCRATCH:.*]] = "memref.memory_space_cast"(%[[V1]])
// CHECK:         "memref.store"(%{{.*}}, %[[STAGE]], %{{.*}})
// CHECK:         "gpu.barrier"() : () -> ()
// CHECK-NOT:     "memref.store"(%{{.*}}, %[[SCRATCH]]
// CHECK:         "gpu.barrier"() : () -> ()
// CHECK:         "memref.store"(%{{.*}}, %[[SCRATCH]], %{{.*}})
// CHECK:       mytriton.dynamic_shared_memory = 66560 : i32
