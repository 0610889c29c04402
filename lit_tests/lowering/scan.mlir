// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=2},tt-lower-to-gpu' | filecheck %s

// tt.scan: each thread scans its own elements, then a Hillis-Steele scan over the lanes with
// gpu.shuffle up (offsets 1, 2, 4, ...: a lane takes what it receives only when the sender is
// that many positions before it along the axis), then the inclusive value of the lane before
// (one more shuffle by the lane stride) is combined into the thread's elements. Every combine
// is the region inlined on registers, the earlier value first.

// 32 elements over the 32 lanes of a warp (the second warp replicates them): no shared memory.
func.func @cumsum32(%x: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<32x!tt.ptr<f32>>
  %c = tt.scan %v {axis = 0 : i32, reverse = false} : tensor<32xf32> -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = tt.add %a, %b : f32
    tt.scan.return %s : f32
  }
  tt.store %xs, %c : tensor<32x!tt.ptr<f32>>
  func.return
}
// CHECK-NOT:     memref.global
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[L31:.*]] = arith.constant 31 : i32
// CHECK-DAG:     %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[O16:.*]] = arith.constant 16 : i32
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : i32
// CHECK:         %v = llvm.load
// CHECK-NEXT:    %[[LANE:.*]] = arith.andi %{{.*}}, %[[L31]] : i32
// CHECK-NEXT:    %[[GE1:.*]] = arith.cmpi sge, %[[LANE]], %[[O1]] : i32
// CHECK-NEXT:    %[[U1:.*]], %{{.*}} = "gpu.shuffle"(%v, %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode up>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[C1:.*]] = arith.addf %[[U1]], %v : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.select %[[GE1]], %[[C1]], %v : f32
// CHECK-COUNT-3: "gpu.shuffle"
// CHECK:         %[[GE16:.*]] = arith.cmpi sge, %[[LANE]], %[[O16]] : i32
// CHECK-NEXT:    %[[U16:.*]], %{{.*}} = "gpu.shuffle"(%{{.*}}, %[[O16]], %[[W]]) <{mode = #gpu<shuffle_mode up>}>
// CHECK-NEXT:    %[[C16:.*]] = arith.addf %[[U16]], %{{.*}} : f32
// CHECK-NEXT:    %[[INCL:.*]] = arith.select %[[GE16]], %[[C16]], %{{.*}} : f32
// CHECK-NEXT:    %[[HAS:.*]] = arith.cmpi ne, %[[LANE]], %[[Z]] : i32
// CHECK-NEXT:    %[[BEFORE:.*]], %{{.*}} = "gpu.shuffle"(%[[INCL]], %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode up>}>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[BEFORE]], %v : f32
// CHECK-NEXT:    %c = arith.select %[[HAS]], %[[SUM]], %v : f32
// CHECK-NOT:     gpu.barrier
// CHECK:         llvm.store %c, %x

// -----

// reverse: positions count from the end (3 - lane), and lanes receive from above: shuffle down.
func.func @reversed(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<4x!tt.ptr<i32>>
  %c = tt.scan %v {axis = 0 : i32, reverse = true} : tensor<4xi32> -> tensor<4xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = tt.mul %a, %b : i32
    tt.scan.return %s : i32
  }
  tt.store %xs, %c : tensor<4x!tt.ptr<i32>>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[L3:.*]] = arith.constant 3 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK:         %v = llvm.load
// CHECK-NEXT:    %[[LANE:.*]] = arith.andi %{{.*}}, %[[L3]] : i32
// CHECK-NEXT:    %[[POS:.*]] = arith.subi %[[L3]], %[[LANE]] : i32
// CHECK-NEXT:    %[[GE1:.*]] = arith.cmpi sge, %[[POS]], %[[O1]] : i32
// CHECK-NEXT:    %[[D1:.*]], %{{.*}} = "gpu.shuffle"(%v, %[[O1]], %{{.*}}) <{mode = #gpu<shuffle_mode down>}>
// CHECK-NEXT:    %[[P1:.*]] = arith.muli %[[D1]], %v : i32
// CHECK-NEXT:    arith.select %[[GE1]], %[[P1]], %v : i32
// CHECK:         "gpu.shuffle"({{.*}}) <{mode = #gpu<shuffle_mode down>}>
// CHECK:         "gpu.shuffle"({{.*}}) <{mode = #gpu<shuffle_mode down>}>
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    %c = arith.select
// CHECK-NOT:     gpu.barrier
// CHECK-LABEL: sym_name = "reversed"

// -----

// 64 elements over 2 warps: the last lane of each warp stores the warp's total, and after a
// barrier a thread of warp 1 combines warp 0's total into its elements.
func.func @two_warps(%x: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<i32> -> tensor<64x!tt.ptr<i32>>
  %v = tt.load %xs : tensor<64x!tt.ptr<i32>>
  %c = tt.scan %v {axis = 0 : i32, reverse = false} : tensor<64xi32> -> tensor<64xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = tt.add %a, %b : i32
    tt.scan.return %s : i32
  }
  tt.store %xs, %c : tensor<64x!tt.ptr<i32>>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<2xi32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[L31:.*]] = arith.constant 31 : i32
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : i32
// CHECK:         %v = llvm.load
// CHECK-NEXT:    %[[LANE:.*]] = arith.andi %{{.*}}, %[[L31]] : i32
// CHECK-COUNT-6: "gpu.shuffle"
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %{{.*}}, %v : i32
// CHECK-NEXT:    %[[WARPSCAN:.*]] = arith.select %{{.*}}, %[[SUM]], %v : i32
// CHECK-NEXT:    %[[BUF:.*]] = memref.get_global @smem_0
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shrui
// CHECK-NEXT:    %[[WARP:.*]] = arith.andi %[[SHIFTED]]
// CHECK-NEXT:    %[[LAST:.*]] = arith.cmpi eq, %[[LANE]], %[[L31]] : i32
// CHECK-NEXT:    scf.if %[[LAST]] {
// CHECK:           memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<2xi32, 3 : i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[T0:.*]] = memref.load %[[BUF]][%{{.*}}] : memref<2xi32, 3 : i64>
// CHECK-NEXT:    %[[AFTER0:.*]] = arith.cmpi sgt, %[[WARP]], %[[Z]] : i32
// CHECK-NEXT:    %[[CARRIED:.*]] = arith.addi %[[T0]], %[[WARPSCAN]] : i32
// CHECK-NEXT:    %c = arith.select %[[AFTER0]], %[[CARRIED]], %[[WARPSCAN]] : i32
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    llvm.store %c, %x
