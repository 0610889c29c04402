// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=4},tt-lower-to-gpu' | filecheck %s
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=1},tt-lower-to-gpu' | filecheck %s --check-prefix=W1
// RUN: mytriton-opt %s -p 'tt-assign-layouts{num_warps=8},tt-lower-to-gpu' | filecheck %s --check-prefix=W8

// The kernel becomes the single gpu.func of a gpu.module named "kernels" in a
// gpu.container_module (docs/gpu-ir.md): pointers are bare !llvm.ptr<1> (their element types
// listed, in order, in mytriton.pointee_types), i32 and f32 parameters keep their types, the
// kernel is marked with the discardable gpu.kernel attribute and a 1-D block of
// num_warps * 32 threads (known_block_size).
func.func @signature(%x: !tt.ptr<f32>, %n: i32, %y: !tt.ptr<i32>, %alpha: f32, %m: !tt.ptr<i1>) {
  func.return
}
// CHECK:       builtin.module attributes {gpu.container_module} {
// CHECK-NEXT:    "gpu.module"() <{sym_name = "kernels"}> ({
// CHECK-NEXT:      "gpu.func"() <{function_type = (!llvm.ptr<1>, i32, !llvm.ptr<1>, f32, !llvm.ptr<1>) -> ()}> ({
// CHECK-NEXT:      ^bb0(%x: !llvm.ptr<1>, %n: i32, %y: !llvm.ptr<1>, %alpha: f32, %m: !llvm.ptr<1>):
// func.return becomes gpu.return.
// CHECK-NEXT:        "gpu.return"() : () -> ()
// CHECK-NEXT:      }) {sym_name = "signature", gpu.kernel, known_block_size = array<i32: 128, 1, 1>, mytriton.pointee_types = [f32, i32, i1]} : () -> ()
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:  }

// W1:          }) {sym_name = "signature", gpu.kernel, known_block_size = array<i32: 32, 1, 1>, mytriton.pointee_types = [f32, i32, i1]} : () -> ()
// W8:          }) {sym_name = "signature", gpu.kernel, known_block_size = array<i32: 256, 1, 1>, mytriton.pointee_types = [f32, i32, i1]} : () -> ()
