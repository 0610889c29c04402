// RUN: not mytriton-opt %s -p bogus 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not mytriton-opt %s -p cse,bogus,nope 2>&1 | filecheck %s --check-prefix=TWO
// RUN: not mytriton-opt %s -p 'cse{' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not mytriton-opt %s -p 'tt-simplify{rounds=2}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not mytriton-opt %s 2>&1 | filecheck %s --check-prefix=VERIFY

// Pipeline mistakes are one-line errors naming what is known; invalid input IR fails (with
// xDSL's annotated report, exit status 1, no traceback) unless --verify-diagnostics is given.
func.func @k(%a: tensor<16xi32>) {
  %r = tt.exp %a : tensor<16xi32>
  func.return
}

// UNKNOWN: mytriton-opt: error: unknown pass 'bogus'; known passes: {{.*}} canonicalize, {{.*}} cse, {{.*}} dce, {{.*}} licm, {{.*}} tt-simplify, {{.*}}
// TWO: mytriton-opt: error: unknown passes 'bogus', 'nope'; known passes:
// SYNTAX: mytriton-opt: error: invalid pass pipeline 'cse{': Error parsing pass pipeline specification:
// OPTION: mytriton-opt: error: invalid pass pipeline 'tt-simplify{rounds=2}': Provided arguments ["rounds"] not found in expected arguments ["max_iterations"]
// VERIFY-NOT: Traceback
// VERIFY: mytriton-opt: error: tt.exp: operand must be a float, got tensor<16xi32>
// VERIFY: Operation does not verify: tt.exp: operand must be a float, got tensor<16xi32>
