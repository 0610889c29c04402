// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4}' | %{aliases} | filecheck %s

// A bound block needed in another layout is rebuilt there where that costs no more than
// converting it through shared memory (``layout_values._rebuilds``): cheap math and broadcasts
// over its operands, and a load whose pointers, mask and ``other`` are free issued again in the
// new layout, right after its first copy (so no store between the two reads: the store below
// the first load never reaches the second), where it is smaller than the program's threads
// (128 here) or its only user's (the load moves). Triton's backward rematerialization does the
// same with its loads (rotary's cos/sin, fp8 dequant's scales, the decode combine's lse).

// CHECK-DAG:   #[[K:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[Q:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[V8:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[V1:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG:   #[[O:blocked[0-9]*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[K0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[K]]}>
// CHECK-DAG:   #[[Q0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[Q]]}>
// CHECK-DAG:   #[[O1:slice[0-9]*]] = #ttg.slice<{dim = 1, parent = #[[O]]}>
// CHECK-DAG:   #[[O0:slice[0-9]*]] = #ttg.slice<{dim = 0, parent = #[[O]]}>

// Rotary embedding: a cos row [64] scales a q tile (f16: 8 a thread) and a k tile (f32: 4 a
// thread). The row is loaded once in each tile's slice, both before q is stored (q may alias the
// table), and no tile is converted; the first copy of the row (one element a thread) is erased.
func.func @rotary(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %k: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %cs: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %d = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %css = tt.splat %cs : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %cp = tt.addptr %css, %d : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %cos = tt.load %cp : tensor<64x!tt.ptr<f32>>
  %ce = tt.expand_dims %cos {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
  %de = tt.expand_dims %d {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c64 = arith.constant 64 : i32
  %h32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %s32 = tt.splat %c64 : i32 -> tensor<32xi32>
  %r32 = tt.mul %h32, %s32 : tensor<32xi32>
  %re32 = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rb32 = tt.broadcast %re32 : tensor<32x1xi32> -> tensor<32x64xi32>
  %db32 = tt.broadcast %de : tensor<1x64xi32> -> tensor<32x64xi32>
  %o32 = tt.add %rb32, %db32 : tensor<32x64xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %o32 : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %qh = tt.load %qp : tensor<32x64x!tt.ptr<f16>>
  %qv = tt.cast %qh : tensor<32x64xf16> -> tensor<32x64xf32>
  %cq = tt.broadcast %ce : tensor<1x64xf32> -> tensor<32x64xf32>
  %qr = tt.mul %qv, %cq : tensor<32x64xf32>
  %qo = tt.cast %qr : tensor<32x64xf32> -> tensor<32x64xf16>
  tt.store %qp, %qo : tensor<32x64x!tt.ptr<f16>>
  %h8 = tt.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %s8 = tt.splat %c64 : i32 -> tensor<8xi32>
  %r8 = tt.mul %h8, %s8 : tensor<8xi32>
  %re8 = tt.expand_dims %r8 {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %rb8 = tt.broadcast %re8 : tensor<8x1xi32> -> tensor<8x64xi32>
  %db8 = tt.broadcast %de : tensor<1x64xi32> -> tensor<8x64xi32>
  %o8 = tt.add %rb8, %db8 : tensor<8x64xi32>
  %ks = tt.splat %k : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>>
  %kp = tt.addptr %ks, %o8 : tensor<8x64x!tt.ptr<f32>>, tensor<8x64xi32>
  %kv = tt.load %kp : tensor<8x64x!tt.ptr<f32>>
  %ck = tt.broadcast %ce : tensor<1x64xf32> -> tensor<8x64xf32>
  %kr = tt.mul %kv, %ck : tensor<8x64xf32>
  tt.store %kp, %kr : tensor<8x64x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @rotary
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %cos = tt.load %cp : tensor<64x!tt.ptr<f32>, #[[K0]]>
// CHECK:         %cos_1 = tt.load %cp_1 : tensor<64x!tt.ptr<f32>, #[[Q0]]>
// CHECK-NOT:     tt.load %cp
// CHECK:         %ce = tt.expand_dims %cos_1 {axis = 0 : i32} : tensor<64xf32, #[[Q0]]> -> tensor<1x64xf32, #[[Q]]>
// CHECK-NEXT:    %cq = tt.broadcast %ce : tensor<1x64xf32, #[[Q]]> -> tensor<32x64xf32, #[[Q]]>
// CHECK-NEXT:    %qr = tt.mul %qv, %cq : tensor<32x64xf32, #[[Q]]>
// CHECK:         tt.store %qp, %qo
// CHECK-NOT:     tt.load %cp
// CHECK:         %ce_1 = tt.expand_dims %cos {axis = 0 : i32} : tensor<64xf32, #[[K0]]> -> tensor<1x64xf32, #[[K]]>
// CHECK-NEXT:    %ck = tt.broadcast %ce_1 : tensor<1x64xf32, #[[K]]> -> tensor<8x64xf32, #[[K]]>
// CHECK-NEXT:    %kr = tt.mul %kv, %ck : tensor<8x64xf32, #[[K]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         func.return

// fp8 dequant's scales: one per group of 128 columns (S + cols // 128: contiguity 1, so the
// load's own layout has an element a thread) times 8-a-thread values. Their only user needs them
// 8 a thread, a layout that moves the addresses in runs as long: the load moves there.
func.func @dequant(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %cols = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %qv = tt.load %qp : tensor<1024x!tt.ptr<f16>>
  %qf = tt.cast %qv : tensor<1024xf16> -> tensor<1024xf32>
  %c128 = arith.constant 128 : i32
  %g = tt.splat %c128 : i32 -> tensor<1024xi32>
  %grp = tt.div %cols, %g : tensor<1024xi32>
  %ss = tt.splat %s : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %sp = tt.addptr %ss, %grp : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %sv = tt.load %sp : tensor<1024x!tt.ptr<f32>>
  %yv = tt.mul %qf, %sv : tensor<1024xf32>
  %yh = tt.cast %yv : tensor<1024xf32> -> tensor<1024xf16>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  tt.store %yp, %yh : tensor<1024x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @dequant
// CHECK-NOT:     ttg.convert_layout
// CHECK-NOT:     #[[V1]]>
// CHECK:         %sv = tt.load %sp : tensor<1024x!tt.ptr<f32>, #[[V8]]>
// CHECK-NEXT:    %yv = tt.mul %qf, %sv : tensor<1024xf32, #[[V8]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         func.return

// Split-KV decode's combine: w = exp2(lse - max(lse)) [16] weights the rows of o [16, 128].
// The product follows o, the operand broadcasting the most elements (not the first, the
// broadcast of w), so o is not converted; w[:, None] is rebuilt in o's slice from lse loaded
// again there. The sums of w and its maximum keep the first lse; the column sums stay in o's
// slice down to the store: no conversion at all.
func.func @combine(%mo: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %ml: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %rs = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %rd = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %ls = tt.splat %ml : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %lp = tt.addptr %ls, %rs : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %lse = tt.load %lp : tensor<16x!tt.ptr<f32>>
  %c128 = arith.constant 128 : i32
  %st = tt.splat %c128 : i32 -> tensor<16xi32>
  %row = tt.mul %rs, %st : tensor<16xi32>
  %re = tt.expand_dims %row {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %rb = tt.broadcast %re : tensor<16x1xi32> -> tensor<16x128xi32>
  %de = tt.expand_dims %rd {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %db = tt.broadcast %de : tensor<1x128xi32> -> tensor<16x128xi32>
  %off = tt.add %rb, %db : tensor<16x128xi32>
  %os = tt.splat %mo : !tt.ptr<f32> -> tensor<16x128x!tt.ptr<f32>>
  %op = tt.addptr %os, %off : tensor<16x128x!tt.ptr<f32>>, tensor<16x128xi32>
  %o = tt.load %op : tensor<16x128x!tt.ptr<f32>>
  %m = tt.reduce %lse {axis = 0 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %mx = tt.maximum %a, %b : f32
    tt.reduce.return %mx : f32
  }
  %ms = tt.splat %m : f32 -> tensor<16xf32>
  %sh = tt.sub %lse, %ms : tensor<16xf32>
  %w = tt.exp2 %sh : tensor<16xf32>
  %we = tt.expand_dims %w {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %wb = tt.broadcast %we : tensor<16x1xf32> -> tensor<16x128xf32>
  %wo = tt.mul %wb, %o : tensor<16x128xf32>
  %num = tt.reduce %wo {axis = 0 : i32} : tensor<16x128xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %sm = tt.add %a, %b : f32
    tt.reduce.return %sm : f32
  }
  %den = tt.reduce %w {axis = 0 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %sm = tt.add %a, %b : f32
    tt.reduce.return %sm : f32
  }
  %dens = tt.splat %den : f32 -> tensor<128xf32>
  %res = tt.div %num, %dens : tensor<128xf32>
  %outs = tt.splat %out : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %outp = tt.addptr %outs, %rd : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  tt.store %outp, %res : tensor<128x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: func.func @combine
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %lse = tt.load %lp : tensor<16x!tt.ptr<f32>, #[[V1]]>
// CHECK:         %lse_1 = tt.load %lp_1 : tensor<16x!tt.ptr<f32>, #[[O1]]>
// CHECK:         %o = tt.load %op : tensor<16x128x!tt.ptr<f32>, #[[O]]>
// CHECK:         %sh_1 = tt.sub %lse_1, %{{.*}} : tensor<16xf32, #[[O1]]>
// CHECK-NEXT:    %w_1 = tt.exp2 %sh_1 : tensor<16xf32, #[[O1]]>
// CHECK-NEXT:    %we = tt.expand_dims %w_1 {axis = 1 : i32} : tensor<16xf32, #[[O1]]> -> tensor<16x1xf32, #[[O]]>
// CHECK-NEXT:    %wb = tt.broadcast %we : tensor<16x1xf32, #[[O]]> -> tensor<16x128xf32, #[[O]]>
// CHECK-NEXT:    %wo = tt.mul %wb, %o : tensor<16x128xf32, #[[O]]>
// CHECK:         %den = tt.reduce %w {axis = 0 : i32} : tensor<16xf32, #[[V1]]> -> f32
// CHECK:         tt.store %outp, %res : tensor<128x!tt.ptr<f32>, #[[O0]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         func.return

// Not a volatile load: the scales are converted.
func.func @volatile_scale(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %cols = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %qv = tt.load %qp : tensor<1024x!tt.ptr<f16>>
  %qf = tt.cast %qv : tensor<1024xf16> -> tensor<1024xf32>
  %c128 = arith.constant 128 : i32
  %g = tt.splat %c128 : i32 -> tensor<1024xi32>
  %grp = tt.div %cols, %g : tensor<1024xi32>
  %ss = tt.splat %s : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %sp = tt.addptr %ss, %grp : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %sv = tt.load %sp {isVolatile} : tensor<1024x!tt.ptr<f32>>
  %yv = tt.mul %qf, %sv : tensor<1024xf32>
  %yh = tt.cast %yv : tensor<1024xf32> -> tensor<1024xf16>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  tt.store %yp, %yh : tensor<1024x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @volatile_scale
// CHECK:         %sv = tt.load %sp {isVolatile} : tensor<1024x!tt.ptr<f32>, #[[V1]]>
// CHECK-NEXT:    %[[C:.*]] = ttg.convert_layout %sv : tensor<1024xf32, #[[V1]]> -> tensor<1024xf32, #[[V8]]>
// CHECK-NEXT:    %yv = tt.mul %qf, %[[C]] : tensor<1024xf32, #[[V8]]>

// Nor a ``.cv`` load (fetched again on every read: one read stays one).
func.func @cv_scale(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %cols = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %qv = tt.load %qp : tensor<1024x!tt.ptr<f16>>
  %qf = tt.cast %qv : tensor<1024xf16> -> tensor<1024xf32>
  %c128 = arith.constant 128 : i32
  %g = tt.splat %c128 : i32 -> tensor<1024xi32>
  %grp = tt.div %cols, %g : tensor<1024xi32>
  %ss = tt.splat %s : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %sp = tt.addptr %ss, %grp : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %sv = tt.load %sp {cache = "cv"} : tensor<1024x!tt.ptr<f32>>
  %yv = tt.mul %qf, %sv : tensor<1024xf32>
  %yh = tt.cast %yv : tensor<1024xf32> -> tensor<1024xf16>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  tt.store %yp, %yh : tensor<1024x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @cv_scale
// CHECK:         %sv = tt.load %sp {cache = "cv"} : tensor<1024x!tt.ptr<f32>, #[[V1]]>
// CHECK-NEXT:    %[[C:.*]] = ttg.convert_layout %sv : tensor<1024xf32, #[[V1]]> -> tensor<1024xf32, #[[V8]]>

// Not a load as large as the threads that another user keeps in its own layout (stored as
// loaded): loading it twice would read it twice; it is converted.
func.func @shared_scale(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %cols = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %qv = tt.load %qp : tensor<1024x!tt.ptr<f16>>
  %qf = tt.cast %qv : tensor<1024xf16> -> tensor<1024xf32>
  %c128 = arith.constant 128 : i32
  %g = tt.splat %c128 : i32 -> tensor<1024xi32>
  %grp = tt.div %cols, %g : tensor<1024xi32>
  %ss = tt.splat %s : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %sp = tt.addptr %ss, %grp : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  %sv = tt.load %sp : tensor<1024x!tt.ptr<f32>>
  %zs = tt.splat %z : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %zp = tt.addptr %zs, %cols : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %zp, %sv : tensor<1024x!tt.ptr<f32>>
  %yv = tt.mul %qf, %sv : tensor<1024xf32>
  %yh = tt.cast %yv : tensor<1024xf32> -> tensor<1024xf16>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  tt.store %yp, %yh : tensor<1024x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @shared_scale
// CHECK:         %sv = tt.load %sp : tensor<1024x!tt.ptr<f32>, #[[V1]]>
// CHECK-NOT:     tt.load %sp
// CHECK:         %[[C:.*]] = ttg.convert_layout %sv : tensor<1024xf32, #[[V1]]> -> tensor<1024xf32, #[[V8]]>
// CHECK-NEXT:    %yv = tt.mul %qf, %[[C]] : tensor<1024xf32, #[[V8]]>

// Nor when the load's only user is itself used in its own layout too (the scales cast, stored
// as they are, and multiplied): the load's first copy stays, so it would be read twice.
func.func @shared_cast_scale(%q: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %s: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %z: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %cols = tt.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %qp = tt.addptr %qs, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %qv = tt.load %qp : tensor<1024x!tt.ptr<f16>>
  %qf = tt.cast %qv : tensor<1024xf16> -> tensor<1024xf32>
  %c128 = arith.constant 128 : i32
  %g = tt.splat %c128 : i32 -> tensor<1024xi32>
  %grp = tt.div %cols, %g : tensor<1024xi32>
  %ss = tt.splat %s : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %sp = tt.addptr %ss, %grp : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  %sv = tt.load %sp : tensor<1024x!tt.ptr<f16>>
  %sf = tt.cast %sv : tensor<1024xf16> -> tensor<1024xf32>
  %zs = tt.splat %z : !tt.ptr<f32> -> tensor<1024x!tt.ptr<f32>>
  %zp = tt.addptr %zs, %cols : tensor<1024x!tt.ptr<f32>>, tensor<1024xi32>
  tt.store %zp, %sf : tensor<1024x!tt.ptr<f32>>
  %yv = tt.mul %qf, %sf : tensor<1024xf32>
  %yh = tt.cast %yv : tensor<1024xf32> -> tensor<1024xf16>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>>
  %yp = tt.addptr %ys, %cols : tensor<1024x!tt.ptr<f16>>, tensor<1024xi32>
  tt.store %yp, %yh : tensor<1024x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @shared_cast_scale
// CHECK:         %sv = tt.load %sp : tensor<1024x!tt.ptr<f16>, #[[V1]]>
// CHECK-NOT:     tt.load %sp
// CHECK:         %[[C:.*]] = ttg.convert_layout %sf : tensor<1024xf32, #[[V1]]> -> tensor<1024xf32, #[[V8]]>
// CHECK-NEXT:    %yv = tt.mul %qf, %[[C]] : tensor<1024xf32, #[[V8]]>

// Not a load through bound pointers (a gathered vector): it is not loaded again, but the
// [32, 64] broadcast of it is rebuilt from the vector converted to the tile's slice (64
// elements), not converted whole.
func.func @gathered_vector(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %idx: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %t: !tt.ptr<f16> {tt.divisibility = 16 : i32}) {
  %d = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %ip = tt.addptr %is, %d : tensor<64x!tt.ptr<i32>>, tensor<64xi32>
  %i = tt.load %ip : tensor<64x!tt.ptr<i32>>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %i : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %xv = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %xe = tt.expand_dims %xv {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
  %xb = tt.broadcast %xe : tensor<1x64xf32> -> tensor<32x64xf32>
  %c64 = arith.constant 64 : i32
  %h32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %s32 = tt.splat %c64 : i32 -> tensor<32xi32>
  %r32 = tt.mul %h32, %s32 : tensor<32xi32>
  %re = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rb = tt.broadcast %re : tensor<32x1xi32> -> tensor<32x64xi32>
  %de = tt.expand_dims %d {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %db = tt.broadcast %de : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = tt.add %rb, %db : tensor<32x64xi32>
  %ts = tt.splat %t : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %tp = tt.addptr %ts, %off : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %tv = tt.load %tp : tensor<32x64x!tt.ptr<f16>>
  %tf = tt.cast %tv : tensor<32x64xf16> -> tensor<32x64xf32>
  %r = tt.mul %tf, %xb : tensor<32x64xf32>
  %rh = tt.cast %r : tensor<32x64xf32> -> tensor<32x64xf16>
  tt.store %tp, %rh : tensor<32x64x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: func.func @gathered_vector
// CHECK:         %xv = tt.load %xp : tensor<64x!tt.ptr<f32>, #[[V1]]>
// CHECK-NOT:     tt.load %xp
// CHECK:         %[[C:.*]] = ttg.convert_layout %xv : tensor<64xf32, #[[V1]]> -> tensor<64xf32, #[[Q0]]>
// CHECK-NEXT:    %xe = tt.expand_dims %[[C]] {axis = 0 : i32} : tensor<64xf32, #[[Q0]]> -> tensor<1x64xf32, #[[Q]]>
// CHECK-NEXT:    %xb = tt.broadcast %xe : tensor<1x64xf32, #[[Q]]> -> tensor<32x64xf32, #[[Q]]>
// CHECK-NOT:     ttg.convert_layout
// CHECK:         func.return

// A row loaded before a loop and used in it: loaded again in the loop's layout right after
// itself, before the loop, whatever the loop stores.
func.func @loop_use(%t: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %cs: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
  %d = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %css = tt.splat %cs : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %cp = tt.addptr %css, %d : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %cos = tt.load %cp : tensor<64x!tt.ptr<f32>>
  %ce = tt.expand_dims %cos {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
  %cb = tt.broadcast %ce : tensor<1x64xf32> -> tensor<32x64xf32>
  %c64 = arith.constant 64 : i32
  %h32 = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %s32 = tt.splat %c64 : i32 -> tensor<32xi32>
  %r32 = tt.mul %h32, %s32 : tensor<32xi32>
  %re = tt.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %rb = tt.broadcast %re : tensor<32x1xi32> -> tensor<32x64xi32>
  %de = tt.expand_dims %d {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %db = tt.broadcast %de : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = tt.add %rb, %db : tensor<32x64xi32>
  %ts = tt.splat %t : !tt.ptr<f16> -> tensor<32x64x!tt.ptr<f16>>
  %tp = tt.addptr %ts, %off : tensor<32x64x!tt.ptr<f16>>, tensor<32x64xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %tv = tt.load %tp : tensor<32x64x!tt.ptr<f16>>
    %tf = tt.cast %tv : tensor<32x64xf16> -> tensor<32x64xf32>
    %r = tt.mul %tf, %cb : tensor<32x64xf32>
    %rh = tt.cast %r : tensor<32x64xf32> -> tensor<32x64xf16>
    tt.store %tp, %rh : tensor<32x64x!tt.ptr<f16>>
    scf.yield
  }
  func.return
}
// CHECK-LABEL: func.func @loop_use
// CHECK-NOT:     ttg.convert_layout
// CHECK:         %cos = tt.load %cp : tensor<64x!tt.ptr<f32>, #[[Q0]]>
// CHECK:         scf.for
// CHECK-NOT:     tt.load %cp
// CHECK-NOT:     ttg.convert_layout
// CHECK:         tt.store %tp, %rh
// CHECK:         func.return
