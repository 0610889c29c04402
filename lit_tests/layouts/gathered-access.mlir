// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s

// An access through a block table (paged attention's K and V caches): its pointer block is
// built from a loaded table, so it is bound, and the layout its expand_dims and broadcast
// propagate from the 32-element table load runs its threads across the tokens, an element at a
// time. The access takes its coalesced layout instead (16-byte vectors along the contiguous
// head dimension), its pointers and mask recomputed in it from the table values: the
// 32-element table load, smaller than the program's threads, is loaded in a slice of that
// layout (where it cannot be, a volatile table, it is converted to it), never a pointer block
// converted, and the bound copies of the pointer arithmetic (and of the table) are gone.

// CHECK-DAG:   #[[T:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[KT:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG:   #[[V:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[NARROW:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [2, 2], order = [1, 0]}>
// CHECK-DAG:   #[[KT0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[KT]]}>
// CHECK-DAG:   #[[V1:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[V]]}>

// K^T [64, 32]: column n is token n's head row (contiguous down the column). The mask comes
// from the table too (unmapped pages: -1), so it is recomputed from the same table values.
func.func @gathered_kt(%Cache: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %Table: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %Out: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n_tokens: i32, %stride_b: i32 {tt.divisibility = 16 : i32}, %stride_t: i32 {tt.divisibility = 16 : i32}) {
  %r32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %offs_d = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %nt = tt.splat %n_tokens : i32 -> tensor<32xi32>
  %n_valid = tt.cmp lt, %r32, %nt : tensor<32xi32>
  %c8 = arith.constant 8 : i32
  %page = tt.splat %c8 : i32 -> tensor<32xi32>
  %row = tt.div %r32, %page : tensor<32xi32>
  %ts = tt.splat %Table : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %tp = tt.addptr %ts, %row : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %cm1 = arith.constant -1 : i32
  %none = tt.splat %cm1 : i32 -> tensor<32xi32>
  %block = tt.load %tp, %n_valid, %none : tensor<32x!tt.ptr<i32>>
  %c0 = arith.constant 0 : i32
  %zero = tt.splat %c0 : i32 -> tensor<32xi32>
  %mapped = tt.cmp ge, %block, %zero : tensor<32xi32>
  %ok = tt.and %n_valid, %mapped : tensor<32xi1>
  %sb = tt.splat %stride_b : i32 -> tensor<32xi32>
  %base = tt.mul %block, %sb : tensor<32xi32>
  %slot = tt.rem %r32, %page : tensor<32xi32>
  %st = tt.splat %stride_t : i32 -> tensor<32xi32>
  %within = tt.mul %slot, %st : tensor<32xi32>
  %offs = tt.add %base, %within : tensor<32xi32>
  %oe = tt.expand_dims %offs {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %cs = tt.splat %Cache : !tt.ptr<f16> -> tensor<1x32x!tt.ptr<f16>>
  %cp = tt.addptr %cs, %oe : tensor<1x32x!tt.ptr<f16>>, tensor<1x32xi32>
  %de = tt.expand_dims %offs_d {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cb = tt.broadcast %cp : tensor<1x32x!tt.ptr<f16>> -> tensor<64x32x!tt.ptr<f16>>
  %db = tt.broadcast %de : tensor<64x1xi32> -> tensor<64x32xi32>
  %ptrs = tt.addptr %cb, %db : tensor<64x32x!tt.ptr<f16>>, tensor<64x32xi32>
  %oke = tt.expand_dims %ok {axis = 0 : i32} : tensor<32xi1> -> tensor<1x32xi1>
  %mask = tt.broadcast %oke : tensor<1x32xi1> -> tensor<64x32xi1>
  %kt = tt.load %ptrs, %mask : tensor<64x32x!tt.ptr<f16>>
  %os = tt.splat %Out : !tt.ptr<f16> -> tensor<64x32x!tt.ptr<f16>>
  tt.store %os, %kt : tensor<64x32x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @gathered_kt
// CHECK-NOT:     ttg.convert_layout
// CHECK-NOT:     , #[[T]]>
// CHECK:         %block = tt.load %{{.*}} : tensor<32x!tt.ptr<i32>, #[[KT0]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK-NOT:     , #[[T]]>
// CHECK:         %base = tt.mul %block, %{{.*}} : tensor<32xi32, #[[KT0]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK-NOT:     , #[[T]]>
// CHECK:         %mapped = tt.cmp ge, %block, %{{.*}} : tensor<32xi32, #[[KT0]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK-NOT:     , #[[T]]>
// CHECK:         %kt = tt.load %ptrs, %mask : tensor<64x32x!tt.ptr<f16>, #[[KT]]>
// CHECK-NOT:     , #[[T]]>
// CHECK:         func.return

// V [32, 64] stored into the cache (a scatter through the table): row n is token n's head row.
// The table is volatile: it is not loaded again, its values are converted to the slice.
func.func @scattered_v(%Cache: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %Table: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %stride_b: i32 {tt.divisibility = 16 : i32}) {
  %r32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %offs_d = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %ts = tt.splat %Table : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %tp = tt.addptr %ts, %r32 : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %block = tt.load %tp {isVolatile} : tensor<32x!tt.ptr<i32>>
  %sb = tt.splat %stride_b : i32 -> tensor<32xi32>
  %offs = tt.mul %block, %sb : tensor<32xi32>
  %oe = tt.expand_dims %offs {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %cs = tt.splat %Cache : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
  %cp = tt.addptr %cs, %oe : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
  %de = tt.expand_dims %offs_d {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = tt.broadcast %cp : tensor<32x1x!tt.ptr<f16>> -> tensor<32x64x!tt.ptr<f16>>
  %db = tt.broadcast %de : tensor<1x64xi32> -> tensor<32x64xi32>
  %ptrs = tt.addptr %cb, %db : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %one = arith.constant 1.0 : f16
  %v = tt.splat %one : f16 -> tensor<32x64xf16>
  tt.store %ptrs, %v : tensor<32x64x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @scattered_v
// CHECK:         %block = tt.load %{{.*}} {isVolatile} : tensor<32x!tt.ptr<i32>, #[[T]]>
// CHECK:         ttg.convert_layout %block : tensor<32xi32, #[[T]]> -> tensor<32xi32, #[[V1]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         tt.store %ptrs, %{{.*}} : tensor<32x64x!tt.ptr<f16>, #[[V]]>

// Not when the table values are not much smaller than the access (64 of 256 bytes: at most an
// eighth is converted): the load keeps the layout its pointers have (an element a thread).
func.func @table_too_large(%Cache: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %Table: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %Out: !tt.ptr<i8>, %stride_b: i32 {tt.divisibility = 16 : i32}) {
  %r64 = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %offs_d = tt.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %ts = tt.splat %Table : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %tp = tt.addptr %ts, %r64 : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %block = tt.load %tp : tensor<64x!tt.ptr<i32>>
  %sb = tt.splat %stride_b : i32 -> tensor<64xi32>
  %offs = tt.mul %block, %sb : tensor<64xi32>
  %oe = tt.expand_dims %offs {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cs = tt.splat %Cache : !tt.ptr<i8> -> tensor<64x1x!tt.ptr<i8>>
  %cp = tt.addptr %cs, %oe : tensor<64x1x!tt.ptr<i8>>, tensor<64x1xi32>
  %de = tt.expand_dims %offs_d {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %cb = tt.broadcast %cp : tensor<64x1x!tt.ptr<i8>> -> tensor<64x4x!tt.ptr<i8>>
  %db = tt.broadcast %de : tensor<1x4xi32> -> tensor<64x4xi32>
  %ptrs = tt.addptr %cb, %db : tensor<64x4x!tt.ptr<i8>>, tensor<64x4xi32>
  %x = tt.load %ptrs : tensor<64x4x!tt.ptr<i8>>
  %os = tt.splat %Out : !tt.ptr<i8> -> tensor<64x4x!tt.ptr<i8>>
  tt.store %os, %x : tensor<64x4x!tt.ptr<i8>>
  func.return
}
// CHECK-LABEL: func.func @table_too_large
// CHECK:         %x = tt.load %ptrs : tensor<64x4x!tt.ptr<i8>, #[[NARROW]]>

// A pointer block advanced in a loop whose initial value is gathered (a fused MoE's rows of A,
// through its token ids): carried in the coalesced layout of the loads made through it, its
// initial value and the rows' mask recomputed from the ids (loaded in a slice of that layout);
// the values loaded through it (and the sum they feed) are predicted in that layout too, so
// nothing is converted in the loop. (Its layout is V's above: 16-byte vectors along the rows.)
func.func @gathered_rows_loop(%A: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %Rows: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %Out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n_valid: i32, %n: i32, %stride_am: i32 {tt.divisibility = 16 : i32}) {
  %offs_m = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %offs_k = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %0 = tt.splat %Rows : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  %1 = tt.addptr %0, %offs_m : tensor<32x!tt.ptr<i32>>, tensor<32xi32>
  %rows = tt.load %1 : tensor<32x!tt.ptr<i32>>
  %2 = tt.splat %n_valid : i32 -> tensor<32xi32>
  %row_ok = tt.cmp lt, %rows, %2 : tensor<32xi32>
  %3 = tt.expand_dims %rows {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %4 = tt.splat %stride_am : i32 -> tensor<32x1xi32>
  %5 = tt.mul %3, %4 : tensor<32x1xi32>
  %6 = tt.splat %A : !tt.ptr<f16> -> tensor<32x1x!tt.ptr<f16>>
  %7 = tt.addptr %6, %5 : tensor<32x1x!tt.ptr<f16>>, tensor<32x1xi32>
  %8 = tt.expand_dims %offs_k {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %9 = tt.broadcast %7 : tensor<32x1x!tt.ptr<f16>> -> tensor<32x64x!tt.ptr<f16>>
  %10 = tt.broadcast %8 : tensor<1x64xi32> -> tensor<32x64xi32>
  %a_ptrs = tt.addptr %9, %10 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %acc = tt.zeros : tensor<32x64xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %11 = tt.expand_dims %row_ok {axis = 1 : i32} : tensor<32xi1> -> tensor<32x1xi1>
  %mask = tt.broadcast %11 : tensor<32x1xi1> -> tensor<32x64xi1>
  %step = tt.splat %c64 : i32 -> tensor<32x64xi32>
  %a_ptrs_1, %acc_1 = scf.for %k = %c0 to %n step %c1 iter_args(%a_ptrs_2 = %a_ptrs, %acc_2 = %acc) -> (tensor<32x64x!tt.ptr<f16>>, tensor<32x64xf32>) : i32 {
    %a = tt.load %a_ptrs_2, %mask : tensor<32x64x!tt.ptr<f16>>
    %12 = tt.cast %a : tensor<32x64xf16> -> tensor<32x64xf32>
    %acc_3 = tt.add %acc_2, %12 : tensor<32x64xf32>
    %a_ptrs_3 = tt.addptr %a_ptrs_2, %step : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
    scf.yield %a_ptrs_3, %acc_3 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xf32>
  }
  %13 = tt.splat %Out : !tt.ptr<f32> -> tensor<32x64x!tt.ptr<f32>>
  tt.store %13, %acc_1 : tensor<32x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @gathered_rows_loop
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %[[R:rows]] = tt.load %{{.*}} : tensor<32x!tt.ptr<i32>, #[[V1]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %a_ptrs = tt.addptr %{{.*}} : tensor<32x64x!tt.ptr<f16>, #[[V]]>, tensor<32x64xi32, #[[V]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         scf.for {{.*}} -> (tensor<32x64x!tt.ptr<f16>, #[[V]]>, tensor<32x64xf32, #[[V]]>)
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %row_ok = tt.cmp lt, %[[R]], %{{.*}} : tensor<32xi32, #[[V1]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %a = tt.load %a_ptrs_2, %{{.*}} : tensor<32x64x!tt.ptr<f16>, #[[V]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         func.return
