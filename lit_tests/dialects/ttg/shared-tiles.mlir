// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s

// Shared tiles and the asynchronous copies that fill them (ttg_shared): a stacked buffer, one
// tile of it, a masked and an unmasked copy, a group, a wait, a read into registers and a
// buffer made from a block.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
#shared = #ttg.shared<{order = [1, 0], pad = 8}>
func.func @tiles(%p: tensor<64x16x!tt.ptr<f16>, #blocked>, %m: tensor<64x16xi1, #blocked>, %i: i32) {
  %buf = ttg.local_alloc : () -> !ttg.memdesc<3x64x16xf16, #shared>
  %tile = ttg.memdesc_index %buf, %i : !ttg.memdesc<3x64x16xf16, #shared> -> !ttg.memdesc<64x16xf16, #shared>
  ttg.async_copy_global_to_local %p, %tile mask %m : tensor<64x16x!tt.ptr<f16>, #blocked>, !ttg.memdesc<64x16xf16, #shared>, tensor<64x16xi1, #blocked>
  ttg.async_copy_global_to_local %p, %tile : tensor<64x16x!tt.ptr<f16>, #blocked>, !ttg.memdesc<64x16xf16, #shared>
  ttg.async_commit_group
  ttg.async_wait {num = 1 : i32}
  %v = ttg.local_load %tile : !ttg.memdesc<64x16xf16, #shared> -> tensor<64x16xf16, #blocked>
  %held = ttg.local_alloc %v : (tensor<64x16xf16, #blocked>) -> !ttg.memdesc<64x16xf16, #shared>
  func.return
}
// CHECK-LABEL: func.func @tiles(
// CHECK-NEXT:    %buf = ttg.local_alloc : () -> !ttg.memdesc<3x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
// CHECK-NEXT:    %tile = ttg.memdesc_index %buf, %i : !ttg.memdesc<3x64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>> -> !ttg.memdesc<64x16xf16, #ttg.shared<{order = [1, 0], pad = 8}>>
// CHECK-NEXT:    ttg.async_copy_global_to_local %p, %tile mask %m : tensor<64x16x!tt.ptr<f16>, {{.*}}>, !ttg.memdesc<64x16xf16, {{.*}}>, tensor<64x16xi1, {{.*}}>
// CHECK-NEXT:    ttg.async_copy_global_to_local %p, %tile : tensor<64x16x!tt.ptr<f16>, {{.*}}>, !ttg.memdesc<64x16xf16, {{.*}}>
// CHECK-NEXT:    ttg.async_commit_group
// CHECK-NEXT:    ttg.async_wait {num = 1 : i32}
// CHECK-NEXT:    %v = ttg.local_load %tile : !ttg.memdesc<64x16xf16, {{.*}}> -> tensor<64x16xf16, {{.*}}>
// CHECK-NEXT:    %held = ttg.local_alloc %v : (tensor<64x16xf16, {{.*}}>) -> !ttg.memdesc<64x16xf16, {{.*}}>
