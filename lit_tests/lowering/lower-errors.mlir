// RUN: mytriton-opt %s --split-input-file --verify-diagnostics -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' | filecheck %s
// RUN: mytriton-opt %s --split-input-file --verify-diagnostics -p 'tt-lower-to-gpu' | filecheck %s --check-prefix=RAW
// RUN: not mytriton-opt %s --split-input-file -p 'ttg-accelerate-matmul{num_warps=4},tt-assign-layouts{num_warps=4},tt-lower-to-gpu' 2>&1 | filecheck %s --check-prefix=EXIT

// What tt-lower-to-gpu rejects, each as a one-line error. Without --verify-diagnostics the
// first one ends mytriton-opt (exit code 2). Without tt-assign-layouts (RAW) the module has no
// launch geometry (`ttg.num-warps`), which the lowering reads.

// Pointers cannot be compared on the GPU backends.
func.func @pointer_cmp(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, %out: !tt.ptr<i1>) {
  %c = tt.cmp eq, %x, %y : !tt.ptr<f32>
  tt.store %out, %c : !tt.ptr<i1>
  func.return
}
// CHECK: comparing pointers is not supported by the GPU backends
// RAW: the module has no `ttg.num-warps` attribute: run tt-assign-layouts first
// EXIT: mytriton-opt: error: comparing pointers is not supported by the GPU backends

// -----

// A module holds one kernel.
func.func @one(%x: !tt.ptr<f32>) {
  func.return
}
func.func @two(%x: !tt.ptr<f32>) {
  func.return
}
// CHECK: expected exactly one kernel function to lower
// RAW: the module has no `ttg.num-warps` attribute: run tt-assign-layouts first

// -----

// Shared memory is limited to 227 KiB a program (sm_90's most): an f32 256x128 * 128x256 dot
// on CUDA cores stages A (256 + 4) * 128 and B 128 * 256 floats: 264192 bytes.
// Blocks need layouts: without tt-assign-layouts the lowering stops at the first block.
func.func @too_much_shared_memory(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<256x128x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<128x256x!tt.ptr<f32>>
  %av = tt.load %as : tensor<256x128x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<128x256x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<256x256xf32>
  %d = tt.dot %av, %bv, %zero : tensor<256x128xf32> * tensor<128x256xf32> -> tensor<256x256xf32>
  func.return
}
// CHECK: the kernel needs 264192 bytes of shared memory, more than the 232448 bytes available; use smaller blocks
// RAW: the module has no `ttg.num-warps` attribute: run tt-assign-layouts first
