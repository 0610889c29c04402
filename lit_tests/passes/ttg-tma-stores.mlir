// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=4},ttg-tma-stores' | filecheck %s
// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=4 capability=80},ttg-tma-stores' | filecheck %s --check-prefix=SM80

// A host descriptor's block store (tt.store ... tensor_map, its map the kernel's argument 4) in
// a loop becomes a TMA store on sm_90: a wait for the last store's reads before the tile is
// written again, the block written into a 128-byte swizzled tile (from before the layout
// conversion the plain store needed), the copy of the tile, and a wait before the kernel returns;
// the kernel records the map's box (every row, one swizzle row of columns). The pointers and
// the mask are gone. On sm_80 the store stays.
func.func @store_loop(%y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %ym: i32, %yn: i32 {tt.divisibility = 16 : i32}, %ys: i64, %ymap: !tt.ptr<i8>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %v = tt.zeros : tensor<64x128xf16>
  %p = tt.splat %y : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  scf.for %i = %c0 to %n step %c1 : i32 {
    %row = tt.mul %i, %c64 : i32
    tt.store %p, %v tensor_map %ymap[%row, %c0] : tensor<64x128x!tt.ptr<f16>>
    scf.yield
  }
  func.return
}
// CHECK-LABEL: func.func @store_loop
// CHECK-SAME:    attributes {ttg.tensor_maps = {"4" = array<i64: 64, 64, 128, 0>}}
// CHECK-NOT:     tt.splat
// CHECK:         scf.for
// CHECK-NOT:       tt.splat
// CHECK:           ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT:      %[[T:.*]] = ttg.local_alloc %{{.*}} : (tensor<64x128xf16, #{{.*}}>) -> !ttg.memdesc<64x128xf16, #ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 0}>>
// CHECK-NEXT:      ttg.async_tma_copy_local_to_global %ymap[%{{.*}}, %c0] %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    ttg.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT:    func.return
// SM80-LABEL: func.func @store_loop
// SM80-NOT:     ttg.tensor_maps
// SM80:         tt.store %{{.*}} tensor_map %ymap[
// SM80-NOT:     ttg.async_tma

// -----

// Stores that stay: an innermost coordinate not known to be a multiple of 16 bytes (the H200
// faults on one) and rows of 32 bytes (no swizzled tile of them): no wait either.
func.func @stay(%y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %ym: i32, %yn: i32, %ys: i64, %ymap: !tt.ptr<i8>, %col: i32) {
  %c0 = arith.constant 0 : i32
  %v = tt.zeros : tensor<64x128xf16>
  %p = tt.splat %y : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  tt.store %p, %v tensor_map %ymap[%c0, %col] : tensor<64x128x!tt.ptr<f16>>
  %w = tt.zeros : tensor<64x16xf16>
  %q = tt.splat %y : !tt.ptr<f16> -> tensor<64x16x!tt.ptr<f16>>
  tt.store %q, %w tensor_map %ymap[%c0, %c0] : tensor<64x16x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @stay
// CHECK-NOT:     ttg.tensor_maps
// CHECK:         tt.store %{{.*}} tensor_map %ymap[%c0, %col]
// CHECK:         tt.store %{{.*}} tensor_map %ymap[%c0, %c0]
// CHECK-NOT:     ttg.async_tma

// -----

// A store that stays because the tensor's width (%yn, its innermost extent) is not known to be a
// multiple of 16 bytes: the copy engine writes whole 16-byte chunks of a row, past the tensor's
// last column.
func.func @ragged_width(%y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %ym: i32, %yn: i32, %ys: i64, %ymap: !tt.ptr<i8>) {
  %c0 = arith.constant 0 : i32
  %v = tt.zeros : tensor<64x128xf16>
  %p = tt.splat %y : !tt.ptr<f16> -> tensor<64x128x!tt.ptr<f16>>
  tt.store %p, %v tensor_map %ymap[%c0, %c0] : tensor<64x128x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @ragged_width
// CHECK-NOT:     ttg.tensor_maps
// CHECK:         tt.store %{{.*}} tensor_map %ymap[%c0, %c0]
// CHECK-NOT:     ttg.async_tma
