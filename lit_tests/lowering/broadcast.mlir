// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.broadcast keeps its operand's layout, so it is register reuse: every register of the
// result is the operand's register at the same position, with the stretched coordinate 0.

// A 1x8 row (threadsPerWarp = [1, 32]: one element per thread) stretched to 4x8: each thread
// now owns 4 rows of its column, all the same loaded value. Lanes 8-31 replicate lanes 0-7, so
// only lanes 0-7 (thread-id bits 3-4 zero) store.
func.func @row(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<1x8x!tt.ptr<f32>>
  %r = tt.load %xs : tensor<1x8x!tt.ptr<f32>>
  %rb = tt.broadcast %r : tensor<1x8xf32> -> tensor<4x8xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<4x8x!tt.ptr<f32>>
  tt.store %os, %rb : tensor<4x8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: ^bb0(%x: !llvm.ptr<1>, %out: !llvm.ptr<1>):
// CHECK:         %[[BITS:.*]] = arith.constant 24 : i32
// CHECK:         %owner = arith.cmpi eq
// CHECK-NEXT:    %r = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %r, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:      llvm.store %r, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:      llvm.store %r, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:      llvm.store %r, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"

// -----

// A 16x1 column (threadsPerWarp = [16, 2], one row per lane pair) stretched to 16x4: 2 column
// registers per thread, both the thread's loaded value; no broadcast code of its own.
func.func @column(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x1x!tt.ptr<f32>>
  %c = tt.load %xs : tensor<16x1x!tt.ptr<f32>>
  %cb = tt.broadcast %c : tensor<16x1xf32> -> tensor<16x4xf32>
  %d = tt.add %cb, %cb : tensor<16x4xf32>
  %os = tt.splat %out : !tt.ptr<f32> -> tensor<16x4x!tt.ptr<f32>>
  tt.store %os, %d : tensor<16x4x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: ^bb0(%x: !llvm.ptr<1>, %out: !llvm.ptr<1>):
// CHECK-NEXT:    %c = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %d = arith.addf %c, %c : f32
// CHECK-NEXT:    %d_1 = arith.addf %c, %c : f32
// CHECK-NEXT:    llvm.store %d, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %d_1, %out : f32, !llvm.ptr<1>
// CHECK-NEXT:    "gpu.return"
