// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4},tt-lower-to-gpu' | filecheck %s

// Every op that communicates through shared memory (cross-warp reductions, layout
// conversions, dot staging) gets its own static buffer: a private memref.global in address
// space 3, 16-byte aligned, named smem_0, smem_1, ... in program order, declared before the
// kernel in the gpu.module and fetched with memref.get_global where the op is.
func.func @buffers(%x: !tt.ptr<f32>, %y: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<8x64x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<8x64xf32> -> tensor<64xf32> {
  ^bb0(%s_lhs: f32, %s_rhs: f32):
    %s_acc = tt.add %s_lhs, %s_rhs : f32
    tt.reduce.return %s_acc : f32
  }
  %ys = tt.splat %y : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %w = tt.load %ys {isVolatile} : tensor<64x!tt.ptr<i32>>
  %wf = tt.cast %w : tensor<64xi32> -> tensor<64xf32>
  %t = tt.add %s, %wf : tensor<64xf32>
  %total = tt.reduce %t {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%total_lhs: f32, %total_rhs: f32):
    %total_acc = tt.maximum %total_lhs, %total_rhs : f32
    tt.reduce.return %total_acc : f32
  }
  tt.store %x, %total : !tt.ptr<f32>
  func.return
}
// Column sums of 8x64 over warpsPerCTA = [2, 2]: 2 warps per column, 64 columns (128 floats);
// the loaded vector (cast to f32; volatile, so not loaded again) moved to the layout of the
// sums (64 floats); the final maximum: the 64 columns are spread over 2 warps, 2 partials.
// CHECK:       "gpu.module"() <{sym_name = "kernels"}> ({
// CHECK-NEXT:    "memref.global"() <{sym_name = "smem_0", type = memref<128xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()
// CHECK-NEXT:    "memref.global"() <{sym_name = "smem_1", type = memref<64xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()
// CHECK-NEXT:    "memref.global"() <{sym_name = "smem_2", type = memref<2xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()
// CHECK-NEXT:    "gpu.func"()
// CHECK:         memref.get_global @smem_0 : memref<128xf32, 3 : i64>
// CHECK:         memref.get_global @smem_1 : memref<64xf32, 3 : i64>
// CHECK:         memref.get_global @smem_2 : memref<2xf32, 3 : i64>
// CHECK-NOT:     memref.get_global
// CHECK:         "gpu.return"
