// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},ttg-pipeline,tt-lower-to-gpu' --print-op-generic | filecheck %s

// tt.make_tensor_map lowered (gpu_lowering/tensor_map_create.py): every thread computes its
// program's slot (scratch + linear program id * 512 + slot * 256 bytes). Thread 0 zeroes a
// shared buffer (A: 256 bytes, its map and span map) and sets every field there: A's 2-d map
// (box 64 x 8, innermost first; dims K x M; the row stride in bytes), then its 5-d span map
// 128 bytes on; warp 0 copies both to the global slots with the release
// (tensormap.cp_fenceproxy), thread 0 acquires each. B's map likewise. Before A's copies ahead
// of the loop, thread 0 traps where A's tensor cannot be mapped (no printf: a call would
// serialize the warpgroup MMAs); the loop's own copies are not checked.
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
// CHECK:       ^bb0({{.*}}, %[[SCRATCH:global_scratch]]: !llvm.ptr<1>):
// CHECK:       %[[AMAP:amap]] = "llvm.getelementptr"(%[[SCRATCH]], %{{.*}}) {{.*}} elem_type = i8
// CHECK-SAME:  (!llvm.ptr<1>, i64) -> !llvm.ptr<1>
// CHECK:       %[[ASPAN:.*]] = "llvm.getelementptr"(%[[AMAP]]) <{rawConstantIndices = array<i32: 128>
// CHECK:       "scf.if"(%owner)
// CHECK-COUNT-32: "memref.store"(%{{.*}}, %[[SMEM:.*]], %{{.*}}) : (i64, memref<32xi64, 3 : i64>, index) -> ()
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0:.*]], %a) <{field = "global_address"}> : (!llvm.ptr<3>, !llvm.ptr<1>) -> ()
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0]], %{{.*}}) <{field = "rank"}>
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0]], %{{.*}}) <{field = "box_dim", ordinal = 0 : i32}>
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0]], %{{.*}}) <{field = "box_dim", ordinal = 1 : i32}>
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0]], %k) <{field = "global_dim", ordinal = 0 : i32}>
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0]], %m) <{field = "global_dim", ordinal = 1 : i32}>
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S0]], %{{.*}}) <{field = "global_stride", ordinal = 0 : i32}> : (!llvm.ptr<3>, i64) -> ()
// CHECK-COUNT-2: <{field = "element_stride"
// CHECK-NEXT:  <{field = "elemtype"}>
// CHECK-NEXT:  <{field = "interleave_layout"}>
// CHECK-NEXT:  <{field = "swizzle_mode"}>
// CHECK-NEXT:  <{field = "fill_mode"}>
// CHECK-NEXT:  %[[S1:.*]] = "llvm.getelementptr"(%[[S0]]) <{rawConstantIndices = array<i32: 128>
// CHECK-NEXT:  "ptx.tensormap.replace"(%[[S1]], %a) <{field = "global_address"}>
// CHECK-COUNT-5: <{field = "box_dim"
// CHECK-COUNT-5: <{field = "global_dim"
// CHECK-COUNT-4: <{field = "global_stride"
// CHECK:       %[[WARP0:.*]] = "arith.cmpi"(%{{.*}}, %{{.*}}) <{predicate = 6 : i64}>
// CHECK-NEXT:  "scf.if"(%[[WARP0]])
// CHECK-NEXT:  "ptx.tensormap.cp_fenceproxy"(%[[AMAP]], %[[S0]]) : (!llvm.ptr<1>, !llvm.ptr<3>) -> ()
// CHECK-NEXT:  %[[S1B:.*]] = "llvm.getelementptr"(%[[S0]]) <{rawConstantIndices = array<i32: 128>
// CHECK-NEXT:  "ptx.tensormap.cp_fenceproxy"(%[[ASPAN]], %[[S1B]])
// CHECK:       "scf.if"(%owner)
// CHECK-NEXT:  %[[G:.*]] = "llvm.addrspacecast"(%[[AMAP]]) : (!llvm.ptr<1>) -> !llvm.ptr
// CHECK-NEXT:  "nvvm.fence.proxy.acquire"(%[[G]], %{{.*}}) <{scope = #nvvm.mem_scope<gpu>}>
// CHECK-NEXT:  %[[GS:.*]] = "llvm.addrspacecast"(%[[ASPAN]]) : (!llvm.ptr<1>) -> !llvm.ptr
// CHECK-NEXT:  "nvvm.fence.proxy.acquire"(%[[GS]], %{{.*}})
// CHECK:       "ptx.tensormap.replace"(%{{.*}}, %b) <{field = "global_address"}>
// CHECK:       "ptx.tensormap.cp_fenceproxy"
// CHECK:       "nvvm.fence.proxy.acquire"
// CHECK-NOT:   "gpu.printf"
// CHECK:       "llvm.intr.trap"
// CHECK:       "nvvm.cp.async.bulk.tensor.shared.cluster.global"
// CHECK:       "scf.for"
// CHECK-NOT:   "llvm.intr.trap"
// CHECK:       "nvvm.mbarrier.inval"
