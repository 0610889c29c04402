// RUN: mytriton-opt %s --split-input-file -p 'tt-lower-to-gpu,cse,dce' | filecheck %s

// A convert_layout of 16-bit elements from an mma accumulator's layout (pairs of columns, 8
// rows by 4 pair columns a warp) to a store layout (8 consecutive columns a thread) goes
// through shared memory in 16-byte accesses (convert_wide): each thread packs four of its
// pairs (8 columns apart) into one 16-byte vector.store, a barrier, then ldmatrix.x4 hands
// every thread its 8 columns as four i32 registers of two halves, a barrier. Addresses are a
// thread part (from the thread id's bits, swizzled so that the stores of a quarter warp hit
// distinct banks) combined with a constant per access.
#acc = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#st = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @acc_to_store(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>) {
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>, #acc>
  %v = tt.load %xs : tensor<16x32x!tt.ptr<f16>, #acc>
  %w = ttg.convert_layout %v : tensor<16x32xf16, #acc> -> tensor<16x32xf16, #st>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>, #st>
  tt.store %ys, %w : tensor<16x32x!tt.ptr<f16>, #st>
  func.return
}
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<512xf16, 3 : i64>, {{.*}}, alignment = 16 : i64}> : () -> ()
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[C80:.*]] = arith.constant 80 : i32
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : i32
// CHECK:         %[[BUF:.*]] = memref.get_global @smem_0 : memref<512xf16, 3 : i64>
// CHECK:         %[[BASE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<3>
// The thread part of the stores, where the op is. Lanes 1 and 2 (pair columns 1 and 2) start
// 80 and 160 halves on (swizzled chunks 10 and 20): one field, (tid & 3) * 80; lanes 4, 8, 16
// (rows 1, 2, 4) 8, 16 and 32 halves on: (tid >> 2 & 7) << 3.
// CHECK:         %[[Q:.*]] = arith.andi %[[TID]], %[[C3]] : i32
// CHECK-NEXT:    %[[QA:.*]] = arith.muli %[[Q]], %[[C80]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.shrui %[[TID]], %{{.*}} : i32
// CHECK-NEXT:    %[[R7:.*]] = arith.andi %[[R]], %{{.*}} : i32
// CHECK-NEXT:    %[[RA:.*]] = arith.shli %[[R7]], %[[C3]] : i32
// CHECK-NEXT:    %[[AT:.*]] = arith.xori %[[QA]], %[[RA]] : i32
// CHECK:         %[[P0:.*]] = vector.insert %v_7, %{{.*}} [7] : f16 into vector<8xf16>
// CHECK-NEXT:    %[[I0:.*]] = arith.index_cast %[[AT]] : i32 to index
// CHECK-NEXT:    vector.store %[[P0]], %[[BUF]][%[[I0]]] {alignment = 16 : i64} : memref<512xf16, 3 : i64>, vector<8xf16>
// The second chunk (rows 8 on) lies 256 halves further: no bit shared with the thread part.
// CHECK:         %[[P1:.*]] = vector.insert %v_15, %{{.*}} [7] : f16 into vector<8xf16>
// CHECK-NEXT:    %[[A1:.*]] = arith.addi %[[AT]], %[[C256]] : i32
// CHECK-NEXT:    %[[I1:.*]] = arith.index_cast %[[A1]] : i32 to index
// CHECK-NEXT:    vector.store %[[P1]], %[[BUF]][%[[I1]]] {alignment = 16 : i64} : memref<512xf16, 3 : i64>, vector<8xf16>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NOT:     vector.store
// CHECK:         %[[R0:.*]] = llvm.getelementptr %[[BASE]][%[[ROW:.*]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[M0:.*]] = "nvvm.ldmatrix"(%[[R0]]) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:    %[[U0:.*]] = llvm.extractvalue %[[M0]][0] : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:    %[[H0:.*]] = llvm.bitcast %[[U0]] : i32 to vector<2xf16>
// CHECK-NEXT:    %w = vector.extract %[[H0]][0] : f16 from vector<2xf16>
// CHECK-NEXT:    %w_1 = vector.extract %[[H0]][1] : f16 from vector<2xf16>
// CHECK:         %w_7 = vector.extract %{{.*}}[1] : f16 from vector<2xf16>
// CHECK-NEXT:    %[[ROW1:.*]] = arith.addi %[[ROW]], %[[C256]] : i32
// CHECK-NEXT:    %[[R1:.*]] = llvm.getelementptr %[[BASE]][%[[ROW1]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    "nvvm.ldmatrix"(%[[R1]])
// CHECK:         %w_15 = vector.extract %{{.*}}[1] : f16 from vector<2xf16>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NOT:     memref.store
// CHECK-NOT:     memref.load

// -----

// f32 pairs: a 16-byte chunk of the result would take 4 columns 4 apart, which no source
// thread holds: element by element (memref.store / memref.load), as before.
#acc = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#st = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @f32_pairs(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #acc>
  %v = tt.load %xs : tensor<16x32x!tt.ptr<f32>, #acc>
  %w = ttg.convert_layout %v : tensor<16x32xf32, #acc> -> tensor<16x32xf32, #st>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x32x!tt.ptr<f32>, #st>
  tt.store %ys, %w : tensor<16x32x!tt.ptr<f32>, #st>
  func.return
}
}
// CHECK-LABEL: "gpu.func"
// CHECK-NOT:     nvvm.ldmatrix
// CHECK:         memref.store %v, %{{.*}}[%{{.*}}] : memref<512xf32, 3 : i64>
// CHECK:         "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %w = memref.load
// CHECK-NOT:     nvvm.ldmatrix
