// RUN: mytriton-opt %s --jit-pipeline | filecheck %s
// RUN: mytriton-opt %s -p tt-simplify,licm,tt-simplify | filecheck %s

// The pipeline @jit runs on every kernel (tt-simplify,licm,tt-simplify) on a row-sum kernel:
// identities vanish, duplicate splats merge, invariant address math leaves the loop, the
// masked load stays in it.

func.func @row_sum(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32) {
  %pid = tt.get_program_id x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %acc0 = tt.splat %zero : f32 -> tensor<64xf32>
  %row = tt.mul %pid, %n : i32
  %res = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (tensor<64xf32>) : i32 {
    %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
    %kk = tt.mul %k, %c64 : i32
    %start = tt.add %row, %kk : i32
    %s = tt.splat %start : i32 -> tensor<64xi32>
    %offs = tt.add %s, %r : tensor<64xi32>
    %col = tt.splat %kk : i32 -> tensor<64xi32>
    %cols = tt.add %col, %r : tensor<64xi32>
    %ns = tt.splat %n : i32 -> tensor<64xi32>
    %mask = tt.cmp lt, %cols, %ns : tensor<64xi32>
    %t = arith.constant true
    %ts = tt.splat %t : i1 -> tensor<64xi1>
    %mask2 = tt.and %mask, %ts : tensor<64xi1>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
    %p = tt.addptr %xs, %offs : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
    %zs = tt.splat %zero : f32 -> tensor<64xf32>
    %v = tt.load %p, %mask2, %zs : tensor<64x!tt.ptr<f32>>
    %one = arith.constant 1.0 : f32
    %os = tt.splat %one : f32 -> tensor<64xf32>
    %v1 = tt.mul %v, %os : tensor<64xf32>
    %a = tt.add %acc, %v1 : tensor<64xf32>
    scf.yield %a : tensor<64xf32>
  }
  %sum = tt.reduce %res {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%sum_lhs: f32, %sum_rhs: f32):
    %sum_acc = tt.add %sum_lhs, %sum_rhs : f32
    tt.reduce.return %sum_acc : f32
  }
  %o = tt.addptr %out, %pid : !tt.ptr<f32>, i32
  tt.store %o, %sum : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: func.func @row_sum(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>, %n: i32)
// CHECK:         %[[ACC0:.*]] = tt.splat %{{.*}} : f32 -> tensor<64xf32>
// CHECK-NEXT:    %[[ROW:.*]] = tt.mul %{{.*}}, %n : i32
// CHECK-NEXT:    %[[R:.*]] = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
// CHECK-NEXT:    %[[NS:.*]] = tt.splat %n : i32 -> tensor<64xi32>
// CHECK-NEXT:    %[[XS:.*]] = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
// CHECK-NEXT:    %[[RES:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]]) -> (tensor<64xf32>) : i32 {
// CHECK-NEXT:      %[[KK:.*]] = tt.mul %[[K]], %{{.*}} : i32
// CHECK-NEXT:      %[[START:.*]] = tt.add %[[ROW]], %[[KK]] : i32
// CHECK-NEXT:      %[[S:.*]] = tt.splat %[[START]] : i32 -> tensor<64xi32>
// CHECK-NEXT:      %[[OFFS:.*]] = tt.add %[[S]], %[[R]] : tensor<64xi32>
// CHECK-NEXT:      %[[COL:.*]] = tt.splat %[[KK]] : i32 -> tensor<64xi32>
// CHECK-NEXT:      %[[COLS:.*]] = tt.add %[[COL]], %[[R]] : tensor<64xi32>
// CHECK-NEXT:      %[[MASK:.*]] = tt.cmp lt, %[[COLS]], %[[NS]] : tensor<64xi32>
// CHECK-NEXT:      %[[P:.*]] = tt.addptr %[[XS]], %[[OFFS]] : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
// CHECK-NEXT:      %[[V:.*]] = tt.load %[[P]], %[[MASK]], %[[ACC0]] : tensor<64x!tt.ptr<f32>>
// CHECK-NEXT:      %[[A:.*]] = tt.add %[[ACC]], %[[V]] : tensor<64xf32>
// CHECK-NEXT:      scf.yield %[[A]] : tensor<64xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SUM:.*]] = tt.reduce %[[RES]] {axis = 0 : i32} : tensor<64xf32> -> f32 {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[O:.*]] = tt.addptr %out, %{{.*}} : !tt.ptr<f32>, i32
// CHECK-NEXT:    tt.store %[[O]], %[[SUM]] : !tt.ptr<f32>
// CHECK-NEXT:    func.return
