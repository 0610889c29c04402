// RUN: mytriton-opt %s --print-debuginfo | filecheck %s
// RUN: mytriton-opt %s --print-debuginfo | mytriton-opt --print-debuginfo | filecheck %s
// RUN: mytriton-opt %s --print-debuginfo -p canonicalize | filecheck %s --check-prefix=CANON

// Source locations (the kernel's Python lines, set by the frontend) are parsed and printed
// back; rewrites that replace an op keep the replaced op's location.
func.func @k(%a: i32) -> tensor<16xi32> {
  %s = tt.splat %a : i32 -> tensor<16xi32> loc("kernel.py":3:8)
  %n = tt.neg %s : tensor<16xi32> loc("kernel.py":4:8)
  func.return %n : tensor<16xi32> loc("kernel.py":5:4)
}
// CHECK:      %s = tt.splat %a : i32 -> tensor<16xi32> loc("kernel.py":3:8)
// CHECK-NEXT: %n = tt.neg %s : tensor<16xi32> loc("kernel.py":4:8)
// CHECK-NEXT: func.return %n : tensor<16xi32> loc("kernel.py":5:4)

// CANON:      %[[N:.*]] = tt.neg %a : i32 loc("kernel.py":4:8)
// CANON-NEXT: %[[S:.*]] = tt.splat %[[N]] : i32 -> tensor<16xi32> loc("kernel.py":4:8)
// CANON-NEXT: func.return %[[S]] : tensor<16xi32> loc("kernel.py":5:4)
