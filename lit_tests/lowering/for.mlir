// RUN: mytriton-opt %s --split-input-file -p 'ttg-accelerate-matmul{num_warps=1},tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A runtime scf.for keeps its structure (i32 induction variable, same bounds); a carried block
// becomes one iter_arg per register of the thread, in register order, next to the scalars.
func.func @carried(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p0 = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %acc0 = tt.zeros : tensor<64xf32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0, %p = %p0, %k = %c0) -> (tensor<64xf32>, tensor<64x!tt.ptr<f32>>, i32) : i32 {
    %v = tt.load %p : tensor<64x!tt.ptr<f32>>
    %a = tt.add %acc, %v : tensor<64xf32>
    %c64 = arith.constant 64 : i32
    %s = tt.splat %c64 : i32 -> tensor<64xi32>
    %pn = tt.addptr %p, %s : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %kn = tt.add %k, %i : i32
    scf.yield %a, %pn, %kn : tensor<64xf32>, tensor<64x!tt.ptr<f32>>, i32
  }
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %q = tt.addptr %os, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  tt.store %q, %res#0 : tensor<64x!tt.ptr<f32>>
  %kf = tt.cast %res#2 : i32 -> f32
  tt.store %out, %kf : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %c64 = arith.constant 64 : i32
// CHECK:         %p0 = llvm.getelementptr %x[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %p0_1 = llvm.getelementptr %x[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %res, %res_1, %res_2, %res_3, %res_4 = scf.for %[[I:.*]] = %c0 to %n step %c1 iter_args(%[[ACC:.*]] = %[[ZERO]], %[[ACC1:.*]] = %[[ZERO]], %[[P:.*]] = %p0, %[[P1:.*]] = %p0_1, %[[K:.*]] = %c0) -> (f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, i32) : i32 {
// CHECK-NEXT:      %v = llvm.load %[[P]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %v_1 = llvm.load %[[P1]] : !llvm.ptr<1> -> f32
// CHECK-NEXT:      %a = arith.addf %[[ACC]], %v : f32
// CHECK-NEXT:      %a_1 = arith.addf %[[ACC1]], %v_1 : f32
// CHECK-NEXT:      %pn = llvm.getelementptr %[[P]][%c64] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      %pn_1 = llvm.getelementptr %[[P1]][%c64] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:      %kn = arith.addi %[[K]], %[[I]] : i32
// CHECK-NEXT:      scf.yield %a, %a_1, %pn, %pn_1, %kn : f32, f32, !llvm.ptr<1>, !llvm.ptr<1>, i32
// CHECK-NEXT:    }
// CHECK:         llvm.store %res, %q : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %res_1, %q_1 : f32, !llvm.ptr<1>
// CHECK-NEXT:    %kf = arith.sitofp %res_4 : i32 to f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %kf, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

// A tt.dot accumulator carried through a K loop stays in registers: the loop carries the
// thread's accumulator tile, and the dot's own loop over the staged K is nested inside.
func.func @k_loop(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %acc0 = tt.zeros : tensor<8x8xf32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<8x2x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<2x8x!tt.ptr<f32>>
  %res = scf.for %i = %c0 to %k step %c2 iter_args(%acc = %acc0) -> (tensor<8x8xf32>) : i32 {
    %av = tt.load %as : tensor<8x2x!tt.ptr<f32>>
    %bv = tt.load %bs : tensor<2x8x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %acc : tensor<8x2xf32> * tensor<2x8xf32> -> tensor<8x8xf32>
    scf.yield %d : tensor<8x8xf32>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
  tt.store %cs, %res : tensor<8x8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %acc0 = arith.constant 0.000000e+00 : f32
// CHECK:         %res, %res_1 = scf.for %{{.*}} = %c0 to %k step %c2 iter_args(%[[ACC:.*]] = %acc0, %[[ACC1:.*]] = %acc0) -> (f32, f32) : i32 {
// CHECK:           "gpu.barrier"() : () -> ()
// CHECK-NEXT:      %d, %d_1 = scf.for %{{.*}} = %c0 to %c2 step %{{.*}} iter_args(%[[A0:.*]] = %[[ACC]], %[[A1:.*]] = %[[ACC1]]) -> (f32, f32) : i32 {
// CHECK:             math.fma %{{.*}}, %{{.*}}, %[[A0]] : f32
// CHECK-NEXT:        math.fma %{{.*}}, %{{.*}}, %[[A1]] : f32
// CHECK:           }
// CHECK-NEXT:      "gpu.barrier"() : () -> ()
// CHECK-NEXT:      scf.yield %d, %d_1 : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.store %res, %c : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %res_1, %c : f32, !llvm.ptr<1>
