// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @to_itself(%x: tensor<16xf32>) {
  %r = tt.cast %x : tensor<16xf32> -> tensor<16xf32>
  func.return
}
// CHECK: Operation does not verify: tt.cast: conversion of tensor<16xf32> to itself

// -----

func.func @shape_changes(%x: tensor<16xi32>) {
  %r = tt.cast %x : tensor<16xi32> -> tensor<32xf32>
  func.return
}
// CHECK: Operation does not verify: tt.cast: operand and result shapes differ

// -----

func.func @block_to_scalar(%x: tensor<16xi32>) {
  %r = tt.cast %x : tensor<16xi32> -> f32
  func.return
}
// CHECK: Operation does not verify: tt.cast: operand and result shapes differ

// -----

func.func @from_pointer(%p: !tt.ptr<f32>) {
  %r = tt.cast %p : !tt.ptr<f32> -> i64
  func.return
}
// CHECK: Operation does not verify: tt.cast: cannot convert !tt.ptr<f32> to i64

// -----

func.func @to_pointer(%i: i64) {
  %r = tt.cast %i : i64 -> !tt.ptr<f32>
  func.return
}
// CHECK: Operation does not verify: tt.cast: cannot convert i64 to !tt.ptr<f32>

// -----

func.func @bitcast_width(%x: tensor<16xf32>) {
  %r = tt.bitcast %x : tensor<16xf32> -> tensor<16xi16>
  func.return
}
// CHECK: Operation does not verify: tt.bitcast: cannot bitcast 32-bit tensor<16xf32> to 16-bit tensor<16xi16>: the widths differ

// -----

func.func @bitcast_bool(%x: tensor<16xi1>) {
  %r = tt.bitcast %x : tensor<16xi1> -> tensor<16xi1>
  func.return
}
// CHECK: Operation does not verify: tt.bitcast: cannot bitcast tensor<16xi1> to tensor<16xi1>
