// RUN: mytriton-opt %s -p tt-simplify | filecheck %s
// RUN: mytriton-opt %s -p canonicalize,cse,canonicalize,cse | filecheck %s --check-prefix=FIXED
// RUN: mytriton-opt %s -p 'tt-simplify{max-iterations=1}' | filecheck %s --check-prefix=ONE

// Each round of canonicalize+CSE exposes work for the next:
//   cse:          %m2 -> %m1                        so %both = and(%m1, %m1)
//   canonicalize: and(%m1, %m1) -> %m1              so %w = select(%m1, %a, %b) == %u
//   cse:          %w -> %u                          so %mx = maximum(%u, %u)
//   canonicalize: maximum(%u, %u) -> %u
// tt-simplify iterates to the fixpoint; a fixed pipeline of the same passes stops short.

func.func @alternating(%a: tensor<16xf32>, %b: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %n1 = tt.splat %n : i32 -> tensor<16xi32>
  %n2 = tt.splat %n : i32 -> tensor<16xi32>
  %m1 = tt.cmp lt, %r, %n1 : tensor<16xi32>
  %m2 = tt.cmp lt, %r, %n2 : tensor<16xi32>
  %both = tt.and %m1, %m2 : tensor<16xi1>
  %u = tt.select %m1, %a, %b : tensor<16xf32>
  %w = tt.select %both, %a, %b : tensor<16xf32>
  %mx = tt.maximum %u, %w : tensor<16xf32>
  func.return %mx : tensor<16xf32>
}
// CHECK-LABEL: func.func @alternating(%a: tensor<16xf32>, %b: tensor<16xf32>, %n: i32)
// CHECK-NEXT:    %[[R:.*]] = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
// CHECK-NEXT:    %[[N:.*]] = tt.splat %n : i32 -> tensor<16xi32>
// CHECK-NEXT:    %[[M:.*]] = tt.cmp lt, %[[R]], %[[N]] : tensor<16xi32>
// CHECK-NEXT:    %[[U:.*]] = tt.select %[[M]], %a, %b : tensor<16xf32>
// CHECK-NEXT:    func.return %[[U]] : tensor<16xf32>

// FIXED-LABEL: func.func @alternating(
// FIXED:         %[[U:.*]] = tt.select
// FIXED-NEXT:    %[[MX:.*]] = tt.maximum %[[U]], %[[U]] : tensor<16xf32>
// FIXED-NEXT:    func.return %[[MX]] : tensor<16xf32>

// ONE-LABEL: func.func @alternating(
// ONE:         %[[U:.*]] = tt.select %{{.*}}, %a, %b : tensor<16xf32>
// ONE-NEXT:    %[[W:.*]] = tt.select %{{.*}}, %a, %b : tensor<16xf32>
// ONE-NEXT:    %[[MX:.*]] = tt.maximum %[[U]], %[[W]] : tensor<16xf32>
