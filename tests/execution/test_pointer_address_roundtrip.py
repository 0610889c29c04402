"""An integer made a pointer and back is the same integer, whatever it is: Triton's
``test_where[*int32]`` turns random int64 values into ``tl.pi32_t`` pointers, selects among them
with ``tl.where`` and stores them into an int64 array. The interpreter kept such addresses (in
no memory it knows) as int32 element offsets, so any value not a multiple of 4 came back rounded
down (-...889 as -...892). Pointer arithmetic on them still moves by whole elements.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def roundtrip_kernel(cond_ptr, a_ptr, b_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs).to(tl.pi32_t)
    b = tl.load(b_ptr + offs).to(tl.pi32_t)
    chosen = tl.where(tl.load(cond_ptr + offs) != 0, a, b)
    tl.store(out_ptr + offs, chosen)
    tl.store(out_ptr + BLOCK + offs, (a + 3).to(tl.int64))
    tl.store(out_ptr + 2 * BLOCK + offs, (b - 1).to(tl.int64))


def test_arbitrary_addresses_come_back_exactly(run: Any) -> None:
    n = 16
    rng = np.random.default_rng(17)
    a = rng.integers(-(2**62), 2**62, n, dtype=np.int64) | 1  # odd: no int32 starts there
    b = rng.integers(0, 2**40, n, dtype=np.int64) * 4 + rng.integers(0, 4, n)
    cond = (rng.random(n) < 0.5).astype(np.int8)
    out = np.zeros(3 * n, np.int64)
    run(roundtrip_kernel, (1,), cond, a, b, out, BLOCK=n, num_warps=1)
    assert out[:n].tolist() == np.where(cond != 0, a, b).tolist()
    assert out[n : 2 * n].tolist() == (a + 12).tolist()
    assert out[2 * n :].tolist() == (b - 4).tolist()
