// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.load -> llvm.load per register. A masked load is an scf.if per register that loads only
// when the mask is set and otherwise yields `other` (0 of the element type without one), so a
// masked-off lane never touches memory.
func.func @loads(%x: !tt.ptr<f32>, %y: !tt.ptr<i32>, %n: i32) {
  %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %ns = tt.splat %n : i32 -> tensor<32xi32>
  %m = tt.cmp lt, %r, %ns : tensor<32xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<32x!tt.ptr<f32>>, tensor<32xi32>
  %ys = tt.splat %y : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %q = tt.addptr %ys, %r : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %plain = tt.load %p : tensor<32x!tt.ptr<f32>>
  %zero_other = tt.load %q, %m : tensor<32x!tt.ptr<i32>>
  %minf = arith.constant 0xFF800000 : f32
  %others = tt.splat %minf : f32 -> tensor<32xf32>
  %with_other = tt.load %p, %m, %others : tensor<32x!tt.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c = tt.cmp gt, %n, %c0 : i32
  %scalar = tt.load %x, %c : !tt.ptr<f32>
  %f = tt.cast %zero_other : tensor<32xi32> -> tensor<32xf32>
  %a = tt.add %plain, %f : tensor<32xf32>
  %b = tt.add %a, %with_other : tensor<32xf32>
  %ss = tt.splat %scalar : f32 -> tensor<32xf32>
  %d = tt.add %b, %ss : tensor<32xf32>
  tt.store %p, %d : tensor<32x!tt.ptr<f32>>
  func.return
}
// CHECK-DAG:     %[[I0:c0]] = arith.constant 0 : i32
// CHECK-DAG:     %minf = arith.constant 0xff800000 : f32
// CHECK-DAG:     %[[F0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %plain = llvm.load %p : !llvm.ptr<1> -> f32
// CHECK:         %m = arith.cmpi slt, %r, %n : i32
// CHECK-NEXT:    %zero_other = scf.if %m -> (i32) {
// CHECK-NEXT:      %[[L:.*]] = llvm.load %q : !llvm.ptr<1> -> i32
// CHECK-NEXT:      scf.yield %[[L]] : i32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[I0]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %with_other = scf.if %m -> (f32) {
// CHECK-NEXT:      %[[L2:.*]] = llvm.load %p : !llvm.ptr<1> -> f32
// CHECK-NEXT:      scf.yield %[[L2]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %minf : f32
// CHECK-NEXT:    }
// A masked scalar load: the same, with the scalar mask.
// CHECK-NEXT:    %c = arith.cmpi sgt, %n, %[[I0]] : i32
// CHECK-NEXT:    %scalar = scf.if %c -> (f32) {
// CHECK-NEXT:      %[[L3:.*]] = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:      scf.yield %[[L3]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[F0]] : f32
// CHECK-NEXT:    }
