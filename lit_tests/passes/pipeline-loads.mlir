// RUN: mytriton-opt %s --split-input-file -p tt-pipeline | filecheck %s

// tt-pipeline rotates the loads that feed a tt.dot in an scf.for: the loop carries the next
// iteration's tile, loaded at the top of the body (pointer and mask recomputed from the
// yielded values and k + step, masked off past the end) before the dot; the first tile is
// loaded before the loop (masked off when the loop runs no iteration).

func.func @rotated(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %inc = arith.constant 32 : i32
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x32x!tt.ptr<f16>>
  %incs = tt.splat %inc : i32 -> tensor<32x32xi32>
  %zero = tt.zeros : tensor<32x32xf32>
  %ap, %acc, %bp = scf.for %k = %c0 to %n step %c1 iter_args(%ap0 = %as, %acc0 = %zero, %bp0 = %bs) -> (tensor<32x32x!tt.ptr<f16>>, tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>) : i32 {
    %ks = tt.splat %k : i32 -> tensor<32x32xi32>
    %m = tt.cmp lt, %ks, %incs : tensor<32x32xi32>
    %av = tt.load %ap0, %m : tensor<32x32x!tt.ptr<f16>>
    %bv = tt.load %bp0 : tensor<32x32x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc0 : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %ap1 = tt.addptr %ap0, %incs : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    %bp1 = tt.addptr %bp0, %incs : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xi32>
    scf.yield %ap1, %d, %bp1 : tensor<32x32x!tt.ptr<f16>>, tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>
  }
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<32x32x!tt.ptr<f32>>
  tt.store %cs, %acc : tensor<32x32x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @rotated
// CHECK:         %[[KS0:.*]] = tt.splat %c0 : i32 -> tensor<32x32xi32>
// CHECK-NEXT:    %[[M0:.*]] = tt.cmp lt, %[[KS0]], %incs : tensor<32x32xi32>
// CHECK-NEXT:    %[[GO:.*]] = tt.cmp lt, %c0, %n : i32
// CHECK-NEXT:    %[[GOS:.*]] = tt.splat %[[GO]] : i1 -> tensor<32x32xi1>
// CHECK-NEXT:    %[[AM0:.*]] = tt.and %[[M0]], %[[GOS]] : tensor<32x32xi1>
// CHECK-NEXT:    %av_next = tt.load %as, %[[AM0]] : tensor<32x32x!tt.ptr<f16>>
// CHECK-NEXT:    %[[GO2:.*]] = tt.cmp lt, %c0, %n : i32
// CHECK-NEXT:    %[[GOS2:.*]] = tt.splat %[[GO2]] : i1 -> tensor<32x32xi1>
// CHECK-NEXT:    %bv_next = tt.load %bs, %[[GOS2]] : tensor<32x32x!tt.ptr<f16>>
// CHECK-NEXT:    %ap, %acc, %bp, %{{.*}}, %{{.*}} = scf.for %k = %c0 to %n step %c1 iter_args(%ap0 = %as, %acc0 = %zero, %bp0 = %bs, %av = %av_next, %bv = %bv_next) -> (tensor<32x32x!tt.ptr<f16>>, tensor<32x32xf32>, tensor<32x32x!tt.ptr<f16>>, tensor<32x32xf16>, tensor<32x32xf16>) : i32 {
// CHECK-NEXT:      %[[K1:.*]] = tt.add %k, %c1 : i32
// CHECK-NEXT:      %[[AP1:.*]] = tt.addptr %ap0, %incs
// CHECK-NEXT:      %[[BP1:.*]] = tt.addptr %bp0, %incs
// CHECK-NEXT:      %[[KS1:.*]] = tt.splat %[[K1]] : i32 -> tensor<32x32xi32>
// CHECK-NEXT:      %[[M1:.*]] = tt.cmp lt, %[[KS1]], %incs : tensor<32x32xi32>
// CHECK-NEXT:      %[[MORE:.*]] = tt.cmp lt, %[[K1]], %n : i32
// CHECK-NEXT:      %[[MORES:.*]] = tt.splat %[[MORE]] : i1 -> tensor<32x32xi1>
// CHECK-NEXT:      %[[AM1:.*]] = tt.and %[[M1]], %[[MORES]] : tensor<32x32xi1>
// CHECK-NEXT:      %[[AN:.*]] = tt.load %[[AP1]], %[[AM1]] : tensor<32x32x!tt.ptr<f16>>
// CHECK:           %[[BN:.*]] = tt.load %[[BP1]], %{{.*}} : tensor<32x32x!tt.ptr<f16>>
// CHECK:           %d = tt.dot %av, %bv, %acc0
// CHECK:           scf.yield %{{.*}}, %d, %{{.*}}, %[[AN]], %[[BN]] :

// -----

// Not rotated: a store in the body (an earlier load could miss what it writes), a volatile
// load, a load feeding no dot, a pointer computed from a load, and tt.num_stages = 1.
func.func @kept(%p: !tt.ptr<f16>, %q: !tt.ptr<i32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ps = tt.splat %p : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
  %qs = tt.splat %q : !tt.ptr<i32> -> tensor<16x16x!tt.ptr<i32>>
  %zero = tt.zeros : tensor<16x16xf32>
  %r1 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %v = tt.load %ps : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %v, %v, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    tt.store %ps, %v : tensor<16x16x!tt.ptr<f16>>
    scf.yield %d : tensor<16x16xf32>
  }
  %r2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %v = tt.load %ps {isVolatile} : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %v, %v, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %r3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %v = tt.load %ps : tensor<16x16x!tt.ptr<f16>>
    %w = tt.cast %v : tensor<16x16xf16> -> tensor<16x16xf32>
    %s = tt.add %w, %acc : tensor<16x16xf32>
    scf.yield %s : tensor<16x16xf32>
  }
  %r4 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %off = tt.load %qs : tensor<16x16x!tt.ptr<i32>>
    %ptrs = tt.addptr %ps, %off : tensor<16x16x!tt.ptr<f16>>, tensor<16x16xi32>
    %v = tt.load %ptrs : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %v, %v, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  }
  %r5 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %v = tt.load %ps : tensor<16x16x!tt.ptr<f16>>
    %d = tt.dot %v, %v, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    scf.yield %d : tensor<16x16xf32>
  } {tt.num_stages = 1 : i32}
  func.return
}
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     _next
// CHECK-COUNT-5: scf.for %k{{(_[0-9])?}} = %c0 to %n step %c1 iter_args(%acc{{(_[0-9])?}} = %zero) -> (tensor<16x16xf32>) : i32 {
// CHECK-NOT:     _next

// -----

// The module's tt.num_stages = 1 (a launch with num_stages=1) keeps its loops as written; a
// loop's own tt.num_stages = 2 overrides it, and that loop is rotated.
builtin.module attributes {tt.num_stages = 1 : i32} {
  func.func @module_stages(%p: !tt.ptr<f16>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %ps = tt.splat %p : !tt.ptr<f16> -> tensor<16x16x!tt.ptr<f16>>
    %zero = tt.zeros : tensor<16x16xf32>
    %r1 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
      %v = tt.load %ps : tensor<16x16x!tt.ptr<f16>>
      %d = tt.dot %v, %v, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    }
    %r2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %r1) -> (tensor<16x16xf32>) : i32 {
      %v = tt.load %ps : tensor<16x16x!tt.ptr<f16>>
      %d = tt.dot %v, %v, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
      scf.yield %d : tensor<16x16xf32>
    } {tt.num_stages = 2 : i32}
    func.return
  }
}
// CHECK:       builtin.module attributes {tt.num_stages = 1 : i32} {
// CHECK-LABEL: func.func @module_stages
// CHECK-NOT:     _next
// CHECK:         %r1 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
// CHECK-NEXT:      %v = tt.load %ps :
// CHECK:         %v_next = tt.load %ps, %{{.*}} :
// CHECK-NEXT:    scf.for %k_1 = %c0 to %n step %c1 iter_args(%acc_1 = %r1, %v_1 = %v_next)
