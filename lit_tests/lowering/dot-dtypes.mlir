// RUN: mytriton-opt %s --split-input-file -p 'ttg-accelerate-matmul{num_warps=1},tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tt.dot on operands other than f32 (the f32 shape is pinned by dot.mlir). Operands are staged in
// shared memory (one buffer, A then B) in the type the K loop multiplies in: f16 widened to f32, i8 sign-extended to i32,
// f64 as is. An f16 accumulator stays f16 in the loop's registers and every step is an f32 FMA
// rounded back to f16; an i32 accumulator takes a wrapping multiply-add.

func.func @dot_f16_f16(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f16>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<8x2x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<2x8x!tt.ptr<f16>>
  %av = tt.load %as : tensor<8x2x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<2x8x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<8x8xf16>
  %d = tt.dot %av, %bv, %zero : tensor<8x2xf16> * tensor<2x8xf16> -> tensor<8x8xf16>
  %cs = tt.splat %c : !tt.ptr<f16> -> tensor<8x8x!tt.ptr<f16>>
  tt.store %cs, %d : tensor<8x8x!tt.ptr<f16>>
  func.return
}
// f16 x f16 -> f16: f32 staging, an f16 accumulator, each step extf / fma / truncf.
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<40xf32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %zero = arith.constant 0.000000e+00 : f16
// CHECK:         %av = llvm.load %a : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %bv = llvm.load %b : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %[[SA:.*]] = memref.get_global @smem_0 : memref<40xf32, 3 : i64>
// CHECK-NEXT:    %[[AW:.*]] = arith.extf %av : f16 to f32
// CHECK-NEXT:    memref.store %[[AW]], %[[SA]][%{{.*}}] : memref<40xf32, 3 : i64>
// CHECK-NEXT:    %[[BW:.*]] = arith.extf %bv : f16 to f32
// CHECK-NEXT:    memref.store %[[BW]], %[[SA]][%{{.*}}] : memref<40xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %d, %d_1 = scf.for %{{.*}} iter_args(%[[ACC0:.*]] = %zero, %[[ACC1:.*]] = %zero) -> (f16, f16) : i32 {
// CHECK:           %[[A:.*]] = memref.load %[[SA]][%{{.*}}] : memref<40xf32, 3 : i64>
// CHECK:           %[[B0:.*]] = memref.load %[[SA]][%{{.*}}] : memref<40xf32, 3 : i64>
// CHECK:           %[[B1:.*]] = memref.load %[[SA]][%{{.*}}] : memref<40xf32, 3 : i64>
// CHECK-NEXT:      %[[W0:.*]] = arith.extf %[[ACC0]] : f16 to f32
// CHECK-NEXT:      %[[F0:.*]] = math.fma %[[A]], %[[B0]], %[[W0]] : f32
// CHECK-NEXT:      %[[R0:.*]] = arith.truncf %[[F0]] : f32 to f16
// CHECK-NEXT:      %[[W1:.*]] = arith.extf %[[ACC1]] : f16 to f32
// CHECK-NEXT:      %[[F1:.*]] = math.fma %[[A]], %[[B1]], %[[W1]] : f32
// CHECK-NEXT:      %[[R1:.*]] = arith.truncf %[[F1]] : f32 to f16
// CHECK-NEXT:      scf.yield %[[R0]], %[[R1]] : f16, f16
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    llvm.store %d, %c : f16, !llvm.ptr<1>

// -----


func.func @dot_f16_f32(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<8x2x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<2x8x!tt.ptr<f16>>
  %av = tt.load %as : tensor<8x2x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<2x8x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<8x8xf32>
  %d = tt.dot %av, %bv, %zero : tensor<8x2xf16> * tensor<2x8xf16> -> tensor<8x8xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<8x8x!tt.ptr<f32>>
  func.return
}
// f16 x f16 -> f32: the same f32 staging, a plain f32 FMA loop.
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<40xf32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[AW:.*]] = arith.extf %av : f16 to f32
// CHECK-NEXT:    memref.store %[[AW]]
// CHECK:         %[[BW:.*]] = arith.extf %bv : f16 to f32
// CHECK-NEXT:    memref.store %[[BW]]
// CHECK:         %d, %d_1 = scf.for %{{.*}} iter_args(%[[ACC0:.*]] = %zero, %[[ACC1:.*]] = %zero) -> (f32, f32) : i32 {
// CHECK:           %[[F0:.*]] = math.fma %{{.*}}, %{{.*}}, %[[ACC0]] : f32
// CHECK-NEXT:      %[[F1:.*]] = math.fma %{{.*}}, %{{.*}}, %[[ACC1]] : f32
// CHECK-NEXT:      scf.yield %[[F0]], %[[F1]] : f32, f32

// -----


func.func @dot_i8_i32(%a: !tt.ptr<i8>, %b: !tt.ptr<i8>, %c: !tt.ptr<i32>) {
  %as = tt.splat %a : !tt.ptr<i8> -> tensor<8x2x!tt.ptr<i8>>
  %bs = tt.splat %b : !tt.ptr<i8> -> tensor<2x8x!tt.ptr<i8>>
  %av = tt.load %as : tensor<8x2x!tt.ptr<i8>>
  %bv = tt.load %bs : tensor<2x8x!tt.ptr<i8>>
  %zero = tt.zeros : tensor<8x8xi32>
  %d = tt.dot %av, %bv, %zero : tensor<8x2xi8> * tensor<2x8xi8> -> tensor<8x8xi32>
  %cs = tt.splat %c : !tt.ptr<i32> -> tensor<8x8x!tt.ptr<i32>>
  tt.store %cs, %d : tensor<8x8x!tt.ptr<i32>>
  func.return
}
// i8 x i8 -> i32: sign-extended i32 staging, an i32 multiply-add loop.
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<40xi32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[AW:.*]] = arith.extsi %av : i8 to i32
// CHECK-NEXT:    memref.store %[[AW]]
// CHECK:         %[[BW:.*]] = arith.extsi %bv : i8 to i32
// CHECK-NEXT:    memref.store %[[BW]]
// CHECK:         %d, %d_1 = scf.for %{{.*}} iter_args(%[[ACC0:.*]] = %zero, %[[ACC1:.*]] = %zero) -> (i32, i32) : i32 {
// CHECK:           %[[A:.*]] = memref.load %{{.*}} : memref<40xi32, 3 : i64>
// CHECK:           %[[B0:.*]] = memref.load %{{.*}} : memref<40xi32, 3 : i64>
// CHECK:           %[[B1:.*]] = memref.load %{{.*}} : memref<40xi32, 3 : i64>
// CHECK-NEXT:      %[[P0:.*]] = arith.muli %[[A]], %[[B0]] : i32
// CHECK-NEXT:      %[[S0:.*]] = arith.addi %[[ACC0]], %[[P0]] : i32
// CHECK-NEXT:      %[[P1:.*]] = arith.muli %[[A]], %[[B1]] : i32
// CHECK-NEXT:      %[[S1:.*]] = arith.addi %[[ACC1]], %[[P1]] : i32
// CHECK-NEXT:      scf.yield %[[S0]], %[[S1]] : i32, i32

// -----


func.func @dot_f64(%a: !tt.ptr<f64>, %b: !tt.ptr<f64>, %c: !tt.ptr<f64>) {
  %as = tt.splat %a : !tt.ptr<f64> -> tensor<8x2x!tt.ptr<f64>>
  %bs = tt.splat %b : !tt.ptr<f64> -> tensor<2x8x!tt.ptr<f64>>
  %av = tt.load %as : tensor<8x2x!tt.ptr<f64>>
  %bv = tt.load %bs : tensor<2x8x!tt.ptr<f64>>
  %zero = tt.zeros : tensor<8x8xf64>
  %d = tt.dot %av, %bv, %zero : tensor<8x2xf64> * tensor<2x8xf64> -> tensor<8x8xf64>
  %cs = tt.splat %c : !tt.ptr<f64> -> tensor<8x8x!tt.ptr<f64>>
  tt.store %cs, %d : tensor<8x8x!tt.ptr<f64>>
  func.return
}
// f64 x f64 -> f64: f64 staging and FMAs, nothing converted.
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<40xf64, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK-NOT:     arith.extf
// CHECK:         memref.store %av, %{{.*}} : memref<40xf64, 3 : i64>
// CHECK:         memref.store %bv, %{{.*}} : memref<40xf64, 3 : i64>
// CHECK:         %d, %d_1 = scf.for %{{.*}} iter_args(%[[ACC0:.*]] = %zero, %[[ACC1:.*]] = %zero) -> (f64, f64) : i32 {
// CHECK:           %[[F0:.*]] = math.fma %{{.*}}, %{{.*}}, %[[ACC0]] : f64
// CHECK-NEXT:      %[[F1:.*]] = math.fma %{{.*}}, %{{.*}}, %[[ACC1]] : f64
// CHECK-NEXT:      scf.yield %[[F0]], %[[F1]] : f64, f64
