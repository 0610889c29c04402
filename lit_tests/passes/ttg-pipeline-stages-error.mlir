// RUN: not mytriton-opt %s -p 'ttg-pipeline' 2>&1 | filecheck %s
// RUN: not mytriton-opt %s -p 'tt-pipeline' 2>&1 | filecheck %s

// The module's tt.num_stages (the launch's num_stages) must be an integer: anything else is
// reported when the module is verified, before a pass reads it, not taken as the default.
builtin.module attributes {tt.num_stages = "3"} {
  func.func @bad() {
    func.return
  }
}
// CHECK: mytriton-opt: error: the module's `tt.num_stages` must be an integer, got "3"
