// RUN: mytriton-opt %s | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | mytriton-opt | filecheck %s
// RUN: mytriton-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

func.func @nums() -> (i32, i32, i32) {
  %x = tt.get_num_programs x : i32
  %y = tt.get_num_programs y : i32
  %z = tt.get_num_programs z : i32
  func.return %x, %y, %z : i32, i32, i32
}
// CHECK-LABEL: func.func @nums() -> (i32, i32, i32)
// CHECK-NEXT:    %x = tt.get_num_programs x : i32
// CHECK-NEXT:    %y = tt.get_num_programs y : i32
// CHECK-NEXT:    %z = tt.get_num_programs z : i32
// CHECK-NEXT:    func.return %x, %y, %z : i32, i32, i32

// GENERIC: %x = "tt.get_num_programs"() <{axis = #tt<axis x>}> : () -> i32
// GENERIC: %y = "tt.get_num_programs"() <{axis = #tt<axis y>}> : () -> i32
// GENERIC: %z = "tt.get_num_programs"() <{axis = #tt<axis z>}> : () -> i32
