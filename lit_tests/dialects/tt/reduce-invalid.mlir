// RUN: mytriton-opt %s --split-input-file --parsing-diagnostics --verify-diagnostics | filecheck %s

func.func @axis_out_of_range(%a: tensor<16x32xf32>) {
  %r = tt.reduce %a {axis = 2 : i32} : tensor<16x32xf32> -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = tt.add %x, %y : f32
    tt.reduce.return %s : f32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: axis 2 out of range for a rank-2 block

// -----

func.func @negative_axis(%a: tensor<16xf32>) {
  %r = tt.reduce %a {axis = -1 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    %s = tt.add %x, %y : f32
    tt.reduce.return %s : f32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: axis -1 out of range for a rank-1 block

// -----

func.func @wrong_result(%a: tensor<16x32xf32>) {
  %r = tt.reduce %a {axis = 0 : i32} : tensor<16x32xf32> -> tensor<16xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = tt.maximum %x, %y : f32
    tt.reduce.return %s : f32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: result 0 must be tensor<32xf32>

// -----

func.func @rank1_gives_scalar(%a: tensor<16xf32>) {
  %r = tt.reduce %a {axis = 0 : i32} : tensor<16xf32> -> tensor<1xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = tt.add %x, %y : f32
    tt.reduce.return %s : f32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: result 0 must be f32

// -----

func.func @pointers(%a: tensor<16x!tt.ptr<f32>>) {
  %r = tt.reduce %a {axis = 0 : i32} : tensor<16x!tt.ptr<f32>> -> !tt.ptr<f32> {
  ^bb0(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>):
    tt.reduce.return %x : !tt.ptr<f32>
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: operands must hold integers or floats, got tensor<16x!tt.ptr<f32>>

// -----

func.func @arguments_not_2n(%a: tensor<16xf32>) {
  %r = tt.reduce %a {axis = 0 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%x: f32):
    tt.reduce.return %x : f32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: the combine region must take (f32, f32), got (f32)

// -----

func.func @argument_types(%a: tensor<16xf32>) {
  %r = tt.reduce %a {axis = 0 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%x: f32, %y: i32):
    tt.reduce.return %x : f32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: the combine region must take (f32, f32), got (f32, i32)

// -----

func.func @returns_wrong_type(%a: tensor<16xf32>) {
  %r = tt.reduce %a {axis = 0 : i32} : tensor<16xf32> -> f32 {
  ^bb0(%x: f32, %y: f32):
    %c = tt.cast %x : f32 -> f16
    tt.reduce.return %c : f16
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: the combine region must return (f32), got (f16)

// -----

func.func @operand_shapes(%a: tensor<16xf32>, %b: tensor<32xi32>) {
  %r, %s = tt.reduce %a, %b {axis = 0 : i32} : tensor<16xf32>, tensor<32xi32> -> f32, i32 {
  ^bb0(%x: f32, %i: i32, %y: f32, %j: i32):
    tt.reduce.return %x, %i : f32, i32
  }
  func.return
}
// CHECK: Operation does not verify: tt.reduce: operands must have one shape, got [16] and [32]

// -----

func.func @scan_result(%a: tensor<16xi32>) {
  %r = tt.scan %a {axis = 0 : i32, reverse = false} : tensor<16xi32> -> tensor<16xf32> {
  ^bb0(%x: i32, %y: i32):
    %s = tt.add %x, %y : i32
    tt.scan.return %s : i32
  }
  func.return
}
// CHECK: Operation does not verify: tt.scan: result 0 must be tensor<16xi32>

// -----

func.func @scan_terminator(%a: tensor<16xi32>) {
  %r = tt.scan %a {axis = 0 : i32, reverse = false} : tensor<16xi32> -> tensor<16xi32> {
  ^bb0(%x: i32, %y: i32):
    tt.reduce.return %x : i32
  }
  func.return
}
// CHECK: tt.reduce.return

// -----

func.func @scalar_operand(%a: f32) {
  %r = "tt.reduce"(%a) <{axis = 0 : i32}> ({
  ^bb0(%x: f32, %y: f32):
    "tt.reduce.return"(%x) : (f32) -> ()
  }) : (f32) -> f32
  func.return
}
// CHECK: Operation does not verify: operand 'srcs' at position 0 does not verify:
// CHECK-NEXT: f32 should be of base attribute tensor
