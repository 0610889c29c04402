// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

// Every tt op that makes a block holds it to Triton's 2**20 elements (TRITON_MAX_TENSOR_NUMEL).

func.func @make_range_at_the_limit() {
  %r = tt.make_range {start = 0 : i32, end = 1048576 : i32} : tensor<1048576xi32>
  func.return
}
// CHECK: func.func @make_range_at_the_limit
// CHECK-NEXT: tt.make_range {start = 0 : i32, end = 1048576 : i32} : tensor<1048576xi32>

// -----

func.func @make_range_too_large() {
  %r = tt.make_range {start = 0 : i32, end = 1073741824 : i32} : tensor<1073741824xi32>
  func.return
}
// CHECK: Operation does not verify: tt.make_range: numel (1073741824) exceeds triton maximum tensor numel (1048576)

// -----

func.func @splat_too_large(%x: i32) {
  %r = tt.splat %x : i32 -> tensor<2097152xi32>
  func.return
}
// CHECK: Operation does not verify: tt.splat: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @broadcast_too_large(%a: tensor<1x1024xf32>) {
  %r = tt.broadcast %a : tensor<1x1024xf32> -> tensor<2048x1024xf32>
  func.return
}
// CHECK: Operation does not verify: tt.broadcast: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @full_too_large(%f: f32) {
  %r = "tt.full"(%f) : (f32) -> tensor<4096x4096xf32>
  func.return
}
// CHECK: Operation does not verify: tt.full: numel (16777216) exceeds triton maximum tensor numel (1048576)

// -----

func.func @load_too_large(%p: tensor<2048x1024x!tt.ptr<f32>>) {
  %r = "tt.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0, 0, 0>}> : (tensor<2048x1024x!tt.ptr<f32>>) -> tensor<2048x1024xf32>
  func.return
}
// CHECK: Operation does not verify: tt.load: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @dot_too_large(%a: tensor<2048x16xf32>, %b: tensor<16x1024xf32>, %c: tensor<2048x1024xf32>) {
  %d = tt.dot %a, %b, %c : tensor<2048x16xf32> * tensor<16x1024xf32> -> tensor<2048x1024xf32>
  func.return
}
// CHECK: Operation does not verify: tt.dot: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @elementwise_too_large(%x: tensor<2048x1024xf32>) {
  %r = tt.neg %x : tensor<2048x1024xf32>
  func.return
}
// CHECK: Operation does not verify: tt.neg: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @join_too_large(%a: tensor<1048576xf32>) {
  %r = "tt.join"(%a, %a) : (tensor<1048576xf32>, tensor<1048576xf32>) -> tensor<1048576x2xf32>
  func.return
}
// CHECK: Operation does not verify: tt.join: numel (2097152) exceeds triton maximum tensor numel (1048576)

// -----

func.func @reshape_too_large(%a: tensor<2048x1024xf32>) {
  %r = tt.reshape %a : tensor<2048x1024xf32> -> tensor<2097152xf32>
  func.return
}
// CHECK: Operation does not verify: tt.reshape: numel (2097152) exceeds triton maximum tensor numel (1048576)
