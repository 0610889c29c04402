// RUN: mytriton-opt %s --split-input-file -p 'tt-assign-layouts{num_warps=2},tt-lower-to-gpu' | filecheck %s

// tt.reduce with a general combine region: the region is inlined on scalar registers at every
// combine (in the thread, after each shuffle, across warps), and each of its N values moves
// through its own shuffles and shared-memory buffer. A region that is not one commutative op
// gets an *ordered* butterfly: the lane of each pair's upper half swaps the operands, so both
// lanes compute combine(lower, upper) and agree bit for bit.

// argmax of 32 elements (one per lane; the second warp replicates the first, so no shared
// memory).
func.func @argmax(%x: !tt.ptr<f32>, %out: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<32x!tt.ptr<f32>>
  %i = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %m, %k = tt.reduce %v, %i {axis = 0 : i32} : tensor<32xf32>, tensor<32xi32> -> f32, i32 {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = tt.cmp gt, %v1, %v2 : f32
    %vr = tt.select %gt, %v1, %v2 : f32
    %ir = tt.select %gt, %i1, %i2 : i32
    tt.reduce.return %vr, %ir : f32, i32
  }
  tt.store %out, %k : !tt.ptr<i32>
  func.return
}
// CHECK-NOT:     memref.global
// CHECK-LABEL: "gpu.func"
// CHECK-DAG:     %[[W:.*]] = arith.constant 32 : i32
// CHECK-DAG:     %[[O1:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[Z:.*]] = arith.constant 0 : i32
// lane bit 1 decides which operand comes first; both values are shuffled
// CHECK:         %[[V0:.*]] = llvm.load %x
// CHECK-NEXT:    %[[BIT:.*]] = arith.andi %{{.*}}, %[[O1]] : i32
// CHECK-NEXT:    %[[UP:.*]] = arith.cmpi ne, %[[BIT]], %[[Z]] : i32
// CHECK-NEXT:    %[[XV:.*]], %{{.*}} = "gpu.shuffle"(%[[V0]], %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
// CHECK-NEXT:    %[[XI:.*]], %{{.*}} = "gpu.shuffle"(%i, %[[O1]], %[[W]]) <{mode = #gpu<shuffle_mode xor>}> : (i32, i32, i32) -> (i32, i1)
// CHECK-NEXT:    %[[LV:.*]] = arith.select %[[UP]], %[[XV]], %[[V0]] : f32
// CHECK-NEXT:    %[[LI:.*]] = arith.select %[[UP]], %[[XI]], %i : i32
// CHECK-NEXT:    %[[HV:.*]] = arith.select %[[UP]], %[[V0]], %[[XV]] : f32
// CHECK-NEXT:    %[[HI:.*]] = arith.select %[[UP]], %i, %[[XI]] : i32
// CHECK-NEXT:    %[[GT1:.*]] = arith.cmpf ogt, %[[LV]], %[[HV]] : f32
// CHECK-NEXT:    arith.select %[[GT1]], %[[LV]], %[[HV]] : f32
// CHECK-NEXT:    arith.select %[[GT1]], %[[LI]], %[[HI]] : i32
// CHECK-COUNT-4: arith.cmpf ogt
// CHECK:         %k = arith.select
// CHECK:         llvm.store %k, %out : i32, !llvm.ptr<1>

// -----

// The same region over 2 warps (256 elements, 4 per thread): the thread's registers first, in
// element order; then one shared buffer per value, the partials combined in warp order. The
// lanes' butterfly swaps no operands there: each lane combines its own partial with the one it
// receives, so the warp's first lane (lane bits zero: the lower lane at every step) holds the
// partial in element order, and it alone writes it.
func.func @argmax_two_warps(%x: !tt.ptr<f32>, %out: !tt.ptr<i32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<256x!tt.ptr<f32>>
  %i = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
  %m, %k = tt.reduce %v, %i {axis = 0 : i32} : tensor<256xf32>, tensor<256xi32> -> f32, i32 {
  ^bb0(%v1: f32, %i1: i32, %v2: f32, %i2: i32):
    %gt = tt.cmp gt, %v1, %v2 : f32
    %vr = tt.select %gt, %v1, %v2 : f32
    %ir = tt.select %gt, %i1, %i2 : i32
    tt.reduce.return %vr, %ir : f32, i32
  }
  tt.store %out, %k : !tt.ptr<i32>
  func.return
}
// CHECK:         "memref.global"() <{sym_name = "smem_0", type = memref<2xf32, 3 : i64>
// CHECK:         "memref.global"() <{sym_name = "smem_1", type = memref<2xi32, 3 : i64>
// CHECK-LABEL: "gpu.func"
// CHECK:         %[[TID:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[LANES:.*]] = arith.constant 31 : i32
// CHECK:         %[[GT0:.*]] = arith.cmpf ogt, %v, %v_1 : f32
// CHECK-NEXT:    %[[VA:.*]] = arith.select %[[GT0]], %v, %v_1 : f32
// CHECK-NEXT:    %[[IA:.*]] = arith.select %[[GT0]], %i, %i_1 : i32
// CHECK-NEXT:    %[[GT1:.*]] = arith.cmpf ogt, %[[VA]], %v_2 : f32
// CHECK:         %[[OWNV:.*]] = arith.select %{{.*}}, %{{.*}}, %v_3 : f32
// CHECK-NEXT:    %[[OWNI:.*]] = arith.select %{{.*}}, %{{.*}}, %i_3 : i32
// CHECK-NEXT:    %[[XV:.*]], %{{.*}} = "gpu.shuffle"(%[[OWNV]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
// CHECK-NEXT:    %[[XI:.*]], %{{.*}} = "gpu.shuffle"(%[[OWNI]], %{{.*}}, %{{.*}}) <{mode = #gpu<shuffle_mode xor>}>
// CHECK-NEXT:    %[[GTX:.*]] = arith.cmpf ogt, %[[OWNV]], %[[XV]] : f32
// CHECK-NEXT:    arith.select %[[GTX]], %[[OWNV]], %[[XV]] : f32
// CHECK-NEXT:    arith.select %[[GTX]], %[[OWNI]], %[[XI]] : i32
// CHECK:         %[[BV:.*]] = memref.get_global @smem_0
// CHECK-NEXT:    %[[BI:.*]] = memref.get_global @smem_1
// CHECK:         %[[LANE:.*]] = arith.andi %[[TID]], %[[LANES]] : i32
// CHECK-NEXT:    %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : i32
// CHECK-NEXT:    scf.if %[[FIRST]] {
// CHECK-NEXT:      memref.store %{{.*}}, %[[BV]][%[[AT:.*]]] : memref<2xf32, 3 : i64>
// CHECK-NEXT:      memref.store %{{.*}}, %[[BI]][%[[AT]]] : memref<2xi32, 3 : i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    "gpu.barrier"() : () -> ()
// CHECK-NEXT:    %[[V0:.*]] = memref.load %[[BV]]
// CHECK-NEXT:    %[[I0:.*]] = memref.load %[[BI]]
// CHECK:         %[[V1:.*]] = memref.load %[[BV]]
// CHECK-NEXT:    %[[I1:.*]] = memref.load %[[BI]]
// CHECK-NEXT:    %[[GT:.*]] = arith.cmpf ogt, %[[V0]], %[[V1]] : f32
// CHECK-NEXT:    %m = arith.select %[[GT]], %[[V0]], %[[V1]] : f32
// CHECK-NEXT:    %k = arith.select %[[GT]], %[[I0]], %[[I1]] : i32
// CHECK-NEXT:    "gpu.barrier"() : () -> ()

// -----

// tl.sum's region (one commutative tt.add) keeps the plain butterfly: no lane-bit selects.
func.func @sum(%x: !tt.ptr<f32>, %out: !tt.ptr<f32>) {
  %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>>
  %v = tt.load %xs : tensor<32x!tt.ptr<f32>>
  %s = tt.reduce %v {axis = 0 : i32} : tensor<32xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %r = tt.add %b, %a : f32
    tt.reduce.return %r : f32
  }
  tt.store %out, %s : !tt.ptr<f32>
  func.return
}
// CHECK-LABEL: "gpu.func"
// CHECK-NOT:     arith.select
// CHECK:         "gpu.shuffle"
// CHECK-NEXT:    arith.addf
// CHECK-NOT:     arith.select
// CHECK-LABEL: sym_name = "sum"
