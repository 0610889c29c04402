// RUN: mytriton-opt %s --split-input-file --verify-diagnostics -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.elementwise_inline_asm -> one llvm.inline_asm per register (pack = 1); not pure: it has
// side effects; several outputs come back as an !llvm.struct taken apart by llvm.extractvalue.
func.func @asm() {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %y = tt.elementwise_inline_asm "shf.l.wrap.b32 $0, $1, $1, 3;" {constraints = "=r,r", packed_element = 1 : i32, pure}, %r : tensor<64xi32> -> tensor<64xi32>
  %f = tt.cast %r : tensor<64xi32> -> tensor<64xf32>
  %a, %c = tt.elementwise_inline_asm "mov.b32 $0, $2; add.f32 $1, $3, $3;" {constraints = "=r,=f,r,f", packed_element = 1 : i32}, %r, %f : tensor<64xi32>, tensor<64xf32> -> tensor<64xi32>, tensor<64xf32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %y = llvm.inline_asm "shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r" %r : (i32) -> i32
// CHECK-NEXT:    %y_1 = llvm.inline_asm "shf.l.wrap.b32 $0, $1, $1, 3;", "=r,r" %r_1 : (i32) -> i32
// CHECK:         %[[S:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, $2; add.f32 $1, $3, $3;", "=r,=f,r,f" %r, %f : (i32, f32) -> !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %a = llvm.extractvalue %[[S]][0] : !llvm.struct<(i32, f32)>
// CHECK-NEXT:    %c = llvm.extractvalue %[[S]][1] : !llvm.struct<(i32, f32)>

// -----

// pack = 4 on i8: four elements share one 32-bit register, in and out (Triton's packing); a
// thread holding fewer elements than a pack fills the rest with zeros.
func.func @packed() {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %i8 = tt.cast %r : tensor<64xi32> -> tensor<64xi8>
  %p = tt.elementwise_inline_asm "and.b32 $0, $1, 0x1F1F1F1F;" {constraints = "=r,r", packed_element = 4 : i32, pure}, %i8 : tensor<64xi8> -> tensor<64xi8>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[A:.*]] = arith.extui %i8 : i8 to i32
// CHECK-NEXT:    %[[B:.*]] = arith.extui %i8_1 : i8 to i32
// CHECK-NEXT:    %[[B8:.*]] = arith.shli %[[B]], %{{.*}} : i32
// CHECK-NEXT:    %[[AB:.*]] = arith.ori %[[A]], %[[B8]] : i32
// CHECK:         %[[OUT:.*]] = llvm.inline_asm "and.b32 $0, $1, 0x1F1F1F1F;", "=r,r" %{{.*}} : (i32) -> i32
// CHECK-NEXT:    %p = arith.trunci %[[OUT]] : i32 to i8
// CHECK-NEXT:    %[[HI:.*]] = arith.shrui %[[OUT]], %{{.*}} : i32
// CHECK-NEXT:    %p_1 = arith.trunci %[[HI]] : i32 to i8

// -----

// A constraint letter without a register type is a typed error naming the op.
func.func @bad_constraint() {
  %r = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %y = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=q,r", packed_element = 1 : i32, pure}, %r : tensor<32xi32> -> tensor<32xi32>
  func.return
}
// CHECK: inline asm constraint '=q' is not supported
