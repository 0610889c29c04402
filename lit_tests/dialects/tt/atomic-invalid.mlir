// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @and_on_float(%p: !tt.ptr<f32>, %f: f32) {
  %a = tt.atomic_rmw and, acq_rel, gpu, %p, %f : !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: atomic and does not support f32

// -----

func.func @max_on_half(%p: !tt.ptr<f16>, %f: f16) {
  %a = tt.atomic_rmw max, acq_rel, gpu, %p, %f : !tt.ptr<f16>
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: atomic max does not support f16

// -----

func.func @add_on_i16(%p: !tt.ptr<i16>, %f: i16) {
  %a = tt.atomic_rmw add, acq_rel, gpu, %p, %f : !tt.ptr<i16>
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: atomic add does not support i16

// -----

func.func @not_a_pointer(%p: f32, %f: f32) {
  %a = "tt.atomic_rmw"(%p, %f) <{kind = #tt<atomic_kind add>, sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (f32, f32) -> f32
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: expected pointer(s), got f32

// -----

func.func @value_shape(%p: tensor<16x!tt.ptr<i32>>, %v: tensor<32xi32>) {
  %a = "tt.atomic_rmw"(%p, %v) <{kind = #tt<atomic_kind add>, sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<16x!tt.ptr<i32>>, tensor<32xi32>) -> tensor<16xi32>
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: the value must be tensor<16xi32>, got tensor<32xi32>

// -----

func.func @mask_type(%p: tensor<16x!tt.ptr<i32>>, %v: tensor<16xi32>) {
  %a = "tt.atomic_rmw"(%p, %v, %v) <{kind = #tt<atomic_kind add>, sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>, operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<16x!tt.ptr<i32>>, tensor<16xi32>, tensor<16xi32>) -> tensor<16xi32>
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: the mask must be tensor<16xi1>, got tensor<16xi32>

// -----

func.func @shared_memory(%p: !tt.ptr<i32, 3>, %v: i32) {
  %a = "tt.atomic_rmw"(%p, %v) <{kind = #tt<atomic_kind add>, sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>, operandSegmentSizes = array<i32: 1, 1, 0>}> : (!tt.ptr<i32, 3>, i32) -> i32
  func.return
}
// CHECK: Operation does not verify: tt.atomic_rmw: atomics need pointers to global memory

// -----

func.func @cas_on_bytes(%p: !tt.ptr<i8>, %v: i8) {
  %a = tt.atomic_cas acq_rel, gpu, %p, %v, %v : !tt.ptr<i8>
  func.return
}
// CHECK: Operation does not verify: tt.atomic_cas: atomic_cas needs 16-, 32- or 64-bit elements, got i8

// -----

func.func @cas_compared(%p: !tt.ptr<i32>, %c: i64, %v: i32) {
  %a = "tt.atomic_cas"(%p, %c, %v) <{sem = #tt<mem_semantic acq_rel>, scope = #tt<mem_scope gpu>}> : (!tt.ptr<i32>, i64, i32) -> i32
  func.return
}
// CHECK: Operation does not verify: tt.atomic_cas: the compared value must be i32, got i64

// -----

func.func @bad_kind(%p: !tt.ptr<i32>, %v: i32) {
  %a = tt.atomic_rmw nand, acq_rel, gpu, %p, %v : !tt.ptr<i32>
  func.return
}
// CHECK: expected one of add, max, min, and, or, xor, xchg, got 'nand'

// -----

func.func @bad_semantic(%p: !tt.ptr<i32>, %v: i32) {
  %a = tt.atomic_cas seq_cst, gpu, %p, %v, %v : !tt.ptr<i32>
  func.return
}
// CHECK: expected one of relaxed, acquire, release, acq_rel, got 'seq_cst'
