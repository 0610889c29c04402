// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s

// The tt_shape ops (trans, reshape, join, split, cat, gather) move elements through a fresh
// shared buffer: every thread stores what it owns at its row-major position, a barrier, every
// thread loads each element of its result from the position it comes from, a barrier.

// tt.trans of a 2x4 block (threadsPerWarp = [2, 16]: the row is thread id bit 4, the column
// bits 0-1) into 4x2 (threadsPerWarp = [4, 8]: the row is bits 3-4, the column bit 0): the
// result element (r, c) is source position r + 4 * c.
func.func @trans(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<2x4x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<2x4x!tt.ptr<f32>>
  %t = tt.trans %v {order = array<i32: 1, 0>} : tensor<2x4xf32> -> tensor<4x2xf32>
  %ys = tt.splat %y : !tt.ptr<f32> -> tensor<4x2x!tt.ptr<f32>>
  tt.store %ys, %t : tensor<4x2x!tt.ptr<f32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<8xf32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[C4:.*]] = arith.constant 4 : i32
// CHECK:         %[[ROW4:.*]] = arith.muli %{{.*}}, %[[C4]] : i32
// CHECK-NEXT:    %[[SRC:.*]] = arith.addi %[[ROW4]], %{{.*}} : i32
// CHECK:         %[[COL4:.*]] = arith.muli %{{.*}}, %[[C4]] : i32
// CHECK-NEXT:    %[[DST:.*]] = arith.addi %{{.*}}, %[[COL4]] : i32
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[BUF:.*]] = memref.get_global @smem_0 : memref<8xf32, 3 : i64>
// CHECK-NEXT:    %[[SRCI:.*]] = arith.index_cast %[[SRC]] : i32 to index
// CHECK-NEXT:    memref.store %v, %[[BUF]][%[[SRCI]]] : memref<8xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[DSTI:.*]] = arith.index_cast %[[DST]] : i32 to index
// CHECK-NEXT:    %t = memref.load %[[BUF]][%[[DSTI]]] : memref<8xf32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()

// -----

// tt.split loads both halves (positions 2 * i and 2 * i + 1) from one buffer (its loaded operand
// holds the pairs in two lanes). tt.join gives its result the paired layout of its operands (both
// elements of a pair in one thread): no data moves, its registers are theirs (%b, then %a).
func.func @split_join(%x: !tt.ptr<f16>) {
  %xs = tt.splat %x : !tt.ptr<f16> -> tensor<4x2x!tt.ptr<f16>>
  %v = tt.load %xs : tensor<4x2x!tt.ptr<f16>>
  %a, %b = tt.split %v : tensor<4x2xf16> -> tensor<4xf16>, tensor<4xf16>
  %j = tt.join %b, %a : tensor<4xf16>, tensor<4xf16> -> tensor<4x2xf16>
  tt.store %xs, %j : tensor<4x2x!tt.ptr<f16>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<8xf16, 3 : i64>
// CHECK-NOT:     "memref.global"()
// CHECK-LABEL: "gpu.func"
// CHECK:         %v = llvm.load %x : !llvm.ptr<1> -> f16
// CHECK-NEXT:    %[[S:.*]] = memref.get_global @smem_0 : memref<8xf16, 3 : i64>
// CHECK:         memref.store %v, %[[S]][%{{.*}}] : memref<8xf16, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[AT:.*]] = arith.index_cast %[[EVEN:.*]] : i32 to index
// CHECK-NEXT:    %a = memref.load %[[S]][%[[AT]]] : memref<8xf16, 3 : i64>
// CHECK-NEXT:    %[[ODD:.*]] = arith.addi %[[EVEN]], %{{.*}} : i32
// CHECK-NEXT:    %[[BT:.*]] = arith.index_cast %[[ODD]] : i32 to index
// CHECK-NEXT:    %b = memref.load %[[S]][%[[BT]]] : memref<8xf16, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    scf.if %owner {
// CHECK-NEXT:      llvm.store %b, %x : f16, !llvm.ptr<1>
// CHECK-NEXT:      llvm.store %a, %x : f16, !llvm.ptr<1>
// CHECK-NEXT:    }

// -----

// tt.gather adds the index (sign-extended to i32) to the position; booleans are staged as i32.
func.func @gather(%x: !tt.ptr<i1>, %i: !tt.ptr<i8>) {
  %xs = tt.splat %x : !tt.ptr<i1> -> tensor<8x!tt.ptr<i1>>
  %v = tt.load %xs : tensor<8x!tt.ptr<i1>>
  %is = tt.splat %i : !tt.ptr<i8> -> tensor<8x!tt.ptr<i8>>
  %idx = tt.load %is : tensor<8x!tt.ptr<i8>>
  %g = tt.gather %v[%idx] {axis = 0 : i32} : tensor<8xi1>, tensor<8xi8> -> tensor<8xi1>
  tt.store %xs, %g : tensor<8x!tt.ptr<i1>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<8xi32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %idx = llvm.load %i : !llvm.ptr<1> -> i8
// CHECK-NEXT:    %[[I:.*]] = arith.extsi %idx : i8 to i32
// CHECK-NEXT:    %[[BUF:.*]] = memref.get_global @smem_0 : memref<8xi32, 3 : i64>
// CHECK-NEXT:    %[[W:.*]] = arith.extui %v : i1 to i32
// CHECK:         memref.store %[[W]], %[[BUF]][%{{.*}}] : memref<8xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %{{.*}}, %[[I]] : i32
// CHECK-NEXT:    %[[ATI:.*]] = arith.index_cast %[[AT]] : i32 to index
// CHECK-NEXT:    %[[R:.*]] = memref.load %[[BUF]][%[[ATI]]] : memref<8xi32, 3 : i64>
// CHECK-NEXT:    %g = arith.cmpi ne, %[[R]], %{{.*}} : i32
// CHECK-NEXT:    "gpu.barrier"() : () -> ()

// -----

// tt.cat stores both operands (the second after the first) and keeps row-major positions, as
// tt.reshape does (in the same buffer).
func.func @cat_reshape(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<4x!tt.ptr<i32>>
  %c = tt.cat %v, %v : tensor<4xi32>, tensor<4xi32> -> tensor<8xi32>
  %r = tt.reshape %c : tensor<8xi32> -> tensor<2x4xi32>
  %ys = tt.splat %x : !tt.ptr<i32> -> tensor<2x4x!tt.ptr<i32>>
  tt.store %ys, %r : tensor<2x4x!tt.ptr<i32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<8xi32, 3 : i64>
// CHECK-NOT:     "memref.global"()
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[C:.*]] = memref.get_global @smem_0 : memref<8xi32, 3 : i64>
// CHECK:         memref.store %v, %[[C]][%{{.*}}] : memref<8xi32, 3 : i64>
// CHECK:         memref.store %v, %[[C]][%{{.*}}] : memref<8xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK:         %c = memref.load %[[C]][%{{.*}}] : memref<8xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %{{.*}} = memref.get_global @smem_0 : memref<8xi32, 3 : i64>
// CHECK:         %r = memref.load %{{.*}}[%{{.*}}] : memref<8xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()

// -----

// tt.histogram stages its operand, then each thread counts the operand values equal to each of its
// bins (here one bin per thread: its coordinate) in a loop over the staged elements.
func.func @histogram(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<64x!tt.ptr<i32>>
  %h = tt.histogram %v : tensor<64xi32> -> tensor<32xi32>
  %hs = tt.splat %x : !tt.ptr<i32> -> tensor<32x!tt.ptr<i32>>
  tt.store %hs, %h : tensor<32x!tt.ptr<i32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<64xi32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[C31:.*]] = arith.constant 31 : i32
// CHECK:         arith.constant 32 : i32
// CHECK:         %[[BIN:.*]] = arith.andi %{{.*}}, %[[C31]] : i32
// CHECK:         %[[BUF:.*]] = memref.get_global @smem_0 : memref<64xi32, 3 : i64>
// CHECK:         memref.store %v, %[[BUF]][%{{.*}}] : memref<64xi32, 3 : i64>
// CHECK:         memref.store %v_1, %[[BUF]][%{{.*}}] : memref<64xi32, 3 : i64>
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %h = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[N:.*]] = %{{.*}}) -> (i32) : i32 {
// CHECK-NEXT:      %[[II:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK-NEXT:      %[[E:.*]] = memref.load %[[BUF]][%[[II]]] : memref<64xi32, 3 : i64>
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpi eq, %[[E]], %[[BIN]] : i32
// CHECK-NEXT:      %[[ONE:.*]] = arith.extui %[[EQ]] : i1 to i32
// CHECK-NEXT:      %[[M:.*]] = arith.addi %[[N]], %[[ONE]] : i32
// CHECK-NEXT:      scf.yield %[[M]] : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
