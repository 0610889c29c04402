// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.globaltimer -> nvvm.read.ptx.sreg.globaltimer, tt.smid -> nvvm.read.ptx.sreg.smid, where
// the ops are: every thread reads the register itself (Triton's inline mov).
func.func @sregs(%out: !tt.ptr<i64>, %sm: !tt.ptr<i32>) {
  %start = tt.globaltimer : i64
  %end = tt.globaltimer : i64
  %d = tt.sub %end, %start : i64
  tt.store %out, %d : !tt.ptr<i64>
  %id = tt.smid : i32
  tt.store %sm, %id : !tt.ptr<i32>
  func.return
}
// CHECK:         %owner = arith.cmpi eq
// CHECK-NEXT:    %start = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK-NEXT:    %end = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK-NEXT:    %d = arith.subi %end, %start : i64
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %d, %out : i64, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NEXT:    %id = nvvm.read.ptx.sreg.smid : i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %id, %sm : i32, !llvm.ptr<1>
