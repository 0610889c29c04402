// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// A TMA copy fills a tile the copy engine can write: a #ttg.nvmma_shared tile contiguous along
// its last dimension (the copy engine writes rows of the tensor's innermost dimension).
func.func @copy_into_a_padded_tile(%map: !tt.ptr<i8>, %r: i32, %p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
  ttg.async_tma_copy_global_to_local %map[%r, %r] %tile, %bar, %p : !ttg.memdesc<64x64xf16, #ttg.shared<{order = [1, 0], pad = 8}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.async_tma_copy_global_to_local: the copy engine cannot write a tile laid out as

// -----

func.func @copy_into_a_column_major_tile(%map: !tt.ptr<i8>, %r: i32, %p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [0, 1], swizzle = 128, rotate = 0}>>
  ttg.async_tma_copy_global_to_local %map[%r, %r] %tile, %bar, %p : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [0, 1], swizzle = 128, rotate = 0}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.async_tma_copy_global_to_local: the copy engine cannot write a tile laid out as

// -----

func.func @one_coordinate(%map: !tt.ptr<i8>, %r: i32, %p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>
  ttg.async_tma_copy_global_to_local %map[%r] %tile, %bar, %p : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.async_tma_copy_global_to_local: a 2-d tile needs two coordinates

// -----

// A tile whose 8-row groups rotate is copied a span at a time, where the span lies inside the
// tensor's rows: the copy needs them; a tile whose rows stay in place takes none.
func.func @rotated_without_rows(%map: !tt.ptr<i8>, %r: i32, %p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>
  ttg.async_tma_copy_global_to_local %map[%r, %r] %tile, %bar, %p : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.async_tma_copy_global_to_local: a tile whose 8-row groups rotate needs the tensor's `rows`

// -----

func.func @rows_of_a_tile_in_place(%map: !tt.ptr<i8>, %r: i32, %p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>
  ttg.async_tma_copy_global_to_local %map[%r, %r] %tile, %bar, %p rows %r : !ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>, !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.async_tma_copy_global_to_local: `rows` only goes with a tile whose rows rotate

// -----

// A barrier is one i64 in shared memory.
func.func @barrier_of_i32(%p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<2xi32, #ttg.shared<{order = [0]}>>
  ttg.barrier_expect %bar, 64, %p : !ttg.memdesc<2xi32, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.barrier_expect: the barrier must be a !ttg.memdesc<1xi64>

// -----

func.func @expect_nothing(%p: i1) {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  ttg.barrier_expect %bar, 0, %p : !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.barrier_expect: the expected bytes must be positive

// -----

func.func @no_arrivals() {
  %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  ttg.init_barrier %bar, 0 : !ttg.memdesc<1xi64, #ttg.shared<{order = [0]}>>
  func.return
}
// CHECK: ttg.init_barrier: the arrival count must be positive
