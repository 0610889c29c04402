// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A tensor-core dot (mma_policy, dot_mma): both operands staged K-contiguous in shared memory
// (rows padded by 16 bytes), a barrier, then a loop over K in steps of the instruction's K
// whose body loads each fragment register's elements from shared memory, packs them, and
// issues one nvvm.mma.sync per 16 x 8 accumulator tile, its 4 results taken apart.

func.func @f16(%a: !tt.ptr<f16>, %b: !tt.ptr<f16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f16> -> tensor<16x32x!tt.ptr<f16>>
  %bs = tt.splat %b : !tt.ptr<f16> -> tensor<32x16x!tt.ptr<f16>>
  %av = tt.load %as : tensor<16x32x!tt.ptr<f16>>
  %bv = tt.load %bs : tensor<32x16x!tt.ptr<f16>>
  %zero = tt.zeros : tensor<16x16xf32>
  %d = tt.dot %av, %bv, %zero : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x16x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<16x16x!tt.ptr<f32>>
  func.return
}
// A: 16 rows of 32 + 8; B: 16 columns of 32 + 8.
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<640xf16, 3 : i64>
// CHECK-NEXT:  "memref.global"() <{sym_name = "smem_1", type = memref<640xf16, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
// Four A registers, then two B registers per n tile, each two f16 as a vector<2xf16>:
// CHECK-COUNT-4: vector.insert %{{.*}}, %{{.*}} [1] : f16 into vector<2xf16>
// CHECK-COUNT-4: vector.insert %{{.*}}, %{{.*}} [1] : f16 into vector<2xf16>
// CHECK:         "nvvm.mma.sync"({{.*}}) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>, multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>, operandSegmentSizes = array<i32: 4, 2, 4>}> : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-4: llvm.extractvalue %{{.*}}[{{[0-3]}}] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         "nvvm.mma.sync"
// CHECK-COUNT-4: llvm.extractvalue
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  "gpu.barrier"() : () -> ()

// -----

// bf16: two elements' bits in one i32, the lower K index in the low half.
func.func @bf16(%a: !tt.ptr<bf16>, %b: !tt.ptr<bf16>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<bf16> -> tensor<16x16x!tt.ptr<bf16>>
  %bs = tt.splat %b : !tt.ptr<bf16> -> tensor<16x8x!tt.ptr<bf16>>
  %av = tt.load %as : tensor<16x16x!tt.ptr<bf16>>
  %bv = tt.load %bs : tensor<16x8x!tt.ptr<bf16>>
  %zero = tt.zeros : tensor<16x8xf32>
  %d = tt.dot %av, %bv, %zero : tensor<16x16xbf16> * tensor<16x8xbf16> -> tensor<16x8xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<16x8x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         scf.for
// CHECK:           %[[LO:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<{{[0-9]+}}xbf16, 3 : i64>
// CHECK:           %[[HI:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<{{[0-9]+}}xbf16, 3 : i64>
// CHECK-NEXT:      %[[LO16:.*]] = arith.bitcast %[[LO]] : bf16 to i16
// CHECK-NEXT:      %[[LO32:.*]] = arith.extui %[[LO16]] : i16 to i32
// CHECK-NEXT:      %[[HI16:.*]] = arith.bitcast %[[HI]] : bf16 to i16
// CHECK-NEXT:      %[[HI32:.*]] = arith.extui %[[HI16]] : i16 to i32
// CHECK-NEXT:      %[[SH:.*]] = arith.shli %[[HI32]], %{{.*}} : i32
// CHECK-NEXT:      %{{.*}} = arith.ori %[[LO32]], %[[SH]] : i32
// CHECK:           "nvvm.mma.sync"({{.*}}) <{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>{{.*}}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32)

// -----

// tf32 (f32 operands, input_precision = "tf32"): one f32's bits per i32 register, K steps of 8.
func.func @tf32(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  %bs = tt.splat %b : !tt.ptr<f32> -> tensor<8x8x!tt.ptr<f32>>
  %av = tt.load %as : tensor<16x8x!tt.ptr<f32>>
  %bv = tt.load %bs : tensor<8x8x!tt.ptr<f32>>
  %zero = tt.zeros : tensor<16x8xf32>
  %d = tt.dot %av, %bv, %zero {input_precision = "tf32"} : tensor<16x8xf32> * tensor<8x8xf32> -> tensor<16x8xf32>
  %cs = tt.splat %c : !tt.ptr<f32> -> tensor<16x8x!tt.ptr<f32>>
  tt.store %cs, %d : tensor<16x8x!tt.ptr<f32>>
  func.return
}
// A: 16 rows of 8 + 4 f32.
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<192xf32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[EIGHT:.*]] = arith.constant 8 : i32
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[EIGHT]] step %[[EIGHT]]
// CHECK-COUNT-6:   arith.bitcast %{{.*}} : f32 to i32
// CHECK:           "nvvm.mma.sync"({{.*}}) <{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>, multiplicandAPtxType = #nvvm.mma_type<tf32>{{.*}}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32)
