// RUN: mytriton-opt %s --split-input-file -p 'ttg-accelerate-matmul{num_warps=1},tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// A tensor-core dot (mma_policy, dot_mma): both operands staged in shared memory as loaded
// (rows padded by 16 bytes), a barrier, then a loop over K in steps of the instruction's K
// whose body loads the fragment registers with nvvm.ldmatrix (A row-major; f16/bf16 B
// transposed, from its N-contiguous staging) through !llvm.ptr<3> addresses of the buffers,
// and issues one nvvm.mma.sync per 16 x 8 accumulator tile, its 4 results taken apart.

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
// One staging buffer: A, 16 rows of 32 + 8 (640), then B, 32 rows of 16 + 8 (768).
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<1408xf16, 3 : i64>
// CHECK-NOT:   "memref.global"
// CHECK-LABEL: "gpu.func"
// Each buffer's address as an !llvm.ptr<3>, once at the entry:
// CHECK:         %[[AI:.*]] = "memref.extract_aligned_pointer_as_index"(%{{.*}}) : (memref<1408xf16, 3 : i64>) -> index
// CHECK-NEXT:    %[[AW:.*]] = arith.index_cast %[[AI]] : index to i64
// CHECK-NEXT:    %[[AP:.*]] = llvm.inttoptr %[[AW]] : i64 to !llvm.ptr<3>
// (B's rows lie 640 elements further: the offset is in each lane's element offset.)
// CHECK:         "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, f32, f32, f32, f32, f32, f32, f32) : i32 {
// The four A registers of the m tile by one ldmatrix.x4, as vector<2xf16>:
// CHECK:         %[[ARow:.*]] = llvm.getelementptr %[[AP]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[AF:.*]] = "nvvm.ldmatrix"(%[[ARow]]) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
// The two B registers of both n tiles by one transposed ldmatrix.x4:
// CHECK-NEXT:    %[[BRow:.*]] = llvm.getelementptr %[[AP]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    "nvvm.ldmatrix"(%[[BRow]]) <{num = 4 : i32, layout = #nvvm.mma_layout<col>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4: llvm.bitcast %{{.*}} : i32 to vector<2xf16>
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
// bf16 registers are the ldmatrix words themselves; one n tile: a transposed ldmatrix.x2.
// CHECK-LABEL: "gpu.func"
// CHECK:         scf.for
// CHECK:           "nvvm.ldmatrix"(%{{.*}}) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4:   llvm.extractvalue %{{.*}} : !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:      llvm.getelementptr
// CHECK-NEXT:      "nvvm.ldmatrix"(%{{.*}}) <{num = 2 : i32, layout = #nvvm.mma_layout<col>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK-COUNT-2:   llvm.extractvalue %{{.*}} : !llvm.struct<(i32, i32)>
// CHECK-NEXT:      "nvvm.mma.sync"({{.*}}) <{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>{{.*}}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32)

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
// A: 16 rows of 8 + 4 f32 (192), then B: 8 columns of 8 + 4 (96).
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<288xf32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[EIGHT:.*]] = arith.constant 8 : i32
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[EIGHT]] step %[[EIGHT]]
// A by ldmatrix.x4 (a row of 4 f32 is 8 b16); B from its K-contiguous staging, B^T's rows
// read untransposed (ldmatrix.trans moves 16-bit elements only), one n tile: x2.
// CHECK:           "nvvm.ldmatrix"(%{{.*}}) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}>
// CHECK:           "nvvm.ldmatrix"(%{{.*}}) <{num = 2 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}> : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK:           "nvvm.mma.sync"({{.*}}) <{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>, multiplicandAPtxType = #nvvm.mma_type<tf32>{{.*}}> : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32)

// -----

// int8 into int32: m16n8k32 (four int8 per i32 register), i32 accumulators that wrap.
func.func @s8(%a: !tt.ptr<i8>, %b: !tt.ptr<i8>, %c: !tt.ptr<i32>) {
  %as = tt.splat %a : !tt.ptr<i8> -> tensor<16x32x!tt.ptr<i8>>
  %bs = tt.splat %b : !tt.ptr<i8> -> tensor<32x8x!tt.ptr<i8>>
  %av = tt.load %as : tensor<16x32x!tt.ptr<i8>>
  %bv = tt.load %bs : tensor<32x8x!tt.ptr<i8>>
  %zero = tt.zeros : tensor<16x8xi32>
  %d = tt.dot %av, %bv, %zero : tensor<16x32xi8> * tensor<32x8xi8> -> tensor<16x8xi32>
  %cs = tt.splat %c : !tt.ptr<i32> -> tensor<16x8x!tt.ptr<i32>>
  tt.store %cs, %d : tensor<16x8x!tt.ptr<i32>>
  func.return
}
// A: 16 rows of 32 + 16 bytes (768); B K-contiguous: 8 columns of 32 + 16 (384).
// CHECK:       "memref.global"() <{sym_name = "smem_0", type = memref<1152xi8, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         scf.for {{.*}} -> (i32, i32, i32, i32) : i32 {
// CHECK:           "nvvm.ldmatrix"(%{{.*}}) <{num = 4 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}>
// CHECK:           "nvvm.ldmatrix"(%{{.*}}) <{num = 2 : i32, layout = #nvvm.mma_layout<row>, {{.*}}}>
// CHECK:           "nvvm.mma.sync"({{.*}}) <{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 32>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, operandSegmentSizes = array<i32: 4, 2, 4>, intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>}> : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-COUNT-4:   llvm.extractvalue %{{.*}}[{{[0-3]}}] : !llvm.struct<(i32, i32, i32, i32)>
