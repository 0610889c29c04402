// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1 capability=90},tt-lower-to-gpu' | filecheck %s
// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1 capability=89},tt-lower-to-gpu' | filecheck %s
// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1 capability=80},tt-lower-to-gpu' | filecheck %s --check-prefix=SM80

// On sm_89 and later, f32 -> fp8e4nv is Triton's cvt.rn.satfinite.e4m3x2.f32 on pairs of a
// thread's registers (64 values, 32 threads: two each), the first of a pair in the low byte
// (the instruction's second operand); before sm_89 it stays integer code (fp8-cast.mlir).
func.func @to_e4m3(%x: !tt.ptr<f32>, %out: !tt.ptr<f8E4M3FN>) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>>
  %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<f32>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f32>>
  %b = tt.cast %v : tensor<64xf32> -> tensor<64xf8E4M3FN>
  %os = tt.splat %out : !tt.ptr<f8E4M3FN> -> tensor<64x!tt.ptr<f8E4M3FN>>
  %op = tt.addptr %os, %r : tensor<64x!tt.ptr<f8E4M3FN>>, tensor<64xi32>
  tt.store %op, %b : tensor<64x!tt.ptr<f8E4M3FN>>
  func.return
}
// CHECK:         %v = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %v_1 = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[P:.*]] = llvm.call_intrinsic "llvm.nvvm.ff.to.e4m3x2.rn"(%v_1, %v) : (f32, f32) -> i16
// CHECK-NEXT:    %b = arith.trunci %[[P]] : i16 to i8
// CHECK-NEXT:    %[[HI:.*]] = arith.shrui %[[P]], %{{.*}} : i16
// CHECK-NEXT:    %b_1 = arith.trunci %[[HI]] : i16 to i8
// CHECK-NOT:     arith.minui
// CHECK:         llvm.store %b, %{{.*}} : i8, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %b_1, %{{.*}} : i8, !llvm.ptr<1>
// CHECK-NEXT:    "gpu.return"
// CHECK-NEXT:  sym_name = "to_e4m3"
// SM80-NOT:      llvm.call_intrinsic
// SM80:          arith.minui
// SM80:          arith.minui
// SM80:          sym_name = "to_e4m3"

// -----

// fp8e5 -> bf16: cvt.rn.f16x2.e5m2x2 of a byte pair (the first register in the low byte,
// element 0 of the f16 pair), then exactly to f32 and bf16; before sm_89, integer decoding.
func.func @from_e5m2(%x: !tt.ptr<f8E5M2>, %out: !tt.ptr<bf16>) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f8E5M2> -> tensor<64x!tt.ptr<f8E5M2>>
  %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<f8E5M2>>, tensor<64xi32>
  %b = tt.load %xp : tensor<64x!tt.ptr<f8E5M2>>
  %v = tt.cast %b : tensor<64xf8E5M2> -> tensor<64xbf16>
  %os = tt.splat %out : !tt.ptr<bf16> -> tensor<64x!tt.ptr<bf16>>
  %op = tt.addptr %os, %r : tensor<64x!tt.ptr<bf16>>, tensor<64xi32>
  tt.store %op, %v : tensor<64x!tt.ptr<bf16>>
  func.return
}
// CHECK:         %[[L0:.*]] = arith.extui %b : i8 to i16
// CHECK-NEXT:    %[[L1:.*]] = arith.extui %b_1 : i8 to i16
// CHECK-NEXT:    %[[SH:.*]] = arith.shli %[[L1]], %{{.*}} : i16
// CHECK-NEXT:    %[[P:.*]] = arith.ori %[[L0]], %[[SH]] : i16
// CHECK-NEXT:    %[[H:.*]] = llvm.call_intrinsic "llvm.nvvm.e5m2x2.to.f16x2.rn"(%[[P]]) : (i16) -> vector<2xf16>
// CHECK-NEXT:    %[[H0:.*]] = vector.extract %[[H]][0] : f16 from vector<2xf16>
// CHECK-NEXT:    %[[H1:.*]] = vector.extract %[[H]][1] : f16 from vector<2xf16>
// CHECK-NEXT:    %[[W0:.*]] = arith.extf %[[H0]] : f16 to f32
// CHECK-NEXT:    %v = arith.truncf %[[W0]] : f32 to bf16
// CHECK-NEXT:    %[[W1:.*]] = arith.extf %[[H1]] : f16 to f32
// CHECK-NEXT:    %v_1 = arith.truncf %[[W1]] : f32 to bf16
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         sym_name = "from_e5m2"
// SM80-NOT:      llvm.call_intrinsic
// SM80:          arith.uitofp
// SM80:          sym_name = "from_e5m2"

// -----

// A scalar (one register) is paired with itself; toward zero (f32 -> fp8e5, rtz) stays integer
// code on every chip (no cvt.rz form exists into fp8).
func.func @scalar_and_rtz(%x: !tt.ptr<f32>, %out: !tt.ptr<f8E5M2>, %out2: !tt.ptr<f8E5M2>) {
  %v = tt.load %x : !tt.ptr<f32>
  %b = tt.cast %v : f32 -> f8E5M2
  tt.store %out, %b : !tt.ptr<f8E5M2>
  %z = tt.fp_to_fp %v rounding = "rtz" : f32 -> f8E5M2
  tt.store %out2, %z : !tt.ptr<f8E5M2>
  func.return
}
// CHECK:         %v = llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[P:.*]] = llvm.call_intrinsic "llvm.nvvm.ff.to.e5m2x2.rn"(%v, %v) : (f32, f32) -> i16
// CHECK-NEXT:    %b = arith.trunci %[[P]] : i16 to i8
// CHECK-NOT:     llvm.call_intrinsic
// CHECK:         arith.minui
// CHECK:         %z = arith.trunci %{{.*}} : i32 to i8
// CHECK:         sym_name = "scalar_and_rtz"
// SM80-NOT:      llvm.call_intrinsic
// SM80:          sym_name = "scalar_and_rtz"


// -----

// f16 -> fp8e4nv: cvt.rn.satfinite.e4m3x2.f16x2 of an f16 pair (element 0, the first register,
// in the low byte).
func.func @from_f16(%x: !tt.ptr<f16>, %out: !tt.ptr<f8E4M3FN>) {
  %r = tt.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<64x!tt.ptr<f16>>
  %xp = tt.addptr %xs, %r : tensor<64x!tt.ptr<f16>>, tensor<64xi32>
  %v = tt.load %xp : tensor<64x!tt.ptr<f16>>
  %b = tt.cast %v : tensor<64xf16> -> tensor<64xf8E4M3FN>
  %os = tt.splat %out : !tt.ptr<f8E4M3FN> -> tensor<64x!tt.ptr<f8E4M3FN>>
  %op = tt.addptr %os, %r : tensor<64x!tt.ptr<f8E4M3FN>>, tensor<64xi32>
  tt.store %op, %b : tensor<64x!tt.ptr<f8E4M3FN>>
  func.return
}
// CHECK:         %[[PAIR0:.*]] = vector.broadcast %v : f16 to vector<2xf16>
// CHECK-NEXT:    %[[PAIR:.*]] = vector.insert %v_1, %[[PAIR0]] [1] : f16 into vector<2xf16>
// CHECK-NEXT:    %[[P:.*]] = llvm.call_intrinsic "llvm.nvvm.f16x2.to.e4m3x2.rn"(%[[PAIR]]) : (vector<2xf16>) -> i16
// CHECK-NEXT:    %b = arith.trunci %[[P]] : i16 to i8
// CHECK:         sym_name = "from_f16"
// SM80-NOT:      llvm.call_intrinsic
// SM80:          arith.extf
// SM80:          sym_name = "from_f16"
