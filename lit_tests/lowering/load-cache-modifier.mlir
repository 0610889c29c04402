// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// tl.load/tl.store options reach the llvm.load/llvm.store as attributes: the cache modifier
// (mytriton.cache: the CUDA printer's __ldcg/__stcs...), the eviction policy (mytriton.evict:
// inline PTX with L1::evict_first/last) and volatile (mytriton.volatile: upstream's volatile_
// on the MLIR path). Hinted accesses still move as vectors; a volatile one element by element.
func.func @hints(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %a = tt.load %p {cache = "cg"} : tensor<128x!tt.ptr<f32>>
  %b = tt.load %p {evict = "evict_first"} : tensor<128x!tt.ptr<f32>>
  %c = tt.load %p {isVolatile} : tensor<128x!tt.ptr<f32>>
  %d = tt.load %p {evict = "evict_last"} : tensor<128x!tt.ptr<f32>>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %q = tt.addptr %ys, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %s = tt.add %a, %b : tensor<128xf32>
  %t = tt.add %c, %d : tensor<128xf32>
  %u = tt.add %s, %t : tensor<128xf32>
  tt.store %q, %u {cache = "cs"} : tensor<128x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %{{.*}} = llvm.load %p {mytriton.cache = "cg", alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         %{{.*}} = llvm.load %p {mytriton.evict = "evict_first", alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         %c = llvm.load %p {mytriton.volatile} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %c_1 = llvm.load %p_1 {mytriton.volatile} : !llvm.ptr<1> -> f32
// CHECK:         %{{.*}} = llvm.load %p {mytriton.evict = "evict_last", alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         llvm.store %{{.*}}, %q {mytriton.cache = "cs", alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>

// -----

// Without an option the access is unchanged (no attribute).
func.func @plain(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
  %r = tt.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
  %p = tt.addptr %xs, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
  %a = tt.load %p : tensor<128x!tt.ptr<f32>>
  tt.store %p, %a : tensor<128x!tt.ptr<f32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK:         %{{.*}} = llvm.load %p {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         llvm.store %{{.*}}, %p {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
