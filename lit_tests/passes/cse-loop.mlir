// RUN: mytriton-opt %s -p cse | filecheck %s

// CSE works inside scf.for bodies (single-block regions) and reuses values computed before
// the loop; it never moves anything out of the loop (that is licm's job).

func.func @in_body(%x: !tt.ptr<f32>, %n: i32) -> tensor<16xi32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %outer = tt.splat %n : i32 -> tensor<16xi32>
  scf.for %i = %c0 to %c4 step %c1 : i32 {
    %r1 = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %r2 = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %si1 = tt.splat %i : i32 -> tensor<16xi32>
    %si2 = tt.splat %i : i32 -> tensor<16xi32>
    %inner = tt.splat %n : i32 -> tensor<16xi32>
    %o1 = tt.add %r1, %si1 : tensor<16xi32>
    %o2 = tt.add %r2, %si2 : tensor<16xi32>
    %o3 = tt.add %o2, %inner : tensor<16xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %p1 = tt.addptr %xs, %o1 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %p2 = tt.addptr %xs, %o3 : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %p1 : tensor<16x!tt.ptr<f32>>
    tt.store %p2, %v : tensor<16x!tt.ptr<f32>>
    scf.yield
  }
  func.return %outer : tensor<16xi32>
}
// CHECK-LABEL: func.func @in_body(%x: !tt.ptr<f32>, %n: i32)
// CHECK:         %[[OUTER:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT:      %[[R:.*]] = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
// CHECK-NEXT:      %[[SI:.*]] = tt.splat %[[I]] : i32 -> tensor<16xi32>
// CHECK-NEXT:      %[[O1:.*]] = tt.add %[[R]], %[[SI]] : tensor<16xi32>
// CHECK-NEXT:      %[[O3:.*]] = tt.add %[[O1]], %[[OUTER]] : tensor<16xi32>
// CHECK-NEXT:      %[[XS:.*]] = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      %[[P1:.*]] = tt.addptr %[[XS]], %[[O1]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT:      %[[P2:.*]] = tt.addptr %[[XS]], %[[O3]] : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
// CHECK-NEXT:      %[[V:.*]] = tt.load %[[P1]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:      tt.store %[[P2]], %[[V]] : tensor<16x!tt.ptr<f32>>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[OUTER]] : tensor<16xi32>

// Nested loops: the inner body reuses what the outer body computed.
func.func @nested(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %c0) -> (i32) : i32 {
    %x = tt.mul %i, %n : i32
    %r2 = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> (i32) : i32 {
      %y = tt.mul %i, %n : i32
      %z = tt.add %b, %y : i32
      scf.yield %z : i32
    }
    %w = tt.add %r2, %x : i32
    scf.yield %w : i32
  }
  func.return %r : i32
}
// CHECK-LABEL: func.func @nested(%n: i32)
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (i32) : i32 {
// CHECK-NEXT:      %[[X:.*]] = tt.mul %[[I]], %n : i32
// CHECK-NEXT:      %[[R2:.*]] = scf.for %{{.*}} iter_args(%[[B:.*]] = %[[A]]) -> (i32) : i32 {
// CHECK-NEXT:        %[[Z:.*]] = tt.add %[[B]], %[[X]] : i32
// CHECK-NEXT:        scf.yield %[[Z]] : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[W:.*]] = tt.add %[[R2]], %[[X]] : i32
