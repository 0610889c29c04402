"""A number assigned to a name is an int32/fp32 scalar, not an exact Python value (Triton's
``visit_Assign``): arithmetic on it wraps and rounds as the kernel's arithmetic does, where
mytriton computed it exactly at compile time and stored another result (Triton's
``test_constexpr_assignment`` found the rule)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def assigned_kernel(out_ptr, SCALE: tl.constexpr):
    a = 65536
    wrapped = a * a // SCALE  # int32: a * a wraps to 0
    kept: tl.constexpr = 65536
    exact = kept * kept // SCALE  # compile-time: exact
    third = 1.0 / 3.0
    tl.store(out_ptr, wrapped)
    tl.store(out_ptr + 1, exact)
    tl.store(out_ptr + 2, (third * 3e6).to(tl.int32))


def test_numbers_assigned_to_names_compute_in_kernel_types(run: Any) -> None:
    out = np.zeros(3, np.int64)
    run(assigned_kernel, (1,), out, SCALE=65536)
    third = np.float32(np.float32(1.0) / np.float32(3.0)) * np.float32(3e6)
    np.testing.assert_array_equal(out, [0, 65536, int(third)])
