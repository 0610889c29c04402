// RUN: mytriton-opt %s --split-input-file -p 'ttg-accelerate-matmul{num_warps=4 capability=80},tt-assign-layouts{num_warps=4 capability=80},ttg-pipeline' | filecheck %s

// ttg-pipeline reads num_stages from the module (`tt.num_stages`: the launch's, written by
// the tt-opt stage; it takes no option), and a loop's own `tt.num_stages` overrides it. The
// module attribute stays on the laid-out module, as in asm["ttg"].

// A module without tt.num_stages gets the default, 3: three stacked tiles.
func.func @default(%a: !tt.ptr<f16>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %acc0 = tt.zeros : tensor<64x64xf32>
  %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  %bp = tt.splat %a : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
    %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
    %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
    %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %cs = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
  %r = tt.cast %res : tensor<64x64xf32> -> tensor<64x64xf16>
  tt.store %cs, %r : tensor<64x64x!tt.ptr<f16>>
  func.return
}
// CHECK:       builtin.module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
// CHECK-LABEL: func.func @default
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16,
// CHECK-NEXT:    ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16,
// CHECK:         ttg.async_wait {num = 1 : i32}

// -----

// The module's 2 (a launch with num_stages=2): two tiles, and the attribute is kept.
builtin.module attributes {tt.num_stages = 2 : i32} {
  func.func @two(%a: !tt.ptr<f16>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = tt.zeros : tensor<64x64xf32>
    %ap = tt.splat %a : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %bp = tt.splat %a : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
      %av = tt.load %ap : tensor<64x32x!tt.ptr<f16>>
      %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
      %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %cs = tt.splat %a : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %r = tt.cast %res : tensor<64x64xf32> -> tensor<64x64xf16>
    tt.store %cs, %r : tensor<64x64x!tt.ptr<f16>>
    func.return
  }
}
// CHECK:       builtin.module attributes {tt.num_stages = 2 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
// CHECK-LABEL: func.func @two
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<2x64x32xf16,
// CHECK-COUNT-1: ttg.async_commit_group
// CHECK:         scf.for
// CHECK-NEXT:      ttg.async_wait {num = 0 : i32}

// -----

// The module's 1: no loop is pipelined, and no operand defined before a loop is hoisted into
// a tile; a loop's own tt.num_stages = 3 still pipelines that loop, into 3 tiles.
builtin.module attributes {tt.num_stages = 1 : i32} {
  func.func @one(%q: !tt.ptr<f16>, %b: !tt.ptr<f16>, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c32 = arith.constant 32 : i32
    %acc0 = tt.zeros : tensor<64x64xf32>
    %qp = tt.splat %q : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
    %qv = tt.load %qp : tensor<64x32x!tt.ptr<f16>>
    %bp = tt.splat %b : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
    %res = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %acc0) -> (tensor<64x64xf32>) : i32 {
      %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
      %d = tt.dot %qv, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %res2 = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %res) -> (tensor<64x64xf32>) : i32 {
      %av = tt.load %qp : tensor<64x32x!tt.ptr<f16>>
      %bv = tt.load %bp : tensor<32x64x!tt.ptr<f16>>
      %d = tt.dot %av, %bv, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    } {tt.num_stages = 3 : i32}
    %cs = tt.splat %q : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>>
    %r = tt.cast %res2 : tensor<64x64xf32> -> tensor<64x64xf16>
    tt.store %cs, %r : tensor<64x64x!tt.ptr<f16>>
    func.return
  }
}
// CHECK:       builtin.module attributes {tt.num_stages = 1 : i32,
// CHECK-LABEL: func.func @one
// CHECK-NOT:     ttg.{{local|async|memdesc}}
// CHECK:         %bv = tt.load %bp
// CHECK-NEXT:    %d = tt.dot %qv, %bv, %acc
// CHECK:         ttg.local_alloc : () -> !ttg.memdesc<3x64x32xf16,
// CHECK-NEXT:    ttg.local_alloc : () -> !ttg.memdesc<3x32x64xf16,

