// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1 capability=80},tt-lower-to-gpu' | filecheck %s

// Before sm_89 (capability=80 here; lit_tests/lowering/fp8-cvt.mlir has sm_89+'s paired cvt
// instructions): fp8 lives in its byte, a pointer to fp8 is a pointer to i8, and f32 -> fp8e4nv
// is integer code on the f32 bits (no f8 type is left for upstream's NVVM lowering): the magnitude clamped
// to 448 (satfinite; 0x43e00000), rounded to nearest even at bit 20 for a normal result (at a
// shift growing as the value shrinks for a subnormal one), rebiased (120 << 3), the sign put
// back, and NaN made 0x7f.
func.func @to_fp8(%x: !tt.ptr<f32>, %out: !tt.ptr<f8E4M3FN>) {
  %v = tt.load %x : !tt.ptr<f32>
  %b = tt.cast %v : f32 -> f8E4M3FN
  tt.store %out, %b : !tt.ptr<f8E4M3FN>
  func.return
}
// CHECK-DAG:     %[[SIGNPOS:.*]] = arith.constant 24 : i32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 2139095040 : i32
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 1138753536 : i32
// CHECK-DAG:     %[[NORMAL_SHIFT:.*]] = arith.constant 20 : i32
// CHECK-DAG:     %[[REBIAS:.*]] = arith.constant 960 : i32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 127 : i32
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[BITS:.*]] = arith.bitcast %v : f32 to i32
// CHECK-NEXT:    %[[SIGN0:.*]] = arith.shrui %[[BITS]], %[[SIGNPOS]] : i32
// CHECK-NEXT:    %[[SIGN:.*]] = arith.andi %[[SIGN0]], %{{.*}} : i32
// CHECK-NEXT:    %[[MAG:.*]] = arith.andi %[[BITS]], %{{.*}} : i32
// CHECK-NEXT:    %[[ISNAN:.*]] = arith.cmpi ugt, %[[MAG]], %[[INF]] : i32
// CHECK-NEXT:    %[[CLAMPED:.*]] = arith.minui %[[MAG]], %[[MAX]] : i32
// CHECK:         %[[SHIFT:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NORMAL_SHIFT]] : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.shrui %{{.*}}, %[[SHIFT]] : i32
// CHECK:         %[[TIE:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[UP:.*]] = arith.ori %[[ABOVE]], %[[TIE]] : i1
// CHECK-NEXT:    %[[UPI:.*]] = arith.extui %[[UP]] : i1 to i32
// CHECK-NEXT:    %[[N:.*]] = arith.addi %[[Q]], %[[UPI]] : i32
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.select %{{.*}}, %{{.*}}, %[[REBIAS]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.subi %[[N]], %[[OFFSET]] : i32
// CHECK-NEXT:    %[[SIGNED:.*]] = arith.ori %[[M]], %[[SIGN]] : i32
// CHECK-NEXT:    %[[OUT:.*]] = arith.select %[[ISNAN]], %[[NAN]], %[[SIGNED]] : i32
// CHECK-NEXT:    %b = arith.trunci %[[OUT]] : i32 to i8
// CHECK:         llvm.store %b, %out : i8, !llvm.ptr<1>
// CHECK:         {sym_name = "to_fp8", {{.*}}mytriton.pointee_types = [f32, i8]}
// CHECK-NOT:     f8E4M3FN

// -----

// Toward zero (fp_downcast_rounding="rtz", f32 -> fp8e5 only): the same clamp (to 57344,
// 0x47600000) and shift, but no rounding increment, and an infinity is kept (sign | 0x7c)
// instead of saturated.
func.func @to_fp8_rtz(%x: !tt.ptr<f32>, %out: !tt.ptr<f8E5M2>) {
  %v = tt.load %x : !tt.ptr<f32>
  %b = tt.fp_to_fp %v rounding = "rtz" : f32 -> f8E5M2
  tt.store %out, %b : !tt.ptr<f8E5M2>
  func.return
}
// CHECK-DAG:     %[[INF:.*]] = arith.constant 2139095040 : i32
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 1197473792 : i32
// CHECK-DAG:     %[[NORMAL_SHIFT:.*]] = arith.constant 21 : i32
// CHECK-DAG:     %[[REBIAS:.*]] = arith.constant 448 : i32
// CHECK-DAG:     %[[INF_BYTE:.*]] = arith.constant 124 : i32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 127 : i32
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK:         %[[SIGN:.*]] = arith.andi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[MAG:.*]] = arith.andi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[ISNAN:.*]] = arith.cmpi ugt, %[[MAG]], %[[INF]] : i32
// CHECK-NEXT:    %[[CLAMPED:.*]] = arith.minui %[[MAG]], %[[MAX]] : i32
// CHECK:         %[[SHIFT:.*]] = arith.select %{{.*}}, %{{.*}}, %[[NORMAL_SHIFT]] : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.shrui %{{.*}}, %[[SHIFT]] : i32
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.select %{{.*}}, %{{.*}}, %[[REBIAS]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.subi %[[Q]], %[[OFFSET]] : i32
// CHECK-NEXT:    %[[SIGNED:.*]] = arith.ori %[[M]], %[[SIGN]] : i32
// CHECK-NEXT:    %[[SIGNED_INF:.*]] = arith.ori %[[SIGN]], %[[INF_BYTE]] : i32
// CHECK-NEXT:    %[[ISINF:.*]] = arith.cmpi eq, %[[MAG]], %[[INF]] : i32
// CHECK-NEXT:    %[[KEPT:.*]] = arith.select %[[ISINF]], %[[SIGNED_INF]], %[[SIGNED]] : i32
// CHECK-NEXT:    %[[OUT:.*]] = arith.select %[[ISNAN]], %[[NAN]], %[[KEPT]] : i32
// CHECK-NEXT:    %b = arith.trunci %[[OUT]] : i32 to i8
// CHECK:         llvm.store %b, %out : i8, !llvm.ptr<1>
// CHECK-NOT:     f8E5M2
