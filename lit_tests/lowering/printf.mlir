// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.print -> one gpu.printf per register in Triton's line format: the program ids (computed
// once at the entry), the element's index padded to ceil(log10(dim)) digits, the prefix, the
// value (i32 as %d, widened unsigned as %u, floats as double %f, hex as 0x%0Nx). A scalar is
// printed by thread 0 only; two operands say "(operand n)"; no operand prints the pid.
func.func @prints(%n: i32, %u: ui8) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  tt.print " r: ", %r : tensor<64xi32>
  tt.print " n: " {hex}, %n : i32
  tt.print " two: ", %n, %u : i32, ui8
  tt.print " hello"
  %f = tt.cast %r : tensor<64xi32> -> tensor<64xf32>
  tt.print " f: ", %f : tensor<64xf32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[X:.*]] = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
// CHECK-NEXT:    %[[PX:.*]] = arith.index_cast %[[X]] : index to i32
// CHECK-NEXT:    %[[Y:.*]] = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
// CHECK-NEXT:    %[[PY:.*]] = arith.index_cast %[[Y]] : index to i32
// CHECK-NEXT:    %[[Z:.*]] = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
// CHECK-NEXT:    %[[PZ:.*]] = arith.index_cast %[[Z]] : index to i32
// CHECK:         %owner = arith.cmpi eq
// CHECK:         gpu.printf "pid (%u, %u, %u) idx (%2u) r: %d\0A", %[[PX]], %[[PY]], %[[PZ]], %r, %r : i32, i32, i32, i32, i32
// CHECK-NEXT:    gpu.printf "pid (%u, %u, %u) idx (%2u) r: %d\0A", %[[PX]], %[[PY]], %[[PZ]], %r_1, %r_1 : i32, i32, i32, i32, i32
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      gpu.printf "pid (%u, %u, %u) idx () n: 0x%08x\0A", %[[PX]], %[[PY]], %[[PZ]], %n : i32, i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      gpu.printf "pid (%u, %u, %u) idx () two: (operand 0) %d\0A", %[[PX]], %[[PY]], %[[PZ]], %n : i32, i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      %[[U:.*]] = arith.extui %u : i8 to i32
// CHECK-NEXT:      gpu.printf "pid (%u, %u, %u) idx () two: (operand 1) %u\0A", %[[PX]], %[[PY]], %[[PZ]], %[[U]] : i32, i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      gpu.printf "pid (%u, %u, %u) hello\0A", %[[PX]], %[[PY]], %[[PZ]] : i32, i32, i32
// CHECK-NEXT:    }
// CHECK:         %[[F:.*]] = arith.extf %f : f32 to f64
// CHECK-NEXT:    gpu.printf "pid (%u, %u, %u) idx (%2u) f: %f\0A", %[[PX]], %[[PY]], %[[PZ]], %r, %[[F]] : i32, i32, i32, i32, f64

// -----

// A replicated element is printed by its owner only: 16 elements over 32 lanes.
func.func @replicated() {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  tt.print " r: ", %r : tensor<16xi32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[OWNER:.*]] = arith.cmpi eq
// CHECK:         scf.if %[[OWNER]] {
// CHECK-NEXT:      gpu.printf "pid (%u, %u, %u) idx (%2u) r: %d\0A"
// CHECK-NEXT:    }

// -----

// tt.assert: a thread holding a false element prints the assertion and traps; tt.assume is
// llvm.intr.assume; gpu.barrier stays.
func.func @asserts(%n: i32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c0 = arith.constant 0 : i32
  %z = tt.splat %c0 : i32 -> tensor<64xi32>
  %c = tt.cmp ge, %r, %z : tensor<64xi32>
  tt.assert %c, "r is negative" : tensor<64xi1>
  %s = tt.cmp gt, %n, %c0 : i32
  tt.assume %s : i1
  "gpu.barrier"() : () -> ()
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %c = arith.cmpi sge, %r, %c0 : i32
// CHECK-NEXT:    %c_1 = arith.cmpi sge, %r_1, %c0 : i32
// CHECK-NEXT:    %[[ALL:.*]] = arith.andi %c, %c_1 : i1
// CHECK-NEXT:    %[[FAILED:.*]] = arith.xori %[[ALL]], %{{.*}} : i1
// CHECK-NEXT:    scf.if %[[FAILED]] {
// CHECK-NEXT:      gpu.printf "block: [%u, %u, %u], thread: [%u, 0, 0] Assertion `r is negative` failed.\0A"
// CHECK-NEXT:      llvm.intr.trap
// CHECK-NEXT:    }
// CHECK:         %s = arith.cmpi sgt, %n, %c0 : i32
// CHECK-NEXT:    "llvm.intr.assume"(%s) <{op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i1) -> ()
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
