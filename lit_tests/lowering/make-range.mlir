// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s --check-prefix=W1
// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=4},tt-lower-to-gpu' | filecheck %s --check-prefix=W4

// tt.make_range: each register holds the coordinate of the element it owns, computed once at
// the kernel entry from the thread id: base = (warp * threadsPerWarp + lane) * sizePerThread,
// taken modulo the block size when the layout's tile is larger than the block (replicated
// threads), plus a compile-time offset per register (the tile, for wrapped blocks), plus start.
func.func @range64(%out: !tt.ptr<i32>) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %p = tt.addptr %os, %r : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  tt.store %p, %r : tensor<64x!tt.ptr<i32>>
  func.return
}
// One warp: 2 registers per thread, elements lane and lane + 32.
// W1-LABEL: "gpu.func"
// W1:         %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// W1-NEXT:    %[[T:.*]] = arith.index_cast %[[TID]] : index to i32
// W1-NEXT:    %[[M31:.*]] = arith.constant 31 : i32
// W1-NEXT:    %r = arith.andi %[[T]], %[[M31]] : i32
// W1:         %[[C32:.*]] = arith.constant 32 : i32
// W1-NEXT:    %r_1 = arith.addi %r, %[[C32]] : i32
// W1-NOT:     gpu.thread_id
// W1:         llvm.getelementptr %out[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// W1:         llvm.getelementptr %out[%r_1] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// W1-LABEL: sym_name = "range64"

// Four warps, 128 threads for 64 elements: one register, warps 2 and 3 replicate 0 and 1 (and
// only warps 0 and 1, whose thread-id bit 6 is 0, store).
// W4-LABEL: "gpu.func"
// W4:         %[[TID:.*]] = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
// W4-NEXT:    %[[T:.*]] = arith.index_cast %[[TID]] : index to i32
// W4-NEXT:    %[[M31:.*]] = arith.constant 31 : i32
// W4-NEXT:    %[[LANE:.*]] = arith.andi %[[T]], %[[M31]] : i32
// W4-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// W4-NEXT:    %[[SH:.*]] = arith.shrui %[[T]], %[[C5]] : i32
// W4-NEXT:    %[[M3:.*]] = arith.constant 3 : i32
// W4-NEXT:    %[[WARP:.*]] = arith.andi %[[SH]], %[[M3]] : i32
// W4-NEXT:    %[[C32:.*]] = arith.constant 32 : i32
// W4-NEXT:    %[[WS:.*]] = arith.muli %[[WARP]], %[[C32]] : i32
// W4-NEXT:    %[[BASE:.*]] = arith.addi %[[WS]], %[[LANE]] : i32
// W4-NEXT:    %[[M63:.*]] = arith.constant 63 : i32
// W4-NEXT:    %r = arith.andi %[[BASE]], %[[M63]] : i32
// W4:         %[[BIT6:.*]] = arith.constant 64 : i32
// W4-NEXT:    %[[REPLICA:.*]] = arith.andi %[[T]], %[[BIT6]] : i32
// W4-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// W4-NEXT:    %owner = arith.cmpi eq, %[[REPLICA]], %[[ZERO]] : i32
// W4:         %p = llvm.getelementptr %out[%r] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
// W4-NEXT:    scf.if %owner {
// W4-NEXT:      llvm.store %r, %p : i32, !llvm.ptr<1>
// W4-NEXT:    }
// W4-NEXT:    "gpu.return"

// -----

// A range that does not start at 0: the start is added to every coordinate.
func.func @offset_range(%out: !tt.ptr<i32>) {
  %r = tt.make_range {start = 16 : i32, end = 48 : i32} : tensor<32xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  tt.store %os, %r : tensor<32x!tt.ptr<i32>>
  func.return
}
// W1-LABEL: "gpu.func"
// W1:         %[[LANE:.*]] = arith.andi %{{.*}}, %{{.*}} : i32
// W1:         %[[C16:.*]] = arith.constant 16 : i32
// W1:         %r = arith.addi %[[LANE]], %[[C16]] : i32
// W1-NEXT:    llvm.store %r, %out : i32, !llvm.ptr<1>
// W1-LABEL: sym_name = "offset_range"

// -----

// Rows and columns of a 16x8 block (threadsPerWarp = [4, 8]): the column is lane % 8, the row
// lane / 8 (bits 3-4 of the thread id) with registers at rows +0, +4, +8, +12.
func.func @tile(%out: !tt.ptr<i32>) {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %c = tt.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %re = tt.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ce = tt.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %rb = tt.broadcast %re : tensor<16x1xi32> -> tensor<16x8xi32>
  %cb = tt.broadcast %ce : tensor<1x8xi32> -> tensor<16x8xi32>
  %s = tt.sub %rb, %cb : tensor<16x8xi32>
  %os = tt.splat %out : !tt.ptr<i32> -> tensor<16x8x!tt.ptr<i32>>
  tt.store %os, %s : tensor<16x8x!tt.ptr<i32>>
  func.return
}
// W1-LABEL: "gpu.func"
// W1:         %[[T:.*]] = arith.index_cast %{{.*}} : index to i32
// W1-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// W1-NEXT:    %[[SH:.*]] = arith.shrui %[[T]], %[[C3]] : i32
// W1-NEXT:    %r = arith.andi %[[SH]], %[[C3]] : i32
// W1:         %[[C4:.*]] = arith.constant 4 : i32
// W1-NEXT:    %r_1 = arith.addi %r, %[[C4]] : i32
// W1-NEXT:    %[[C8:.*]] = arith.constant 8 : i32
// W1-NEXT:    %r_2 = arith.addi %r, %[[C8]] : i32
// W1-NEXT:    %[[C12:.*]] = arith.constant 12 : i32
// W1-NEXT:    %r_3 = arith.addi %r, %[[C12]] : i32
// W1-NEXT:    %[[M7:.*]] = arith.constant 7 : i32
// W1-NEXT:    %c = arith.andi %[[T]], %[[M7]] : i32
// W1:         %s = arith.subi %r, %c : i32
// W1-NEXT:    %s_1 = arith.subi %r_1, %c : i32
// W1-NEXT:    %s_2 = arith.subi %r_2, %c : i32
// W1-NEXT:    %s_3 = arith.subi %r_3, %c : i32
// W1-LABEL: sym_name = "tile"
