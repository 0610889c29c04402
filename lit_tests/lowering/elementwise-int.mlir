// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Integer elementwise ops -> arith, signed where it matters (division and remainder truncate
// like C, maximum/minimum compare signed), on scalars and per register on blocks.
func.func @int_ops(%a: i32, %b: i32, %p: !tt.ptr<i1>, %q: !tt.ptr<i32>) {
  %add = tt.add %a, %b : i32
  %sub = tt.sub %a, %b : i32
  %mul = tt.mul %a, %b : i32
  %div = tt.div %a, %b : i32
  %rem = tt.rem %a, %b : i32
  %and = tt.and %a, %b : i32
  %or = tt.or %a, %b : i32
  %xor = tt.xor %a, %b : i32
  %max = tt.maximum %a, %b : i32
  %min = tt.minimum %a, %b : i32
  %neg = tt.neg %a : i32
  %abs = tt.abs %a : i32
  %x = tt.cmp lt, %a, %b : i32
  %y = tt.cmp gt, %a, %b : i32
  %band = tt.and %x, %y : i1
  %bor = tt.or %x, %y : i1
  %bxor = tt.xor %band, %bor : i1
  tt.store %p, %bxor : !tt.ptr<i1>
  %qs = tt.splat %q : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %v = tt.load %qs : tensor<64x!tt.ptr<i32>>
  %w = tt.mul %v, %v : tensor<64xi32>
  tt.store %qs, %w : tensor<64x!tt.ptr<i32>>
  func.return
}
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %add = arith.addi %a, %b : i32
// CHECK-NEXT:    %sub = arith.subi %a, %b : i32
// CHECK-NEXT:    %mul = arith.muli %a, %b : i32
// CHECK-NEXT:    %div = arith.divsi %a, %b : i32
// CHECK-NEXT:    %rem = arith.remsi %a, %b : i32
// CHECK-NEXT:    %and = arith.andi %a, %b : i32
// CHECK-NEXT:    %or = arith.ori %a, %b : i32
// CHECK-NEXT:    %xor = arith.xori %a, %b : i32
// CHECK-NEXT:    %max = arith.maxsi %a, %b : i32
// CHECK-NEXT:    %min = arith.minsi %a, %b : i32
// Integer negation is 0 - a; abs is math.absi.
// CHECK-NEXT:    %neg = arith.subi %[[ZERO]], %a : i32
// CHECK-NEXT:    %abs = math.absi %a : i32
// CHECK-NEXT:    %x = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:    %y = arith.cmpi sgt, %a, %b : i32
// Bitwise ops on booleans are the same ops on i1.
// CHECK-NEXT:    %band = arith.andi %x, %y : i1
// CHECK-NEXT:    %bor = arith.ori %x, %y : i1
// CHECK-NEXT:    %bxor = arith.xori %band, %bor : i1
// A scalar is stored by thread 0 only.
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %bxor, %p : i1, !llvm.ptr<1>
// CHECK-NEXT:    }
// A 64-element block over 32 threads: the op once per register.
// CHECK:         %w = arith.muli %v, %v : i32
// CHECK-NEXT:    %w_1 = arith.muli %v_1, %v_1 : i32
// CHECK-NOT:     arith.muli
// CHECK:         "gpu.return"
