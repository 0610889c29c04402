"""A boolean pointer offset, as Triton takes it: zero-extended (``x + (n > 2)`` is ``x + 1``
where ``n > 2``), a scalar or a block (mytriton refused it: "pointer offsets must be
integers, got int1"). Subtracting one stays refused: Triton negates it in int1 (so the
pointer moves up) and its interpreter fails."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def bool_offsets_kernel(x, n):
    offs = tl.arange(0, 8)
    tl.store(x + (offs > n), 1.0)  # a block of offsets 0 and 1
    tl.store(x + 4 + (n > 2), 2.0)  # a scalar one


def test_boolean_pointer_offsets_are_zero_extended(run: Any) -> None:
    x = np.zeros(8, np.float32)
    run(bool_offsets_kernel, (1,), x, 3)
    assert x.tolist() == [1.0, 1.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0]
