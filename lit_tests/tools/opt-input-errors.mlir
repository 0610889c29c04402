// RUN: not mytriton-opt %s -p tt-assign-layouts 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not mytriton-opt - -p tt-assign-layouts < %s 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not mytriton-opt %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not mytriton-opt %S 2>&1 | filecheck %s --check-prefix=DIR
// RUN: not mytriton-opt %s -o %S 2>&1 | filecheck %s --check-prefix=OUT

// Input mytriton-opt cannot use is one diagnostic on stderr and exit status 1, never a Python
// traceback; `-` is stdin. A zero-sized block is invalid (Triton's shapes are powers of two):
// the verifier rejects it before any pass sees it.
func.func @zero_sized(%x: !tt.ptr<i32>) {
  %p = tt.splat %x : !tt.ptr<i32> -> tensor<0x!tt.ptr<i32>>
  %v = tt.load %p : tensor<0x!tt.ptr<i32>>
  tt.store %p, %v : tensor<0x!tt.ptr<i32>>
  func.return
}

// ZERO-NOT: Traceback
// ZERO:     mytriton-opt: error: tt.splat: dimension 0 of shape [0] must be positive
// ZERO:     Operation does not verify: tt.splat: dimension 0 of shape [0] must be positive

// MISSING-NOT: Traceback
// MISSING:     mytriton-opt: error: cannot open input file '{{.*}}opt-input-errors.mlir.missing': No such file or directory

// DIR-NOT: Traceback
// DIR:     mytriton-opt: error: cannot open input file '{{.*}}tools': Is a directory

// OUT-NOT: Traceback
// OUT:     mytriton-opt: error: cannot open output file '{{.*}}tools': Is a directory
