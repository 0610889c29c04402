// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// upstream's custom forms (mlir-opt-22 prints the shape without #nvvm.shape; both parse)
func.func @forms(%f: !llvm.struct<(f32, f32, f32, f32)>, %i: !llvm.struct<(i32, i32, i32, i32)>, %da: i64, %db: i64) {
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  nvvm.wgmma.fence.aligned
  %0 = nvvm.wgmma.mma_async %da, %db, %f, #nvvm.shape<m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %1 = nvvm.wgmma.mma_async %da, %db, %0, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %2 = nvvm.wgmma.mma_async %da, %db, %1, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %3 = nvvm.wgmma.mma_async %da, %db, %i, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <wrapped>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
  %4 = nvvm.wgmma.mma_async %da, %db, %2, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %5 = nvvm.wgmma.mma_async %da, %db, %4, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  %6 = nvvm.wgmma.mma_async %da, %db, %5, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 1
  nvvm.wgmma.wait.group.sync.aligned 0
  func.return
}
// CHECK-LABEL: func.func @forms(
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT:    nvvm.wgmma.fence.aligned
// CHECK-NEXT:    %0 = nvvm.wgmma.mma_async %da, %db, %f, <m = 64, n = 8, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %1 = nvvm.wgmma.mma_async %da, %db, %0, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %2 = nvvm.wgmma.mma_async %da, %db, %1, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %3 = nvvm.wgmma.mma_async %da, %db, %i, <m = 64, n = 8, k = 32>, D[<s32>, <one>, <wrapped>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>] : !llvm.struct<(i32, i32, i32, i32)> -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NEXT:    %4 = nvvm.wgmma.mma_async %da, %db, %2, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %5 = nvvm.wgmma.mma_async %da, %db, %4, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e5m2>, <one>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %6 = nvvm.wgmma.mma_async %da, %db, %5, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    func.return

// GENERIC-LABEL: "func.func"() <{sym_name = "forms"
// GENERIC: "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}> : () -> ()
// GENERIC: "nvvm.wgmma.fence.aligned"() : () -> ()
// GENERIC: %0 = "nvvm.wgmma.mma_async"(%f, %da, %db) <{{{.*}}shape = #nvvm.shape<m = 64, n = 8, k = 16>{{.*}}satfinite = #nvvm.mma_int_overflow<wrapped>}> : (!llvm.struct<(f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32)>
// GENERIC: "nvvm.wgmma.commit.group.sync.aligned"() : () -> ()
// GENERIC: "nvvm.wgmma.wait.group.sync.aligned"() <{group = 1 : i64}> : () -> ()

// the generic form mlir-opt-22 prints (its properties in alphabetical order)
func.func @upstream_generic(%c: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, %da: i64, %db: i64) {
  %0 = "nvvm.wgmma.mma_async"(%c, %da, %db) <{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, satfinite = #nvvm.mma_int_overflow<wrapped>, scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 16, k = 16>, typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>, typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>, i64, i64) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}> : () -> ()
  "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}> : () -> ()
  func.return
}
// CHECK-LABEL: func.func @upstream_generic(
// CHECK-NEXT:    %0 = nvvm.wgmma.mma_async %da, %db, %c, <m = 64, n = 16, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:    nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT:    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
