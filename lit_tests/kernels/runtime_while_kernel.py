# RUN: %python %s | filecheck %s
"""A runtime `while`: one scf.while whose before region computes the condition from the carried
values (Triton's shape) and whose after region is the body yielding them."""

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.stages import strip_locations


@triton.jit
def search_kernel(sorted_ptr, n, keys, out):
    pid = tl.program_id(0)
    key = tl.load(keys + pid)
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if tl.load(sorted_ptr + mid) < key:
            lo = mid + 1
        else:
            hi = mid
    tl.store(out + pid, lo)


a = np.zeros(16, np.int32)
print(strip_locations(search_kernel.warmup(a, 16, a, a, grid=(1,)).asm["tt"]))

# CHECK-LABEL: func.func @search_kernel(
# CHECK:         %key = tt.load
# CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
# CHECK-NEXT:    %hi, %lo = scf.while (%[[HI:.*]] = %n, %[[LO:.*]] = %[[ZERO]]) : (i32, i32) -> (i32, i32) {
# CHECK-NEXT:      %[[GO:.*]] = tt.cmp lt, %[[LO]], %[[HI]] : i32
# CHECK-NEXT:      scf.condition(%[[GO]]) %[[HI]], %[[LO]] : i32, i32
# CHECK-NEXT:    } do {
# CHECK-NEXT:    ^bb0(%[[HI2:.*]]: i32, %[[LO2:.*]]: i32):
# CHECK:           %mid = tt.div
# CHECK:           %[[NH:.*]], %[[NL:.*]] = scf.if %{{.*}} -> (i32, i32) {
# CHECK:           scf.yield %[[NH]], %[[NL]] : i32, i32
# CHECK-NEXT:    }
# CHECK-NEXT:    %[[P:.*]] = tt.addptr %out, %pid
# CHECK-NEXT:    tt.store %[[P]], %lo : !tt.ptr<i32>
