// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Scalar constants move to the kernel's entry, one per value and type: equal constants are
// shared, different bit patterns never are (-0.0 is not 0.0 on the GPU: 1/-0.0 is -inf).
func.func @constants(%i: !tt.ptr<i32>, %f: !tt.ptr<f32>) {
  %pid = tt.get_program_id x : i32
  %t = arith.constant true
  %fl = arith.constant false
  %seven = arith.constant 7 : i32
  %seven2 = arith.constant 7 : i32
  %minus = arith.constant -3 : i32
  %z = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %one = arith.constant 1.0 : f32
  %inf = arith.constant 0x7F800000 : f32
  %s = tt.select %t, %seven, %minus : i32
  %s2 = tt.select %fl, %seven2, %pid : i32
  %si = tt.add %s, %s2 : i32
  tt.store %i, %si : !tt.ptr<i32>
  %a = tt.div %one, %z : f32
  %b = tt.div %one, %nz : f32
  %c = tt.add %a, %b : f32
  %d = tt.add %c, %inf : f32
  tt.store %f, %d : !tt.ptr<f32>
  func.return
}
// CHECK:       ^bb0(%i: !llvm.ptr<1>, %f: !llvm.ptr<1>):
// CHECK-NEXT:    %t = arith.constant true
// CHECK-NEXT:    %fl = arith.constant false
// CHECK-NEXT:    %seven = arith.constant 7 : i32
// CHECK-NEXT:    %minus = arith.constant -3 : i32
// CHECK-NEXT:    %z = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %nz = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %inf = arith.constant 0x7f800000 : f32
// CHECK:         %owner = arith.cmpi eq
// CHECK-NEXT:    %[[B:.*]] = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %pid = arith.index_cast %[[B]] : index to i32
// CHECK-NEXT:    %s = arith.select %t, %seven, %minus : i32
// CHECK-NEXT:    %s2 = arith.select %fl, %seven, %pid : i32
// CHECK-NEXT:    %si = arith.addi %s, %s2 : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %si, %i : i32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    %a = llvm.call_intrinsic "llvm.nvvm.div.full"(%one, %z) : (f32, f32) -> f32
// CHECK-NEXT:    %b = llvm.call_intrinsic "llvm.nvvm.div.full"(%one, %nz) : (f32, f32) -> f32
// CHECK-NEXT:    %c = arith.addf %a, %b : f32
// CHECK-NEXT:    %d = arith.addf %c, %inf : f32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %d, %f : f32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"() : () -> ()
