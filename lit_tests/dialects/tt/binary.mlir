// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every binary elementwise op, on scalars and on blocks.
func.func @arith(%a: tensor<16xf32>, %b: tensor<16xf32>, %i: i32, %j: i32) {
  %add = tt.add %a, %b : tensor<16xf32>
  %sub = tt.sub %a, %b : tensor<16xf32>
  %mul = tt.mul %a, %b : tensor<16xf32>
  %div = tt.div %a, %b : tensor<16xf32>
  %rem = tt.rem %a, %b : tensor<16xf32>
  %max = tt.maximum %a, %b : tensor<16xf32>
  %min = tt.minimum %a, %b : tensor<16xf32>
  %iadd = tt.add %i, %j : i32
  %isub = tt.sub %i, %j : i32
  %imul = tt.mul %i, %j : i32
  %idiv = tt.div %i, %j : i32
  %irem = tt.rem %i, %j : i32
  %imax = tt.maximum %i, %j : i32
  %imin = tt.minimum %i, %j : i32
  func.return
}
// CHECK-LABEL: func.func @arith(
// CHECK-NEXT:    %add = tt.add %a, %b : tensor<16xf32>
// CHECK-NEXT:    %sub = tt.sub %a, %b : tensor<16xf32>
// CHECK-NEXT:    %mul = tt.mul %a, %b : tensor<16xf32>
// CHECK-NEXT:    %div = tt.div %a, %b : tensor<16xf32>
// CHECK-NEXT:    %rem = tt.rem %a, %b : tensor<16xf32>
// CHECK-NEXT:    %max = tt.maximum %a, %b : tensor<16xf32>
// CHECK-NEXT:    %min = tt.minimum %a, %b : tensor<16xf32>
// CHECK-NEXT:    %iadd = tt.add %i, %j : i32
// CHECK-NEXT:    %isub = tt.sub %i, %j : i32
// CHECK-NEXT:    %imul = tt.mul %i, %j : i32
// CHECK-NEXT:    %idiv = tt.div %i, %j : i32
// CHECK-NEXT:    %irem = tt.rem %i, %j : i32
// CHECK-NEXT:    %imax = tt.maximum %i, %j : i32
// CHECK-NEXT:    %imin = tt.minimum %i, %j : i32
// CHECK-NEXT:    func.return

func.func @bitwise(%x: tensor<8x8xi32>, %y: tensor<8x8xi32>, %p: i1, %q: i1) {
  %and = tt.and %x, %y : tensor<8x8xi32>
  %or = tt.or %x, %y : tensor<8x8xi32>
  %xor = tt.xor %x, %y : tensor<8x8xi32>
  %band = tt.and %p, %q : i1
  %bor = tt.or %p, %q : i1
  %bxor = tt.xor %p, %q : i1
  func.return
}
// CHECK-LABEL: func.func @bitwise(
// CHECK-NEXT:    %and = tt.and %x, %y : tensor<8x8xi32>
// CHECK-NEXT:    %or = tt.or %x, %y : tensor<8x8xi32>
// CHECK-NEXT:    %xor = tt.xor %x, %y : tensor<8x8xi32>
// CHECK-NEXT:    %band = tt.and %p, %q : i1
// CHECK-NEXT:    %bor = tt.or %p, %q : i1
// CHECK-NEXT:    %bxor = tt.xor %p, %q : i1
// CHECK-NEXT:    func.return

// tt.maximum/tt.minimum carry tl.PropagateNan: `none` (the default, not printed) or `all`.
func.func @propagate_nan(%a: tensor<16xf32>, %b: tensor<16xf32>, %i: i32, %j: i32) {
  %max = tt.maximum %a, %b, propagate_nan = all : tensor<16xf32>
  %min = tt.minimum %a, %b, propagate_nan = none : tensor<16xf32>
  %imax = tt.maximum %i, %j, propagate_nan = all : i32
  func.return
}
// CHECK-LABEL: func.func @propagate_nan(
// CHECK-NEXT:    %max = tt.maximum %a, %b, propagate_nan = all : tensor<16xf32>
// CHECK-NEXT:    %min = tt.minimum %a, %b : tensor<16xf32>
// CHECK-NEXT:    %imax = tt.maximum %i, %j, propagate_nan = all : i32
// CHECK-NEXT:    func.return

// GENERIC: %add = "tt.add"(%a, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// GENERIC: %irem = "tt.rem"(%i, %j) : (i32, i32) -> i32
// GENERIC: %bxor = "tt.xor"(%p, %q) : (i1, i1) -> i1
// GENERIC: %max = "tt.maximum"(%a, %b) <{propagate_nan = #tt<propagate_nan all>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
