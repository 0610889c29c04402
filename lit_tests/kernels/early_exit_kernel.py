# RUN: %python %s | filecheck %s
"""`return`, `break` and `continue` on runtime paths (early_exit.py): a guard clause puts the rest
of the kernel in the else branch of one scf.if; a `for` that may break is an scf.while carrying
a `broke` flag its condition checks; `continue` guards the rest of the iteration; a helper's
`return` inside a loop is carried out of it as `returned` and `result`."""

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def find_first(x, n, key):
    for i in range(n):
        if tl.load(x + i) == key:
            return i
    return -1


@triton.jit
def early_exit_kernel(x, out, n, key):
    pid = tl.program_id(0)
    if pid >= n:
        return
    total = 0.0
    for i in range(n):
        v = tl.load(x + i)
        if v < 0:
            continue
        if v > 100:
            break
        total += v
    tl.store(out + pid, total)
    tl.store(out + n + pid, find_first(x, n, key))


a = np.zeros(16, np.float32)
print(strip_locations(early_exit_kernel.warmup(a, a, 16, 1.0, grid=(1,)).asm["tt"]))

# CHECK-LABEL: func.func @early_exit_kernel(
# CHECK:         %pid = tt.get_program_id x : i32
# CHECK-NEXT:    %[[PAST:.*]] = tt.cmp ge, %pid, %n : i32
# the guard clause: the rest of the kernel is the else branch (nothing to merge after it)
# CHECK-NEXT:    scf.if %[[PAST]] {
# CHECK-NEXT:    } else {
# the loop that may break: an scf.while over the induction variable, the flag in its condition
# CHECK:           %{{.*}}, %total, %broke = scf.while (%i = %{{.*}}, %total_1 = %{{.*}}, %broke_1 = %{{.*}}) : (i32, f32, i1) -> (i32, f32, i1) {
# CHECK:             %[[GO:.*]] = tt.xor %broke_1, %{{.*}} : i1
# CHECK-NEXT:        %[[IN:.*]] = tt.cmp lt, %i, %n : i32
# CHECK-NEXT:        %[[BOTH:.*]] = tt.and %[[GO]], %[[IN]] : i1
# CHECK-NEXT:        scf.condition(%[[BOTH]]) %i, %total_1, %broke_1 : i32, f32, i1
# CHECK-NEXT:      } do {
# CHECK-NEXT:      ^bb0(%i_1: i32, %total_2: f32, %broke_2: i1):
# CHECK:             %v = tt.load
# `continue`: the rest of the iteration is the else branch
# CHECK:             %broke_3, %continued, %total_3 = scf.if %{{.*}} -> (i1, i1, f32) {
# CHECK:             } else {
# `break`: the rest after it is the else branch of another scf.if
# CHECK:               %broke_4, %total_4 = scf.if %{{.*}} -> (i1, f32) {
# CHECK:                 %total_5 = tt.add %total_2, %v : f32
# CHECK:           %[[NEXT:.*]] = tt.add %i_1, %{{.*}} : i32
# CHECK-NEXT:        scf.yield %[[NEXT]], %total_3, %broke_3 : i32, f32, i1
# CHECK-NEXT:      }
# CHECK:           tt.store %{{.*}}, %total : !tt.ptr<f32>
# the helper returns from inside its loop: `returned` and `result` leave the scf.while
# CHECK:           %{{.*}}, %returned, %result = scf.while
# CHECK:           scf.condition
# CHECK:           %[[FOUND:.*]], %[[AT:.*]] = scf.if %{{.*}} -> (i1, i32) {
# CHECK:           scf.yield %{{.*}}, %[[FOUND]], %[[AT]] : i32, i1, i32
# the helper's `return -1` after the loop is guarded by `returned`
# CHECK:           %[[MORE:.*]] = tt.xor %returned, %{{.*}} : i1
# CHECK-NEXT:      %[[R:.*]] = scf.if %[[MORE]] -> (i32) {
# CHECK:           } else {
# CHECK-NEXT:        scf.yield %result : i32
# CHECK:           tt.store %{{.*}}, %{{.*}} : !tt.ptr<f32>
# CHECK-NEXT:    }
# CHECK-NEXT:    func.return
