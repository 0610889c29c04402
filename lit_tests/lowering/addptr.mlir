// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.addptr -> llvm.getelementptr over the pointee type with one dynamic index (the offset in
// elements, any integer width), one per register for blocks.
func.func @addptr(%x: !tt.ptr<f32>, %y: !tt.ptr<i32>, %i: i32, %l: i64) {
  %a = tt.addptr %x, %i : !tt.ptr<f32>, i32
  %b = tt.addptr %y, %l : !tt.ptr<i32>, i64
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %as, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %p : tensor<64x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %q = tt.addptr %bs, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %w = tt.load %q : tensor<64x!tt.ptr<i32>>
  %wf = tt.cast %w : tensor<64xi32> -> tensor<64xf32>
  %s = tt.add %v, %wf : tensor<64xf32>
  tt.store %p, %s : tensor<64x!tt.ptr<f32>>
  func.return
}
// The scalar pointers first (the blocks built from them are free: built where first used).
// CHECK:         %a = llvm.getelementptr %x[%i] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %b = llvm.getelementptr %y[%l] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %p = llvm.getelementptr %a[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %p_1 = llvm.getelementptr %a[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %v = llvm.load %p : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_1 = llvm.load %p_1 : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %q = llvm.getelementptr %b[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %q_1 = llvm.getelementptr %b[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %w = llvm.load %q : !llvm.ptr<1> -> i32
// CHECK-NEXT:    %w_1 = llvm.load %q_1 : !llvm.ptr<1> -> i32
// CHECK:         llvm.store %s, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %s_1, %p_1 : f32, !llvm.ptr<1>
