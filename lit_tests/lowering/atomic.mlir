// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A masked block atomic: per register, an scf.if on the mask yields the old value (0 where
// masked off); acq_rel at gpu scope is ordering 6, syncscope "device"; f32 add is fadd (11).
// Nothing is replicated (64 elements over 32 threads) and the result is unused: no sharing.
func.func @masked_block(%x: !tt.ptr<f32>, %n: i32) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.cast %r : tensor<64xi32> -> tensor<64xf32>
  %ns = tt.splat %n : i32 -> tensor<64xi32>
  %m = tt.cmp lt, %r, %ns : tensor<64xi32>
  %a = tt.atomic_rmw add, acq_rel, gpu, %p, %v, %m : tensor<64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     %owner
// CHECK:         %a = scf.if %m -> (f32) {
// CHECK-NEXT:      %[[OLD:.*]] = "llvm.atomicrmw"(%p, %v) <{bin_op = 11 : i64, ordering = 6 : i64, syncscope = "device"}> : (!llvm.ptr<1>, f32) -> f32
// CHECK-NEXT:      scf.yield %[[OLD]] : f32
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[ZERO]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %a_1 = scf.if %m_1 -> (f32) {
// CHECK-NEXT:      %[[OLD1:.*]] = "llvm.atomicrmw"(%p_1, %v_1) <{bin_op = 11 : i64, ordering = 6 : i64, syncscope = "device"}> : (!llvm.ptr<1>, f32) -> f32
// CHECK-NOT:     memref.get_global
// CHECK-NOT:     gpu.barrier
// CHECK:         "gpu.return"

// -----

// A scalar atomic: thread 0 does it (`%owner`), then passes the old value to every thread
// through shared memory (store by the owner, barrier, load, barrier). Unsigned max is umax
// (bin_op 9); relaxed at cta scope is monotonic (2) at syncscope "block".
func.func @scalar_used(%u: !tt.ptr<ui32>, %w: ui32, %out: !tt.ptr<ui32>) {
  %old = tt.atomic_rmw max, relaxed, cta, %u, %w : !tt.ptr<ui32>
  tt.store %out, %old : !tt.ptr<ui32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %owner = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[R:.*]] = scf.if %owner -> (i32) {
// CHECK-NEXT:      %[[OLD:.*]] = "llvm.atomicrmw"(%u, %w) <{bin_op = 9 : i64, ordering = 2 : i64, syncscope = "block"}> : (!llvm.ptr<1>, i32) -> i32
// CHECK-NEXT:      scf.yield %[[OLD]] : i32
// CHECK:         %[[BUF:.*]] = memref.get_global @smem_0 : memref<1xi32, 3 : i64>
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      memref.store %[[R]], %[[BUF]][%{{.*}}] : memref<1xi32, 3 : i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %old = memref.load %[[BUF]][%{{.*}}] : memref<1xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK:         llvm.store %old, %out : i32, !llvm.ptr<1>

// -----

// Float max is Triton's sign split on the bits: unsigned min (10) for a negative value,
// signed max (7) otherwise. Release at sys scope is ordering 5 without a syncscope.
func.func @float_max(%x: !tt.ptr<f32>, %f: f32) {
  %b = tt.atomic_rmw max, release, sys, %x, %f : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         scf.if %owner -> (f32) {
// CHECK-NEXT:      %[[BITS:.*]] = arith.bitcast %f : f32 to i32
// CHECK-NEXT:      %[[NEG:.*]] = arith.cmpi slt, %[[BITS]], %{{.*}} : i32
// CHECK-NEXT:      %[[OLD:.*]] = scf.if %[[NEG]] -> (i32) {
// CHECK-NEXT:        %[[A:.*]] = "llvm.atomicrmw"(%x, %[[BITS]]) <{bin_op = 10 : i64, ordering = 5 : i64}> : (!llvm.ptr<1>, i32) -> i32
// CHECK-NEXT:        scf.yield %[[A]] : i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[B:.*]] = "llvm.atomicrmw"(%x, %[[BITS]]) <{bin_op = 7 : i64, ordering = 5 : i64}> : (!llvm.ptr<1>, i32) -> i32
// CHECK-NEXT:        scf.yield %[[B]] : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      %{{.*}} = arith.bitcast %[[OLD]] : i32 to f32

// -----

// Compare-and-swap compares integers: a float's bits; the old value is field 0 of the pair.
// Acquire success ordering (4) fails with acquire too.
func.func @cas(%x: !tt.ptr<f32>, %f: f32, %g: f32) {
  %c = tt.atomic_cas acquire, gpu, %x, %f, %g : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         scf.if %owner -> (f32) {
// CHECK-NEXT:      %[[C:.*]] = arith.bitcast %f : f32 to i32
// CHECK-NEXT:      %[[V:.*]] = arith.bitcast %g : f32 to i32
// CHECK-NEXT:      %[[P:.*]] = "llvm.cmpxchg"(%x, %[[C]], %[[V]]) <{success_ordering = 4 : i64, failure_ordering = 4 : i64, syncscope = "device"}> : (!llvm.ptr<1>, i32, i32) -> !llvm.struct<(i32, i1)>
// CHECK-NEXT:      %[[O:.*]] = llvm.extractvalue %[[P]][0] : !llvm.struct<(i32, i1)>
// CHECK-NEXT:      %{{.*}} = arith.bitcast %[[O]] : i32 to f32
