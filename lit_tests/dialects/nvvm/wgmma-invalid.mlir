// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @mixed_types(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: supported operand types are f16, bf16, tf32, s8, e4m3, e5m2 (typeA and typeB alike, or two fp8 formats), not f16 and bf16

// -----

func.func @unsupported_type(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<u8>, <one>, <row>], B[<u8>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: supported operand types are f16, bf16, tf32, s8, e4m3, e5m2 (typeA and typeB alike, or two fp8 formats), not u8 and u8

// -----

// an fp8 A takes an fp8 B only
func.func @fp8_and_s8(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: supported operand types are f16, bf16, tf32, s8, e4m3, e5m2 (typeA and typeB alike, or two fp8 formats), not e4m3 and s8

// -----

func.func @fp8_transposed(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e5m2>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: layoutB = row (B MN-major, transposed) is for f16 and bf16 only, not e5m2

// -----

func.func @fp8_k(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: e4m3 operands need shape m = 64, k = 32 and n in 8 to 256 (a multiple of 8), not m = 64, n = 8, k = 16

// -----

func.func @accumulator_type(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: s8 operands accumulate in s32, not f32

// -----

func.func @k(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: f16 operands need shape m = 64, k = 16 and n in 8 to 256 (a multiple of 8), not m = 64, n = 8, k = 8

// -----

func.func @n(%c: !llvm.struct<(f32, f32, f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 12, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: f16 operands need shape m = 64, k = 16 and n in 8 to 256 (a multiple of 8), not m = 64, n = 12, k = 16

// -----

func.func @s8_n(%c: !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 40, k = 32>, D[<s32>, <one>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: s8 operands need shape m = 64, k = 32 and n in 8, 16, 24 or a multiple of 16 up to 256 (a multiple of 8), not m = 64, n = 40, k = 32

// -----

func.func @layout_a(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: only layoutA = row (A K-major) is supported

// -----

func.func @tf32_transposed(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: layoutB = row (B MN-major, transposed) is for f16 and bf16 only, not tf32

// -----

func.func @negated(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <neg>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: only scaleA = scaleB = one is supported

// -----

func.func @saturating(%c: !llvm.struct<(i32, i32, i32, i32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: only satfinite = wrapped (or none) is supported

// -----

func.func @struct_size(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 16, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: the accumulator operand must be a struct of n / 2 = 8 f32 fields (one per accumulator element of the thread), not !llvm.struct<(f32, f32, f32, f32)>

// -----

func.func @field_type(%c: !llvm.struct<(i32, i32, i32, i32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.mma_async: the accumulator operand must be a struct of n / 2 = 4 f32 fields (one per accumulator element of the thread), not !llvm.struct<(i32, i32, i32, i32)>

// -----

func.func @bad_keyword(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <two>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: #nvvm.wgmma_scale_out: expected one of zero, one, got 'two'

// -----

func.func @missing_layout(%c: !llvm.struct<(f32, f32, f32, f32)>, %d: i64) {
  %0 = nvvm.wgmma.mma_async %d, %d, %c, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<f16>, <one>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  func.return
}
// CHECK: expected A[<wgmma_type>, <wgmma_scale_in>, <mma_layout>]

// -----

func.func @wait_group() {
  "nvvm.wgmma.wait.group.sync.aligned"() <{group = -1 : i64}> : () -> ()
  func.return
}
// CHECK: Operation does not verify: nvvm.wgmma.wait.group.sync.aligned: group must be a non-negative i64

// -----

func.func @proxy_kind() {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.global>}
  func.return
}
// CHECK: Operation does not verify: nvvm.fence.proxy: only kind = #nvvm.proxy_kind<async.shared> with space = #nvvm.shared_space<cta> is supported, not kind = async.global, space = (none)

// -----

func.func @proxy_space() {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
  func.return
}
// CHECK: Operation does not verify: nvvm.fence.proxy: only kind = #nvvm.proxy_kind<async.shared> with space = #nvvm.shared_space<cta> is supported, not kind = async.shared, space = cluster
