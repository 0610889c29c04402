// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// The global timer is an i64 (PTX %globaltimer is 64 bits).
func.func @timer_type() {
  %t = "tt.globaltimer"() : () -> i32
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i64 but got i32

// -----

// The multiprocessor id is an i32.
func.func @smid_type() {
  %s = "tt.smid"() : () -> i64
  func.return
}
// CHECK: Operation does not verify: result 'result' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64
