// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' --print-op-generic | filecheck %s

// Two chained 64 x 64 x 64 f16 dots on sm_90 (attention's P @ V): the second one's A is the
// first one's result rounded to f16, in the accumulator's layout, which is the warpgroup MMA's
// A fragment. It stays in registers: each k16 step packs four pairs of f16 into i32 words
// (vector<2xf16> bitcasts, the lower column in the low half) for ptx.wgmma.mma_async; only B is staged (8192 bytes on,
// N-major: layoutB = row), one barrier before the MMAs.
func.func @chain(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %v: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %vs = tt.splat %v : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %av = tt.load %as : tensor<64x64x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<64x64x!tt.ptr<f16>>
  %vv = tt.load %vs : tensor<64x64x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<64x64xf32>
  %s = tt.dot %av, %bv, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %p = tt.cast %s : tensor<64x64xf32> -> tensor<64x64xf16>
  %o = tt.dot %p, %vv, %zero : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<64x64x!tt.ptr<f32>>
  tt.store %cs, %o : tensor<64x64x!tt.ptr<f32>>
  func.return
}
// CHECK-COUNT-4: "nvvm.wgmma.mma_async"
// CHECK:         "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}>
// CHECK:         "nvvm.fence.proxy"
// CHECK-NEXT:    "gpu.barrier"
// CHECK:         %[[PAIR:.*]] = "vector.broadcast"(%{{.*}}) : (f16) -> vector<2xf16>
// CHECK-NEXT:    %[[BOTH:.*]] = "vector.insert"(%{{.*}}, %[[PAIR]]) <{static_position = array<i64: 1>}> : (f16, vector<2xf16>) -> vector<2xf16>
// CHECK-NEXT:    %[[W0:.*]] = "llvm.bitcast"(%[[BOTH]]) : (vector<2xf16>) -> i32
// CHECK:         "nvvm.wgmma.fence.aligned"() : () -> ()
// CHECK-NEXT:    %{{.*}} = "ptx.wgmma.mma_async"(%{{.*}}, %[[W0]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{shape = #nvvm.shape<m = 64, n = 64, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>, scaleD = #nvvm.wgmma_scale_out<one>, layoutB = #nvvm.mma_layout<row>}> : (!llvm.struct<({{.*}})>, i32, i32, i32, i32, i64) -> !llvm.struct<({{.*}})>
// CHECK-COUNT-3: "ptx.wgmma.mma_async"
// CHECK-NOT:     "ptx.wgmma.mma_async"
// CHECK:         "nvvm.wgmma.commit.group.sync.aligned"
