// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu{num_warps=1}' | filecheck %s

// tt.store -> llvm.store per register; a masked store is an scf.if (no results, no else)
// around the store of each register.
func.func @stores(%x: !tt.ptr<f32>, %n: i32, %f: f32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.cast %r : tensor<64xi32> -> tensor<64xf32>
  tt.store %p, %v : tensor<64x!tt.ptr<f32>>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = tt.cmp lt, %r, %ns : tensor<64xi32>
  tt.store %p, %v, %m : tensor<64x!tt.ptr<f32>>
  %c0 = arith.constant 0 : i32
  %c = tt.cmp gt, %n, %c0 : i32
  tt.store %x, %f, %c : !tt.ptr<f32>
  func.return
}
// CHECK:         %p = llvm.getelementptr %x[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %p_1 = llvm.getelementptr %x[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %v = arith.sitofp %r : i32 to f32
// CHECK-NEXT:    %v_1 = arith.sitofp %r_1 : i32 to f32
// CHECK-NEXT:    llvm.store %v, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %v_1, %p_1 : f32, !llvm.ptr<1>
// CHECK-NEXT:    %m = arith.cmpi slt, %r, %n : i32
// CHECK-NEXT:    %m_1 = arith.cmpi slt, %r_1, %n : i32
// CHECK-NEXT:    scf.if %m {
// CHECK-NEXT:      llvm.store %v, %p : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %m_1 {
// CHECK-NEXT:      llvm.store %v_1, %p_1 : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    %c = arith.cmpi sgt, %n, %c0 : i32
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      llvm.store %f, %x : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"
