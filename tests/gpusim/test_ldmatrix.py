"""gpusim's ``nvvm.ldmatrix``: which lane receives which elements (the PTX ISA's description,
``tests/ldmatrix_samples.ldmatrix_reference``), 1, 2 or 4 matrices, plain and transposed, and
the addresses and warps the instruction demands."""

from __future__ import annotations

import numpy as np
import pytest

from mytriton.backends.gpusim import SimulationError, run_lowered
from tests.ldmatrix_samples import ldmatrix_inputs, ldmatrix_module, ldmatrix_reference


@pytest.mark.parametrize("transposed", [False, True], ids=["row", "trans"])
@pytest.mark.parametrize("num", [1, 2, 4])
def test_fragments_match_the_ptx_description(num: int, transposed: bool) -> None:
    src, rows = ldmatrix_inputs(np.random.default_rng(num))
    out = np.zeros(32 * num, np.int32)
    run_lowered(ldmatrix_module(num, transposed), (1, 1, 1), [src, rows, out])
    np.testing.assert_array_equal(out, ldmatrix_reference(src, rows, num, transposed))


def test_plain_and_transposed_differ() -> None:
    """A rule ignoring ``layout`` fails one of the two cases above."""
    src, rows = ldmatrix_inputs(np.random.default_rng(0))
    assert (ldmatrix_reference(src, rows, 4, True) != ldmatrix_reference(src, rows, 4, False)).any()


def test_misaligned_row_address_fails() -> None:
    src, rows = ldmatrix_inputs(np.random.default_rng(0))
    with pytest.raises(SimulationError, match="16-byte shared access at address 2 is misaligned"):
        run_lowered(
            ldmatrix_module(4, False, skew=1),
            (1, 1, 1),
            [src, np.zeros_like(rows), np.zeros(128, np.int32)],
        )


def test_partial_warp_is_rejected() -> None:
    src, rows = ldmatrix_inputs(np.random.default_rng(0))
    with pytest.raises(SimulationError, match="needs a block of whole warps, not 16 threads"):
        run_lowered(
            ldmatrix_module(4, False, block=16), (1, 1, 1), [src, rows, np.zeros(128, np.int32)]
        )
