// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A runtime scf.while keeps its structure: the before region computes the (scalar) condition
// and forwards every register of the carried values, the after region yields them; a carried
// block is one value per register of the thread, in register order, next to the scalars.
func.func @carried(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p0 = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %acc0 = tt.zeros : tensor<64xf32>
  %res:3 = scf.while (%acc = %acc0, %p = %p0, %k = %c0) : (tensor<64xf32>, tensor<64x!tt.ptr<f32>>, i32) -> (tensor<64xf32>, tensor<64x!tt.ptr<f32>>, i32) {
    %go = tt.cmp lt, %k, %n : i32
    scf.condition(%go) %acc, %p, %k : tensor<64xf32>, tensor<64x!tt.ptr<f32>>, i32
  } do {
  ^bb0(%acc1: tensor<64xf32>, %p1: tensor<64x!tt.ptr<f32>>, %k1: i32):
    %v = tt.load %p1 : tensor<64x!tt.ptr<f32>>
    %a = tt.add %acc1, %v : tensor<64xf32>
    %c64 = arith.constant 64 : i32
    %s = tt.splat %c64 : i32 -> tensor<64xi32>
    %pn = tt.addptr %p1, %s : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %c1 = arith.constant 1 : i32
    %kn = tt.add %k1, %c1 : i32
    scf.yield %a, %pn, %kn : tensor<64xf32>, tensor<64x!tt.ptr<f32>>, i32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %q = tt.addptr %os, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %q, %res#0 : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %c64 = arith.constant 64 : i32
// CHECK:         %p0 = llvm.getelementptr %x[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %p0_1 = llvm.getelementptr %x[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %res, %res_1, %res_2, %res_3, %res_4 = scf.while (%[[ACC:.*]] = %[[ZERO]], %[[ACC1:.*]] = %[[ZERO]], %[[P:.*]] = %p0, %[[P1:.*]] = %p0_1, %[[K:.*]] = %c0) : (f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, i32) -> (f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, i32) {
// CHECK-NEXT:      %go = arith.cmpi slt, %[[K]], %n : i32
// CHECK-NEXT:      scf.condition(%go) %[[ACC]], %[[ACC1]], %[[P]], %[[P1]], %[[K]] : f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, i32
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[BA:.*]]: f32, %[[BA1:.*]]: f32, %[[BP:.*]]: !llvm.ptr<1>, %[[BP1:.*]]: !llvm.ptr<1>, %[[BK:.*]]: i32):
// CHECK-NEXT:      %v = llvm.load %[[BP]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %v_1 = llvm.load %[[BP1]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %a = arith.addf %[[BA]], %v : f32
// CHECK-NEXT:      %a_1 = arith.addf %[[BA1]], %v_1 : f32
// CHECK-NEXT:      %pn = llvm.getelementptr %[[BP]][%c64] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      %pn_1 = llvm.getelementptr %[[BP1]][%c64] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      %kn = arith.addi %[[BK]], %c1 : i32
// CHECK-NEXT:      scf.yield %a, %a_1, %pn, %pn_1, %kn : f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, i32
// CHECK-NEXT:    }
// CHECK:         llvm.store %res, %q : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %res_1, %q_1 : f32, !llvm.ptr<1>
