"""``enable_reflect_ftz`` (Triton's launch option, default True): ``tl.exp2`` of f32 flushes
subnormal results to zero, as Triton's ``ex2.approx.ftz.f32``; with False, ``ex2.approx.f32``
keeps them. The interpreter computes ``exp2`` exactly, as Triton's interpreter does (NumPy)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def exp2_kernel(data, BLOCK: tl.constexpr):
    ptrs = data + tl.arange(0, BLOCK)
    tl.store(ptrs, tl.math.exp2(tl.load(ptrs)))


@pytest.mark.parametrize("ftz", [None, True, False])
def test_exp2_of_subnormal_results(run: Any, ftz: bool | None) -> None:
    data = np.array([-127.0, -149.0, -126.0, 0.0, 3.0, -1.5, -130.0, 10.0], np.float32)
    want = np.exp2(data.astype(np.float64)).astype(np.float32)
    options = {} if ftz is None else {"enable_reflect_ftz": ftz}
    run(exp2_kernel, (1,), data, BLOCK=8, **options)
    if ftz is not False and run.backend != "interpreter":
        want[np.abs(want) < np.finfo(np.float32).tiny] = 0.0  # flushed
    # the approximation is within 2 ulp of exp2 (PTX's ex2.approx bound)
    np.testing.assert_array_almost_equal_nulp(data, want, nulp=2)
    assert (data[[0, 1, 6]] == 0).all() == (ftz is not False and run.backend != "interpreter")
