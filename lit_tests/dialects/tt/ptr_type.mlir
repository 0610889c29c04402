// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// !tt.ptr<T> points into global memory (address space 1, not printed); !tt.ptr<T, 3> into
// shared memory. Pointees may be any type, pointers included.
func.func @pointers(%a: !tt.ptr<f32>, %b: !tt.ptr<f32, 1>, %c: !tt.ptr<i8, 3>, %d: !tt.ptr<!tt.ptr<f16>>, %e: tensor<4x!tt.ptr<bf16, 3>>, %f: !tt.ptr<i1>) -> !tt.ptr<f32> {
  func.return %b : !tt.ptr<f32>
}
// CHECK: func.func @pointers(%a: !tt.ptr<f32>, %b: !tt.ptr<f32>, %c: !tt.ptr<i8, 3>, %d: !tt.ptr<!tt.ptr<f16>>, %e: tensor<4x!tt.ptr<bf16, 3>>, %f: !tt.ptr<i1>) -> !tt.ptr<f32> {
// CHECK-NEXT: func.return %b : !tt.ptr<f32>

// GENERIC: "func.func"() <{sym_name = "pointers", function_type = (!tt.ptr<f32>, !tt.ptr<f32>, !tt.ptr<i8, 3>, !tt.ptr<!tt.ptr<f16>>, tensor<4x!tt.ptr<bf16, 3>>, !tt.ptr<i1>) -> !tt.ptr<f32>}>

// A `tl.const` parameter's pointers point to constant data: `const` after the address space
// (Triton's const_pointer); the pointer and the loads through it are as any other's.
func.func @const_pointers(%a: !tt.ptr<f32, const>, %s: !tt.ptr<i8, 3, const>, %o: i32) -> f32 {
  %b = tt.addptr %a, %o : !tt.ptr<f32, const>, i32
  %v = tt.load %b : !tt.ptr<f32, const>
  func.return %v : f32
}
// CHECK-LABEL: func.func @const_pointers(%a: !tt.ptr<f32, const>, %s: !tt.ptr<i8, 3, const>, %o: i32) -> f32 {
// CHECK-NEXT:    %b = tt.addptr %a, %o : !tt.ptr<f32, const>, i32
// CHECK-NEXT:    %v = tt.load %b : !tt.ptr<f32, const>

// GENERIC: function_type = (!tt.ptr<f32, const>, !tt.ptr<i8, 3, const>, i32) -> f32
