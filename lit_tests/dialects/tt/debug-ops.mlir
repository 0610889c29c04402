// RUN: mytriton-opt %s | mytriton-opt | filecheck %s

// tt.print, tt.assert, tt.assume and tt.elementwise_inline_asm print and parse back; the
// hints are attributes of the hinted value's op; load/store options are attributes too.
func.func @debug(%x: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  tt.print " r: ", %r : tensor<16xi32>
  tt.print " n: " {hex}, %n, %n : i32, i32
  tt.print " hello"
  %c0 = arith.constant 0 : i32
  %z = tt.splat %c0 : i32 -> tensor<16xi32>
  %c = tt.cmp ge, %r, %z {tt.divisibility = array<i32: 4>} : tensor<16xi32>
  tt.assert %c, "r is negative" : tensor<16xi1>
  %s = tt.cmp gt, %n, %c0 : i32
  tt.assume %s : i1
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure}, %r : tensor<16xi32> -> tensor<16xi32>
  %v = tt.load %x {cache = "cg", evict = "evict_last", isVolatile} : !tt.ptr<f32>
  "gpu.barrier"() : () -> ()
  func.return
}
// CHECK:      tt.print " r: ", %r : tensor<16xi32>
// CHECK-NEXT: tt.print " n: " {hex}, %n, %n : i32, i32
// CHECK-NEXT: tt.print " hello"
// CHECK:      %c = tt.cmp ge, %r, %z {tt.divisibility = array<i32: 4>} : tensor<16xi32>
// CHECK-NEXT: tt.assert %c, "r is negative" : tensor<16xi1>
// CHECK:      tt.assume %s : i1
// CHECK-NEXT: %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure}, %r : tensor<16xi32> -> tensor<16xi32>
// CHECK-NEXT: %v = tt.load %x {cache = "cg", evict = "evict_last", isVolatile} : !tt.ptr<f32>
// CHECK-NEXT: "gpu.barrier"() : () -> ()
