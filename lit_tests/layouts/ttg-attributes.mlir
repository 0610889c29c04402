// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The `ttg` layout attributes as tensor encodings and `ttg.convert_layout`: printed as parsed,
// re-parseable, the same through the generic form. Aliases (`#blocked = ...`), as Triton and
// `asm["ttg"]` print them, parse too and are expanded when printed.

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#slice = #ttg.slice<{dim = 1, parent = #blocked}>

func.func @layouts(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #blocked>
  %b = tt.load %a : tensor<8x64x!tt.ptr<f32>, #blocked>
  %c = tt.reduce %b {axis = 1 : i32} : tensor<8x64xf32, #blocked> -> tensor<8xf32, #slice> {
  ^bb0(%c_lhs: f32, %c_rhs: f32):
    %c_acc = tt.add %c_lhs, %c_rhs : f32
    tt.reduce.return %c_acc : f32
  }
  %d = ttg.convert_layout %c : tensor<8xf32, #slice> -> tensor<8xf32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
  func.return
}
// CHECK-LABEL: func.func @layouts(%x: !tt.ptr<f32>) {
// CHECK-NEXT:    %a = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NEXT:    %b = tt.load %a : tensor<8x64x!tt.ptr<f32>, #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// CHECK-NEXT:    %c = tt.reduce %b {axis = 1 : i32} : tensor<8x64xf32, #ttg.blocked<{{.*}}>> -> tensor<8xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>}>> {
// CHECK-NEXT:    ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %{{.*}} = tt.add %{{.*}}, %{{.*}} : f32
// CHECK-NEXT:      tt.reduce.return %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %d = ttg.convert_layout %c : tensor<8xf32, #ttg.slice<{{.*}}>> -> tensor<8xf32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>
// CHECK-NEXT:    func.return

// GENERIC: %d = "ttg.convert_layout"(%c) : (tensor<8xf32, #ttg.slice<{dim = 1, parent = #ttg.blocked<{{.*}}>}>>) -> tensor<8xf32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>>

// Slices nest (a rank-3 layout without dims 2 then 0); rank-3 orders are any permutation.
func.func @nested(%x: !tt.ptr<f32>) {
  %a = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 4, 2], warpsPerCTA = [1, 2, 1], order = [0, 2, 1]}>}>}>>
  func.return
}
// CHECK-LABEL: func.func @nested
// CHECK-NEXT:    tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>, #ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [4, 4, 2], warpsPerCTA = [1, 2, 1], order = [0, 2, 1]}>}>}>>

// The shared-memory staging layouts of tt.dot operands, as discardable attributes: `pad`
// defaults to 0 and is always printed.
func.func @shared(%a: !tt.ptr<f32>) {
  %as = tt.splat %a : !tt.ptr<f32> -> tensor<4x4x!tt.ptr<f32>>
  %av = tt.load %as : tensor<4x4x!tt.ptr<f32>>
  %d = tt.dot %av, %av, %av {ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0]}>} : tensor<4x4xf32> * tensor<4x4xf32> -> tensor<4x4xf32>
  func.return
}
// CHECK-LABEL: func.func @shared
// CHECK:         tt.dot %av, %av, %av {ttg.lhs_shared = #ttg.shared<{order = [0, 1], pad = 4}>, ttg.rhs_shared = #ttg.shared<{order = [1, 0], pad = 0}>} : tensor<4x4xf32> * tensor<4x4xf32> -> tensor<4x4xf32>
