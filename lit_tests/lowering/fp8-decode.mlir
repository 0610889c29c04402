// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1 capability=80},tt-lower-to-gpu' | filecheck %s

// fp8e5 -> f32 before sm_89 (capability=80; sm_89+: fp8-cvt.mlir), from the byte: a normal value's fields shifted into f32 position and rebiased
// (+112 << 23), a subnormal one as mantissa * 2**-16 (exact), the top exponent infinity (0x7c)
// or NaN, then the sign.
func.func @from_fp8(%x: !tt.ptr<f8E5M2>, %out: !tt.ptr<f32>) {
  %b = tt.load %x : !tt.ptr<f8E5M2>
  %v = tt.cast %b : f8E5M2 -> f32
  tt.store %out, %v : !tt.ptr<f32>
  func.return
}
// CHECK-DAG:     %[[SUBSCALE:.*]] = arith.constant 1.52587891e-05 : f32
// CHECK-DAG:     %[[REBIAS:.*]] = arith.constant 939524096 : i32
// CHECK-DAG:     %[[TOP:.*]] = arith.constant 124 : i32
// CHECK-DAG:     %[[INF:.*]] = arith.constant 2139095040 : i32
// CHECK-DAG:     %[[NAN:.*]] = arith.constant 2143289344 : i32
// CHECK:         %b = llvm.load %x : !llvm.ptr<1> -> i8
// CHECK-NEXT:    %[[W:.*]] = arith.extui %b : i8 to i32
// CHECK-NEXT:    %[[MAG:.*]] = arith.andi %[[W]], %{{.*}} : i32
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shli %[[MAG]], %{{.*}} : i32
// CHECK-NEXT:    %[[NORMAL:.*]] = arith.addi %[[SHIFTED]], %[[REBIAS]] : i32
// CHECK-NEXT:    %[[M:.*]] = arith.andi %[[MAG]], %{{.*}} : i32
// CHECK-NEXT:    %[[MF:.*]] = arith.uitofp %[[M]] : i32 to f32
// CHECK-NEXT:    %[[SUB:.*]] = arith.mulf %[[MF]], %[[SUBSCALE]] : f32
// CHECK-NEXT:    %[[SUBBITS:.*]] = arith.bitcast %[[SUB]] : f32 to i32
// CHECK:         %[[ISINF:.*]] = arith.cmpi eq, %[[MAG]], %[[TOP]] : i32
// CHECK-NEXT:    %{{.*}} = arith.select %[[ISINF]], %[[INF]], %{{.*}} : i32
// CHECK-NEXT:    %[[ISNAN:.*]] = arith.cmpi ugt, %[[MAG]], %[[TOP]] : i32
// CHECK-NEXT:    %{{.*}} = arith.select %[[ISNAN]], %[[NAN]], %{{.*}} : i32
// CHECK:         %v = arith.bitcast %{{.*}} : i32 to f32
// CHECK:         llvm.store %v, %out : f32, !llvm.ptr<1>
// CHECK:         {sym_name = "from_fp8", {{.*}}mytriton.pointee_types = [i8, f32]}
