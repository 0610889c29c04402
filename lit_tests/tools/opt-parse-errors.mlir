// RUN: not mytriton-opt %s --split-input-file 2>&1 | filecheck %s

// A parse error names the file, line and column (of the whole file, also in a later chunk),
// with no Python traceback before it.
func.func @fine(%a: i32) -> i32 {
  func.return %a : i32
}

// -----

func.func @broken(%a: i32) -> i32 {
  %r = tt.neg %a i32
  func.return %r : i32
}

// CHECK-NOT:  Traceback
// CHECK:      mytriton-opt: error: {{.*}}opt-parse-errors.mlir:12:18
// CHECK-NEXT:   %r = tt.neg %a i32
// CHECK-NEXT:                  ^^^
// CHECK-NEXT:                  Expected ':'
