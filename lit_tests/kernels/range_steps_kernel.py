# RUN: %python %s > %t.mlir
# RUN: filecheck %s --input-file=%t.mlir
# RUN: mytriton-opt --split-input-file %t.mlir -o %t.opt.mlir
# RUN: filecheck %s --input-file=%t.opt.mlir
# RUN: %{same_ir} %t.mlir %t.opt.mlir
"""Issue 10's normalised loops: a runtime step counts k = 0 .. trips-1 by 1, trips being
len(range(0, n, step)) in unsigned arithmetic (0 when the range is empty or step == 0), counted
by an int64 (an int32 loop may run 2**32 - 1 times), and the body computes i = 0 + k * step in
int64, wrapped back to int32; a negative constant step runs an upward scf.for over [0, n)
and the body mirrors it, j = n - iv + 0 (the adds of 0 fold away)."""

import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def range_steps_kernel(x, out, n, step):
    acc = 0.0
    for i in tl.range(0, n, step):
        acc += tl.load(x + i)
    for j in range(n, 0, -4):
        acc += tl.load(x + j)
    tl.store(out, acc)


a = np.zeros(64, np.float32)
compiled = range_steps_kernel.warmup(a, a, 60, 3, grid=(1,))
print(strip_locations(compiled.asm[sys.argv[1] if len(sys.argv) > 1 else "tt-opt"]))

# CHECK-LABEL: func.func @range_steps_kernel(
# CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
# CHECK-NEXT:    %[[UP:.*]] = tt.cmp gt, %step, %[[ZERO]] : i32
# CHECK-NEXT:    %[[DOWN:.*]] = tt.cmp lt, %step, %[[ZERO]] : i32
# CHECK-NEXT:    %[[HI:.*]] = tt.select %[[UP]], %n, %[[ZERO]] : i32
# CHECK-NEXT:    %[[LO:.*]] = tt.select %[[UP]], %[[ZERO]], %n : i32
# CHECK-NEXT:    %[[NONZERO:.*]] = tt.or %[[UP]], %[[DOWN]] : i1
# CHECK-NEXT:    %[[WIDE:.*]] = tt.cmp gt, %[[HI]], %[[LO]] : i32
# CHECK-NEXT:    %[[NONEMPTY:.*]] = tt.and %[[NONZERO]], %[[WIDE]] : i1
# CHECK-NEXT:    %[[NEG:.*]] = tt.neg %step : i32
# CHECK-NEXT:    %[[MAG:.*]] = tt.select %[[UP]], %step, %[[NEG]] : i32
# CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
# CHECK-NEXT:    %[[DIVISOR:.*]] = tt.select %[[NONEMPTY]], %[[MAG]], %[[ONE]] : i32
# CHECK-NEXT:    %[[SPAN:.*]] = tt.sub %[[HI]], %[[LO]] : i32
# CHECK-NEXT:    %[[USPAN:.*]] = tt.bitcast %[[SPAN]] : i32 -> ui32
# CHECK-NEXT:    %[[UONE:.*]] = tt.constant 1 : ui32
# CHECK-NEXT:    %[[LAST:.*]] = tt.sub %[[USPAN]], %[[UONE]] : ui32
# CHECK-NEXT:    %[[UDIV:.*]] = tt.bitcast %[[DIVISOR]] : i32 -> ui32
# CHECK-NEXT:    %[[Q:.*]] = tt.div %[[LAST]], %[[UDIV]] : ui32
# CHECK-NEXT:    %[[UTRIPS:.*]] = tt.add %[[Q]], %[[UONE]] : ui32
# CHECK-NEXT:    %[[TRIPS:.*]] = tt.cast %[[UTRIPS]] : ui32 -> i64
# CHECK-NEXT:    %[[ZERO64:.*]] = arith.constant 0 : i64
# CHECK-NEXT:    %[[N:.*]] = tt.select %[[NONEMPTY]], %[[TRIPS]], %[[ZERO64]] : i64
# CHECK-NEXT:    %[[STEP64:.*]] = tt.cast %step : i32 -> i64
# CHECK-NEXT:    %[[ONE64:.*]] = arith.constant 1 : i64
# CHECK:         %acc = scf.for %i_count = %[[ZERO64]] to %[[N]] step %[[ONE64]] iter_args(%acc_1 = %{{.*}}) -> (f32) : i64 {
# CHECK-NEXT:      %[[K:.*]] = tt.mul %i_count, %[[STEP64]] : i64
# CHECK-NEXT:      %i = tt.cast %[[K]] : i64 -> i32
# CHECK-NEXT:      tt.addptr %x, %i : !tt.ptr<f32>, i32
# CHECK:           scf.yield
# CHECK-NEXT:    }
# CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : i32
# CHECK-NEXT:    %acc_3 = scf.for %j_count = %[[ZERO]] to %n step %[[FOUR]] iter_args(%acc_4 = %acc) -> (f32) : i32 {
# CHECK-NEXT:      %j = tt.sub %n, %j_count : i32
# CHECK-NEXT:      tt.addptr %x, %j : !tt.ptr<f32>, i32
# CHECK:         tt.store %out, %acc_3 : !tt.ptr<f32>
