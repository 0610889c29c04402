// RUN: mytriton-opt %s --split-input-file -p 'tt-lower-to-gpu,cse,dce' | filecheck %s

// Blocks in a slice layout (a 1-D row in the layout of a 2-D tile's row) move as vectors too:
// along the fastest of the parent's dimensions the slice keeps, a thread holds the parent's
// sizePerThread consecutive elements, one vector access when the axis analysis proves them
// contiguous, aligned and under one mask. The threads along the removed dimension hold replicas:
// each loads its own copy, and only the owner (replica lane bits 0) stores.

// Slice dim 0 of a [1, 4]-per-thread tile: 4 f32 a thread, lanes 8..31 replicate lanes 0..7.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#row = #ttg.slice<{dim = 0, parent = #blocked}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @row_copy(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #row>
  %ns = tt.splat %n : i32 -> tensor<32xi32, #row>
  %m = tt.cmp lt, %r, %ns : tensor<32xi32, #row>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #row>
  %p = tt.addptr %xs, %r : tensor<32x!tt.ptr<f32>, #row>, tensor<32xi32, #row>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #row>
  %q = tt.addptr %ys, %r : tensor<32x!tt.ptr<f32>, #row>, tensor<32xi32, #row>
  %v = tt.load %p, %m : tensor<32x!tt.ptr<f32>, #row>
  tt.store %q, %v, %m : tensor<32x!tt.ptr<f32>, #row>
  func.return
}
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[LANE:.*]] = arith.andi %{{.*}}, %{{.*}} : i32
// CHECK:         %r = arith.muli %[[LANE]], %{{.*}} : i32
// CHECK:         %[[REPLICA:.*]] = arith.constant 24 : i32
// CHECK-NEXT:    %[[BITS:.*]] = arith.andi %{{.*}}, %[[REPLICA]] : i32
// CHECK-NEXT:    %owner = arith.cmpi eq, %[[BITS]], %{{.*}} : i32
// CHECK:         %[[LOADED:.*]] = scf.if %m -> (vector<4xf32>) {
// CHECK-NEXT:      llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         %v = vector.extract %[[LOADED]][0] : f32 from vector<4xf32>
// CHECK-COUNT-3: vector.extract %[[LOADED]][{{[1-3]}}] : f32 from vector<4xf32>
// CHECK-NOT:     llvm.load
// CHECK:         scf.if %owner {
// CHECK:           %[[PACKED:.*]] = vector.insert %v_3, %{{.*}} [3] : f32 into vector<4xf32>
// CHECK-NEXT:      scf.if %m {
// CHECK-NEXT:        llvm.store %[[PACKED]], %q {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "row_copy"

// -----

// Slice dim 1 of a column-major parent ([8, 1] per thread, order [0, 1]): 8 halves a thread
// along the kept dimension 0, one vector<8xf16>.
#blocked = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [0, 1]}>
#col = #ttg.slice<{dim = 1, parent = #blocked}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @col_copy(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32, #col>
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>, #col>
  %p = tt.addptr %xs, %r : tensor<32x!tt.ptr<f16>, #col>, tensor<32xi32, #col>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>, #col>
  %q = tt.addptr %ys, %r : tensor<32x!tt.ptr<f16>, #col>, tensor<32xi32, #col>
  %v = tt.load %p : tensor<32x!tt.ptr<f16>, #col>
  tt.store %q, %v : tensor<32x!tt.ptr<f16>, #col>
  func.return
}
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %owner = arith.cmpi eq
// CHECK:         %[[LOADED:.*]] = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NOT:     llvm.load
// CHECK:         scf.if %owner {
// CHECK:           llvm.store %{{.*}}, %q {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "col_copy"

// -----

// The kept dimension need not be the parent's fastest: slice dim 1 of a row-major [2, 4]-per-
// thread tile keeps dimension 0, 2 f32 a thread (vector<2xf32>, 8-byte aligned).
#blocked = #ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ttg.slice<{dim = 1, parent = #blocked}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @pairs(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #col>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #col>
  %p = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>, #col>, tensor<16xi32, #col>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #col>
  %q = tt.addptr %ys, %r : tensor<16x!tt.ptr<f32>, #col>, tensor<16xi32, #col>
  %v = tt.load %p : tensor<16x!tt.ptr<f32>, #col>
  tt.store %q, %v : tensor<16x!tt.ptr<f32>, #col>
  func.return
}
}
// CHECK-LABEL: "gpu.func"
// CHECK:         llvm.load %p {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT:     llvm.load
// CHECK:         llvm.store %{{.*}}, %q {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "pairs"

// -----

// One element a thread along the kept dimension (slice dim 1 of a [1, 4] tile): nothing to
// vectorize, element by element as before.
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#col = #ttg.slice<{dim = 1, parent = #blocked}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @singles(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32, #col>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>, #col>
  %p = tt.addptr %xs, %r : tensor<8x!tt.ptr<f32>, #col>, tensor<8xi32, #col>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<8x!tt.ptr<f32>, #col>
  %q = tt.addptr %ys, %r : tensor<8x!tt.ptr<f32>, #col>, tensor<8xi32, #col>
  %v = tt.load %p : tensor<8x!tt.ptr<f32>, #col>
  tt.store %q, %v : tensor<8x!tt.ptr<f32>, #col>
  func.return
}
}
// CHECK-LABEL: "gpu.func"
// CHECK-NOT:     vector
// CHECK:         llvm.load %p : !llvm.ptr<1> -> f32
// CHECK-NOT:     vector
// CHECK:         llvm.store %{{.*}}, %q : f32, !llvm.ptr<1>
// CHECK:         sym_name = "singles"

// -----

// A slice of a slice (a 3-D parent, dims 2 then 0 removed) keeps root dimension 1: 2 f32 a thread
// per repetition, the block (16) twice the tile (8): two vector<2xf32> a thread, 8 apart.
#blocked = #ttg.blocked<{sizePerThread = [1, 2, 4], threadsPerWarp = [2, 4, 4], warpsPerCTA = [1, 1, 1], order = [2, 1, 0]}>
#s2 = #ttg.slice<{dim = 2, parent = #blocked}>
#s = #ttg.slice<{dim = 0, parent = #s2}>
builtin.module attributes {"ttg.num-warps" = 1 : i32, "ttg.threads-per-warp" = 32 : i32} {
func.func @nested(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #s>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #s>
  %p = tt.addptr %xs, %r : tensor<16x!tt.ptr<f32>, #s>, tensor<16xi32, #s>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>, #s>
  %q = tt.addptr %ys, %r : tensor<16x!tt.ptr<f32>, #s>, tensor<16xi32, #s>
  %v = tt.load %p : tensor<16x!tt.ptr<f32>, #s>
  tt.store %q, %v : tensor<16x!tt.ptr<f32>, #s>
  func.return
}
}
// CHECK-LABEL: "gpu.func"
// CHECK:         llvm.load %p {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK:         llvm.load %p_1 {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NOT:     llvm.load
// CHECK:         scf.if %owner {
// CHECK:           llvm.store %{{.*}}, %q {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK:           llvm.store %{{.*}}, %q_1 {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<1>
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "nested"
