// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// Loads and stores of 16- and 8-bit elements move 16 bytes per thread, as 32-bit ones do: 8
// halves (or 16 bytes) per thread, contiguous, 16-byte aligned and under one mask value, are one
// vector<8xf16> (vector<16xi8>) access, taken apart by vector.extract and put together by
// vector.broadcast + vector.insert. A masked load yields the broadcast `other` when masked off.
func.func @copy_f16(%x: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ns = tt.splat %n : i32 -> tensor<256xi32>
  %m = tt.cmp lt, %r, %ns : tensor<256xi32>
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
  %p = tt.addptr %xs, %r : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<256x!tt.ptr<f16>>
  %q = tt.addptr %ys, %r : tensor<256x!tt.ptr<f16>>, tensor<256xi32>
  %v = tt.load %p, %m : tensor<256x!tt.ptr<f16>>
  tt.store %q, %v, %m : tensor<256x!tt.ptr<f16>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:         %m = arith.cmpi slt, %r, %n : i32
// CHECK:         %[[OTHER:.*]] = vector.broadcast %[[ZERO]] : f16 to vector<8xf16>
// CHECK-NEXT:    %[[LOADED:.*]] = scf.if %m -> (vector<8xf16>) {
// CHECK-NEXT:      %[[L:.*]] = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xf16>
// CHECK-NEXT:      scf.yield %[[L]] : vector<8xf16>
// CHECK-NEXT:    } else {
// CHECK-NEXT:      scf.yield %[[OTHER]] : vector<8xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:    %v = vector.extract %[[LOADED]][0] : f16 from vector<8xf16>
// CHECK-COUNT-6: vector.extract %[[LOADED]][{{[1-6]}}] : f16 from vector<8xf16>
// CHECK-NEXT:    %v_7 = vector.extract %[[LOADED]][7] : f16 from vector<8xf16>
// CHECK-NOT:     llvm.load
// CHECK:         %[[V0:.*]] = vector.broadcast %v : f16 to vector<8xf16>
// CHECK-NEXT:    %[[V1:.*]] = vector.insert %v_1, %[[V0]] [1] : f16 into vector<8xf16>
// CHECK-COUNT-5: vector.insert %v_{{[2-6]}}, %{{.*}} [{{[2-6]}}] : f16 into vector<8xf16>
// CHECK-NEXT:    %[[V7:.*]] = vector.insert %v_7, %{{.*}} [7] : f16 into vector<8xf16>
// CHECK-NEXT:    scf.if %m {
// CHECK-NEXT:      llvm.store %[[V7]], %q {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<1>
// CHECK-NEXT:    }
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "copy_f16"

// -----

// bf16 with an `other`: its broadcast is what a masked-off thread yields.
func.func @load_bf16(%x: !tt.ptr<bf16> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %ns = tt.splat %n : i32 -> tensor<256xi32>
  %m = tt.cmp lt, %r, %ns : tensor<256xi32>
  %xs = tt.splat %x : !tt.ptr<bf16> -> tensor<256x!tt.ptr<bf16>>
  %p = tt.addptr %xs, %r : tensor<256x!tt.ptr<bf16>>, tensor<256xi32>
  %minf = arith.constant 0xFF80 : bf16
  %others = tt.splat %minf : bf16 -> tensor<256xbf16>
  %v = tt.load %p, %m, %others : tensor<256x!tt.ptr<bf16>>
  %f = tt.cast %v : tensor<256xbf16> -> tensor<256xf32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %q = tt.addptr %ys, %r : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
  tt.store %q, %f : tensor<256x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[MINF:.*]] = arith.constant 0xff80 : bf16
// CHECK:         %[[OTHER:.*]] = vector.broadcast %[[MINF]] : bf16 to vector<8xbf16>
// CHECK-NEXT:    %[[LOADED:.*]] = scf.if %m -> (vector<8xbf16>) {
// CHECK-NEXT:      llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK:           scf.yield %[[OTHER]] : vector<8xbf16>
// CHECK-NOT:     llvm.load
// The f32 results: 8 per thread, stored as two vector<4xf32>.
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "load_bf16"

// -----

// Bytes: 16 per vector (i8, and fp8, which lives in its byte).
func.func @copy_i8_fp8(%x: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %y: !tt.ptr<i8> {tt.divisibility = 16 : i32}, %a: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}, %b: !tt.ptr<f8E4M3FN> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 512 : i32} : tensor<512xi32>
  %xs = tt.splat %x : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>>
  %p = tt.addptr %xs, %r : tensor<512x!tt.ptr<i8>>, tensor<512xi32>
  %ys = tt.splat %y : !tt.ptr<i8> -> tensor<512x!tt.ptr<i8>>
  %q = tt.addptr %ys, %r : tensor<512x!tt.ptr<i8>>, tensor<512xi32>
  %v = tt.load %p : tensor<512x!tt.ptr<i8>>
  tt.store %q, %v : tensor<512x!tt.ptr<i8>>
  %as = tt.splat %a : !tt.ptr<f8E4M3FN> -> tensor<512x!tt.ptr<f8E4M3FN>>
  %pa = tt.addptr %as, %r : tensor<512x!tt.ptr<f8E4M3FN>>, tensor<512xi32>
  %bs = tt.splat %b : !tt.ptr<f8E4M3FN> -> tensor<512x!tt.ptr<f8E4M3FN>>
  %pb = tt.addptr %bs, %r : tensor<512x!tt.ptr<f8E4M3FN>>, tensor<512xi32>
  %w = tt.load %pa : tensor<512x!tt.ptr<f8E4M3FN>>
  tt.store %pb, %w : tensor<512x!tt.ptr<f8E4M3FN>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<16xi8>
// CHECK:         llvm.store %{{.*}}, %q {alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<1>
// CHECK:         llvm.load %pa {alignment = 16 : i64} : !llvm.ptr<1> -> vector<16xi8>
// CHECK:         llvm.store %{{.*}}, %pb {alignment = 16 : i64} : vector<16xi8>, !llvm.ptr<1>
// CHECK-NOT:     llvm.load
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "copy_i8_fp8"

// -----

// An i16 array known 8-byte aligned only: 4 elements per thread and vector (the layout follows
// the load), two vectors per thread; the store keeps that layout.
func.func @copy_i16_8_bytes(%x: !tt.ptr<i16> {tt.divisibility = 8 : i32}, %y: !tt.ptr<i16> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %xs = tt.splat %x : !tt.ptr<i16> -> tensor<256x!tt.ptr<i16>>
  %p = tt.addptr %xs, %r : tensor<256x!tt.ptr<i16>>, tensor<256xi32>
  %ys = tt.splat %y : !tt.ptr<i16> -> tensor<256x!tt.ptr<i16>>
  %q = tt.addptr %ys, %r : tensor<256x!tt.ptr<i16>>, tensor<256xi32>
  %v = tt.load %p : tensor<256x!tt.ptr<i16>>
  tt.store %q, %v : tensor<256x!tt.ptr<i16>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-COUNT-2: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<4xi16>
// CHECK-NOT:     llvm.load
// CHECK-COUNT-2: llvm.store %{{.*}}, %q{{.*}} {alignment = 8 : i64} : vector<4xi16>, !llvm.ptr<1>
// CHECK-NOT:     llvm.store
// CHECK:         sym_name = "copy_i16_8_bytes"

// -----

// Without a proof of alignment (no tt.divisibility), and for i1, one element at a time.
func.func @scalar_accesses(%x: !tt.ptr<f16>, %y: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %a: !tt.ptr<i1> {tt.divisibility = 16 : i32}, %b: !tt.ptr<i1> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %p = tt.addptr %xs, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %ys = tt.splat %y : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %q = tt.addptr %ys, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %v = tt.load %p : tensor<64x!tt.ptr<f16>>
  tt.store %q, %v : tensor<64x!tt.ptr<f16>>
  %as = tt.splat %a : !tt.ptr<i1> -> tensor<64x!tt.ptr<i1>>
  %pa = tt.addptr %as, %r : tensor<64x!tt.ptr<i1>>, tensor<64xi32>
  %bs = tt.splat %b : !tt.ptr<i1> -> tensor<64x!tt.ptr<i1>>
  %pb = tt.addptr %bs, %r : tensor<64x!tt.ptr<i1>>, tensor<64xi32>
  %w = tt.load %pa : tensor<64x!tt.ptr<i1>>
  tt.store %pb, %w : tensor<64x!tt.ptr<i1>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-NOT:     vector
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<1> -> f16
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f16, !llvm.ptr<1>
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<1> -> i1
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : i1, !llvm.ptr<1>
// CHECK-NOT:     vector
// CHECK:         sym_name = "scalar_accesses"
