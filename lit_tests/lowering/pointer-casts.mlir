// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// An address loaded from a table becomes a global pointer (llvm.inttoptr), one per register;
// a pointer's address is llvm.ptrtoint; a ui64 address is the same i64 in registers.
func.func @table(%t: !tt.ptr<i64>, %u: !tt.ptr<ui64>, %out: !tt.ptr<i64>) {
  %offs = tt.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %ts = tt.splat %t : !tt.ptr<i64> -> tensor<32x!tt.ptr<i64>>
  %pt = tt.addptr %ts, %offs : tensor<32x!tt.ptr<i64>>, tensor<32xi32>
  %addr = tt.load %pt : tensor<32x!tt.ptr<i64>>
  %p = tt.int_to_ptr %addr : tensor<32xi64> -> tensor<32x!tt.ptr<f16>>
  %v = tt.load %p : tensor<32x!tt.ptr<f16>>
  %ua = tt.load %u : !tt.ptr<ui64>
  %q = tt.int_to_ptr %ua : ui64 -> !tt.ptr<f16>
  %w = tt.load %q : !tt.ptr<f16>
  %qs = tt.splat %q : !tt.ptr<f16> -> tensor<32x!tt.ptr<f16>>
  %pq = tt.addptr %qs, %offs : tensor<32x!tt.ptr<f16>>, tensor<32xi32>
  tt.store %pq, %v : tensor<32x!tt.ptr<f16>>
  %back = tt.ptr_to_int %p : tensor<32x!tt.ptr<f16>> -> tensor<32xi64>
  %os = tt.splat %out : !tt.ptr<i64> -> tensor<32x!tt.ptr<i64>>
  %po = tt.addptr %os, %offs : tensor<32x!tt.ptr<i64>>, tensor<32xi32>
  tt.store %po, %back : tensor<32x!tt.ptr<i64>>
  func.return
}
// CHECK:      %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i64
// CHECK-NEXT: %[[P:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<1>
// CHECK-NEXT: %{{.*}} = llvm.load %[[P]] : !llvm.ptr<1> -> f16
// CHECK:      %[[U:.*]] = llvm.load %{{.*}} : !llvm.ptr<1> -> i64
// CHECK-NEXT: %[[Q:.*]] = llvm.inttoptr %[[U]] : i64 to !llvm.ptr<1>
// CHECK-NEXT: %{{.*}} = llvm.load %[[Q]] : !llvm.ptr<1> -> f16
// CHECK:      %[[B:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
// CHECK:      llvm.store %[[B]], %{{.*}} : i64, !llvm.ptr<1>
