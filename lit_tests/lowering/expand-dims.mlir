// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.expand_dims consumes the slice of its result's layout: the registers are the operand's,
// unchanged. A row sum expanded and broadcast back over its row (x - sum(x, 1)[:, None]) uses
// the reduction's result register directly.
func.func @minus_row_sum(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x4x!tt.ptr<f32>>
  %m = tt.reduce %v {axis = 1 : i32} : tensor<2x4xf32> -> tensor<2xf32> {
  ^bb0(%m_lhs: f32, %m_rhs: f32):
    %m_acc = tt.add %m_lhs, %m_rhs : f32
    tt.reduce.return %m_acc : f32
  }
  %me = tt.expand_dims %m {axis = 1 : i32} : tensor<2xf32> -> tensor<2x1xf32>
  %mb = tt.broadcast %me : tensor<2x1xf32> -> tensor<2x4xf32>
  %d = tt.sub %v, %mb : tensor<2x4xf32>
  tt.store %xs, %d : tensor<2x4x!tt.ptr<f32>>
  func.return
}
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK:         %[[S1:.*]], %{{.*}} = "gpu.shuffle"(%v, %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[A1:.*]] = arith.addf %v, %[[S1]] : f32
// CHECK-NEXT:    %[[S2:.*]], %{{.*}} = "gpu.shuffle"(%[[A1]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[M:.*]] = arith.addf %[[A1]], %[[S2]] : f32
// CHECK-NEXT:    %d = arith.subf %v, %[[M]] : f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %d, %x : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"
