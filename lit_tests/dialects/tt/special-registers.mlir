// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mytriton-opt %s -p cse | filecheck %s --check-prefix=CSE

// tl.extra.cuda.globaltimer() and smid(): the timer has effects (two reads stay two, even
// unused), smid is pure (CSE merges two reads).
func.func @sregs() -> (i64, i64, i32, i32) {
  %start = tt.globaltimer : i64
  %end = tt.globaltimer : i64
  %unused = tt.globaltimer : i64
  %sm = tt.smid : i32
  %sm2 = tt.smid : i32
  func.return %start, %end, %sm, %sm2 : i64, i64, i32, i32
}
// CHECK-LABEL: func.func @sregs() -> (i64, i64, i32, i32)
// CHECK-NEXT:    %start = tt.globaltimer : i64
// CHECK-NEXT:    %end = tt.globaltimer : i64
// CHECK-NEXT:    %unused = tt.globaltimer : i64
// CHECK-NEXT:    %sm = tt.smid : i32
// CHECK-NEXT:    %sm2 = tt.smid : i32

// GENERIC: %start = "tt.globaltimer"() : () -> i64
// GENERIC: %sm = "tt.smid"() : () -> i32

// CSE:         %start = tt.globaltimer : i64
// CSE-NEXT:    %end = tt.globaltimer : i64
// CSE-NEXT:    %unused = tt.globaltimer : i64
// CSE-NEXT:    %sm = tt.smid : i32
// CSE-NEXT:    func.return %start, %end, %sm, %sm : i64, i64, i32, i32
