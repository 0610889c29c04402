// RUN: mytriton-opt %s -p 'ttg-accelerate-matmul{num_warps=1},tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.dot on CUDA cores: every thread stores the A and B elements it owns into the kernel's
// staging buffer (A first, B after it, 16-byte aligned; one buffer for all dots of a type), in
// the staging order chosen by layout assignment (A [M, K] column-major with each
// column padded by 4: stride M + 4; B [K, N] row-major), a barrier, then a K loop in which each
// thread reads the A entries of its accumulator rows and the B entries of its accumulator
// columns and updates its register tile with math.fma, then a barrier before the buffers can
// be rewritten.
//
// 8x2 * 2x8 over one warp: the accumulator tile is 1x2 per thread (sizePerThread = [1, 2],
// threadsPerWarp = [8, 4]); A has one register per thread (threadsPerWarp = [8, 4], replicated
// along K), B too (threadsPerWarp = [2, 16], replicated along N).
func.func @dot(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<8x2x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<2x8x!tt.ptr<f32>>
  %av = tt.load %as : tensor<8x2x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<2x8x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<8x8xf32>
  %d = tt.dot %av, %bv, %zero : tensor<8x2xf32> * tensor<2x8xf32> -> tensor<8x8xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<8x8x!tt.ptr<f32>>
  func.return
}
// One staging buffer: A (8 + 4 pad) * 2 = 24 floats, then B 2 * 8 = 16 from element 24.
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<40xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 16 : i64}> : () -> ()
// CHECK-NOT:     "memref.global"
// CHECK-LABEL: "gpu.func"
// CHECK:         %zero = arith.constant 0.000000e+00 : f32
// CHECK:         %[[T:.*]] = arith.index_cast %{{.*}} : index to i32
// A's element: row (thread id bits 2-4) + column (bit 0) * 12.
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[SH2:.*]] = arith.shrui %[[T]], %[[C2]] : i32
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[AROW:.*]] = arith.andi %[[SH2]], %[[C7]] : i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[LANE4:.*]] = arith.andi %[[T]], %[[C3]] : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[ACOL:.*]] = arith.andi %[[LANE4]], %[[C1]] : i32
// CHECK-NEXT:    %[[C12:.*]] = arith.constant 12 : i32
// CHECK-NEXT:    %[[ACOLS:.*]] = arith.muli %[[ACOL]], %[[C12]] : i32
// CHECK-NEXT:    %[[AOFF:.*]] = arith.addi %[[AROW]], %[[ACOLS]] : i32
// CHECK-NEXT:    %[[AIDX:.*]] = arith.index_cast %[[AOFF]] : i32 to index
// B's element: 24 + row (thread id bit 4) * 8 + column (bits 0-2).
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT:    %[[SH4:.*]] = arith.shrui %[[T]], %[[C4]] : i32
// CHECK-NEXT:    %[[BROW:.*]] = arith.andi %[[SH4]], %[[C1]] : i32
// CHECK-NEXT:    %[[C15:.*]] = arith.constant 15 : i32
// CHECK-NEXT:    %[[LANE16:.*]] = arith.andi %[[T]], %[[C15]] : i32
// CHECK-NEXT:    %[[BCOL:.*]] = arith.andi %[[LANE16]], %[[C7]] : i32
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT:    %[[BROWS:.*]] = arith.muli %[[BROW]], %[[C8]] : i32
// CHECK-NEXT:    %[[BOFF:.*]] = arith.addi %[[BROWS]], %[[BCOL]] : i32
// CHECK-NEXT:    %[[C24:.*]] = arith.constant 24 : i32
// CHECK-NEXT:    %[[BOFF24:.*]] = arith.addi %[[BOFF]], %[[C24]] : i32
// CHECK-NEXT:    %[[BIDX:.*]] = arith.index_cast %[[BOFF24]] : i32 to index
// The accumulator tile: row (bits 2-4), columns 2 * (bits 0-1) + 0 and + 1 (the layout of C
// is not A's, so its coordinates are computed anew).
// CHECK-NEXT:    %[[SH2C:.*]] = arith.shrui %[[T]], %[[C2]] : i32
// CHECK-NEXT:    %[[CROW:.*]] = arith.andi %[[SH2C]], %[[C7]] : i32
// CHECK-NEXT:    %[[CL:.*]] = arith.andi %[[T]], %[[C3]] : i32
// CHECK-NEXT:    %[[CCOL0:.*]] = arith.muli %[[CL]], %[[C2]] : i32
// CHECK-NEXT:    %[[CCOL1:.*]] = arith.addi %[[CCOL0]], %[[C1]] : i32
// CHECK-NEXT:    %av = llvm.load %a : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %bv = llvm.load %b : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[S:.*]] = memref.get_global @smem_0 : memref<40xf32, 3 : i64>
// CHECK-NEXT:    memref.store %av, %[[S]][%[[AIDX]]] : memref<40xf32, 3 : i64>
// CHECK-NEXT:    memref.store %bv, %[[S]][%[[BIDX]]] : memref<40xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// The K loop (0 to K = 2, step 1) carries the accumulator registers.
// CHECK-NEXT:    %d, %d_1 = scf.for %[[K:.*]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[ACC0:.*]] = %zero, %[[ACC1:.*]] = %zero) -> (f32, f32) : i32 {
// CHECK-NEXT:      %[[AK:.*]] = arith.muli %[[K]], %[[C12]] : i32
// CHECK-NEXT:      %[[BK0:.*]] = arith.muli %[[K]], %[[C8]] : i32
// CHECK-NEXT:      %[[BK:.*]] = arith.addi %[[BK0]], %[[C24]] : i32
// CHECK-NEXT:      %[[AI:.*]] = arith.addi %[[AK]], %[[CROW]] : i32
// CHECK-NEXT:      %[[AII:.*]] = arith.index_cast %[[AI]] : i32 to index
// CHECK-NEXT:      %[[A:.*]] = memref.load %[[S]][%[[AII]]] : memref<40xf32, 3 : i64>
// CHECK-NEXT:      %[[BI0:.*]] = arith.addi %[[BK]], %[[CCOL0]] : i32
// CHECK-NEXT:      %[[BII0:.*]] = arith.index_cast %[[BI0]] : i32 to index
// CHECK-NEXT:      %[[B0:.*]] = memref.load %[[S]][%[[BII0]]] : memref<40xf32, 3 : i64>
// CHECK-NEXT:      %[[BI1:.*]] = arith.addi %[[BK]], %[[CCOL1]] : i32
// CHECK-NEXT:      %[[BII1:.*]] = arith.index_cast %[[BI1]] : i32 to index
// CHECK-NEXT:      %[[B1:.*]] = memref.load %[[S]][%[[BII1]]] : memref<40xf32, 3 : i64>
// CHECK-NEXT:      %[[F0:.*]] = math.fma %[[A]], %[[B0]], %[[ACC0]] : f32
// CHECK-NEXT:      %[[F1:.*]] = math.fma %[[A]], %[[B1]], %[[ACC1]] : f32
// CHECK-NEXT:      scf.yield %[[F0]], %[[F1]] : f32, f32
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    llvm.store %d, %c : f32, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %d_1, %c : f32, !llvm.ptr<1>
