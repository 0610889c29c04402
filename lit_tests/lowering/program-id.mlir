// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.get_program_id -> gpu.block_id, tt.get_num_programs -> gpu.grid_dim, on the same axis
// (the program grid is the CUDA grid), cast from index to i32 where the op is.
func.func @ids(%out: !tt.ptr<i32>) {
  %x = tt.get_program_id x : i32
  %y = tt.get_program_id y : i32
  %z = tt.get_program_id z : i32
  %nx = tt.get_num_programs x : i32
  %ny = tt.get_num_programs y : i32
  %nz = tt.get_num_programs z : i32
  %a = tt.add %x, %y : i32
  %b = tt.add %a, %z : i32
  %c = tt.add %b, %nx : i32
  %d = tt.add %c, %ny : i32
  %e = tt.add %d, %nz : i32
  tt.store %out, %e : !tt.ptr<i32>
  func.return
}
// No block here, so the only thread coordinate is the test for thread 0, the one that stores
// a scalar; then the ids.
// CHECK:       ^bb0(%out: !llvm.ptr<1>):
// CHECK-NEXT:    %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %[[T:.*]] = arith.index_cast %[[TID]] : index to i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %owner = arith.cmpi eq, %[[T]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[BX:.*]] = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %x = arith.index_cast %[[BX]] : index to i32
// CHECK-NEXT:    %[[BY:.*]] = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
// CHECK-NEXT:    %y = arith.index_cast %[[BY]] : index to i32
// CHECK-NEXT:    %[[BZ:.*]] = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
// CHECK-NEXT:    %z = arith.index_cast %[[BZ]] : index to i32
// CHECK-NEXT:    %[[GX:.*]] = "gpu.grid_dim"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %nx = arith.index_cast %[[GX]] : index to i32
// CHECK-NEXT:    %[[GY:.*]] = "gpu.grid_dim"() <{dimension = #gpu<dim y>}> : () -> index
// CHECK-NEXT:    %ny = arith.index_cast %[[GY]] : index to i32
// CHECK-NEXT:    %[[GZ:.*]] = "gpu.grid_dim"() <{dimension = #gpu<dim z>}> : () -> index
// CHECK-NEXT:    %nz = arith.index_cast %[[GZ]] : index to i32
// CHECK-NEXT:    %a = arith.addi %x, %y : i32
// CHECK-NEXT:    %b = arith.addi %a, %z : i32
// CHECK-NEXT:    %c = arith.addi %b, %nx : i32
// CHECK-NEXT:    %d = arith.addi %c, %ny : i32
// CHECK-NEXT:    %e = arith.addi %d, %nz : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %e, %out : i32, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.return"() : () -> ()
