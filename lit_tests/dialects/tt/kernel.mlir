// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// A whole kernel as the frontend emits it (tt ops with arith constants and an scf.for with
// iter_args) survives custom and generic round trips unchanged.
func.func @matmul_row(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k: i32) {
  %pid = tt.get_program_id x : i32
  %np = tt.get_num_programs x : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant 0.000000e+00 : f32
  %acc0 = tt.zeros : tensor<16x16xf32>
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %rows16 = tt.broadcast %rows : tensor<16x1xi32> -> tensor<16x16xi32>
  %cols16 = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
  %s16 = tt.splat %c16 : i32 -> tensor<16x16xi32>
  %rm = tt.mul %rows16, %s16 : tensor<16x16xi32>
  %offs = tt.add %rm, %cols16 : tensor<16x16xi32>
  %acc = scf.for %i = %c0 to %k step %c16 iter_args(%sum = %acc0) -> (tensor<16x16xf32>) : i32 {
    %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %bs = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
    %si = tt.splat %i : i32 -> tensor<16x16xi32>
    %o = tt.add %offs, %si : tensor<16x16xi32>
    %ks = tt.splat %k : i32 -> tensor<16x16xi32>
    %m = tt.cmp lt, %o, %ks : tensor<16x16xi32>
    %ap = tt.addptr %as, %o : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %bp = tt.addptr %bs, %o : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
    %other = tt.full %zero : f32 -> tensor<16x16xf32>
    %av = tt.load %ap, %m, %other : tensor<16x16x!tt.ptr<f32>>
    %bv = tt.load %bp, %m, %other : tensor<16x16x!tt.ptr<f32>>
    %d = tt.dot %av, %bv, %sum : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %rowmax = tt.reduce %acc {axis = 1 : i32} : tensor<16x16xf32> -> tensor<16xf32> {
  ^bb0(%rowmax_lhs: f32, %rowmax_rhs: f32):
    %rowmax_acc = tt.maximum %rowmax_lhs, %rowmax_rhs : f32
    tt.reduce.return %rowmax_acc : f32
  }
  %total = tt.reduce %rowmax {axis = 0 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%total_lhs: f32, %total_rhs: f32):
    %total_acc = tt.add %total_lhs, %total_rhs : f32
    tt.reduce.return %total_acc : f32
  }
  %scaled = tt.exp %total : f32
  %cp = tt.addptr %c, %pid : !tt.ptr<f32>, i32
  %last = tt.sub %np, %c1 : i32
  %is_last = tt.cmp eq, %pid, %last : i32
  %out = tt.select %is_last, %scaled, %total : f32
  tt.store %cp, %out, %is_last : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: func.func @matmul_row(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>, %k: i32) {
// CHECK-NEXT:    %pid = tt.get_program_id x : i32
// CHECK-NEXT:    %np = tt.get_num_programs x : i32
// CHECK-NEXT:    %c0 = arith.constant 0 : i32
// CHECK-NEXT:    %c1 = arith.constant 1 : i32
// CHECK-NEXT:    %c16 = arith.constant 16 : i32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %acc0 = tt.zeros : tensor<16x16xf32>
// CHECK-NEXT:    %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
// CHECK-NEXT:    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
// CHECK-NEXT:    %cols = tt.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
// CHECK-NEXT:    %rows16 = tt.broadcast %rows : tensor<16x1xi32> -> tensor<16x16xi32>
// CHECK-NEXT:    %cols16 = tt.broadcast %cols : tensor<1x16xi32> -> tensor<16x16xi32>
// CHECK-NEXT:    %s16 = tt.splat %c16 : i32 -> tensor<16x16xi32>
// CHECK-NEXT:    %rm = tt.mul %rows16, %s16 : tensor<16x16xi32>
// CHECK-NEXT:    %offs = tt.add %rm, %cols16 : tensor<16x16xi32>
// CHECK-NEXT:    %acc = scf.for %i = %c0 to %k step %c16 iter_args(%sum = %acc0) -> (tensor<16x16xf32>) : i32 {
// CHECK-NEXT:      %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
// CHECK-NEXT:      %bs = tt.splat %b : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
// CHECK-NEXT:      %si = tt.splat %i : i32 -> tensor<16x16xi32>
// CHECK-NEXT:      %o = tt.add %offs, %si : tensor<16x16xi32>
// CHECK-NEXT:      %ks = tt.splat %k : i32 -> tensor<16x16xi32>
// CHECK-NEXT:      %m = tt.cmp lt, %o, %ks : tensor<16x16xi32>
// CHECK-NEXT:      %ap = tt.addptr %as, %o : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
// CHECK-NEXT:      %bp = tt.addptr %bs, %o : tensor<16x16x!tt.ptr<f32>>, tensor<16x16xi32>
// CHECK-NEXT:      %other = tt.full %zero : f32 -> tensor<16x16xf32>
// CHECK-NEXT:      %av = tt.load %ap, %m, %other : tensor<16x16x!tt.ptr<f32>>
// CHECK-NEXT:      %bv = tt.load %bp, %m, %other : tensor<16x16x!tt.ptr<f32>>
// CHECK-NEXT:      %d = tt.dot %av, %bv, %sum : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
// CHECK-NEXT:      scf.yield %d : tensor<16x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %rowmax = tt.reduce %acc {axis = 1 : i32} : tensor<16x16xf32> -> tensor<16xf32> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.maximum %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %total = tt.reduce %rowmax {axis = 0 : i32} : tensor<16xf32> -> f32 {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %scaled = tt.exp %total : f32
// CHECK-NEXT:    %cp = tt.addptr %c, %pid : !tt.ptr<f32>, i32
// CHECK-NEXT:    %last = tt.sub %np, %c1 : i32
// CHECK-NEXT:    %is_last = tt.cmp eq, %pid, %last : i32
// CHECK-NEXT:    %out = tt.select %is_last, %scaled, %total : f32
// CHECK-NEXT:    tt.store %cp, %out, %is_last : !tt.ptr<f32>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
