// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// tt.constant holds the unsigned integers arith.constant cannot (it takes signless ones);
// shifts keep the signedness of their type (tt.shr is logical on ui32, arithmetic on i32).
func.func @unsigned(%a: ui32, %i: i32) {
  %big = tt.constant 4294967295 : ui32
  %small = tt.constant 7 : ui8
  %r = tt.shr %a, %big : ui32
  %s = tt.shl %i, %i : i32
  func.return
}
// CHECK:      %big = tt.constant 4294967295 : ui32
// CHECK-NEXT: %small = tt.constant 7 : ui8
// CHECK-NEXT: %r = tt.shr %a, %big : ui32
// CHECK-NEXT: %s = tt.shl %i, %i : i32
