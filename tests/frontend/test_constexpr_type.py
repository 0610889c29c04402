"""``x.type`` inside kernels: ``constexpr_type(v)`` for compile-time values (Triton 3.6's
``tl.core.constexpr_type``), the dtype or block type for blocks."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelValueError
from mytriton.language.core import constexpr_type


@pytest.fixture(autouse=True)
def interpret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")


def test_constexpr_type_of_values() -> None:
    assert tl.constexpr(3).type == constexpr_type(3)
    assert constexpr_type(3) != constexpr_type(4)
    assert tl.constexpr_type is constexpr_type
    assert repr(constexpr_type(2)) == "constexpr_type[2]"


@pytest.mark.parametrize("literal", [10, 32.5, (5, 6, 7)])
def test_type_of_a_constexpr_in_a_kernel(literal: object) -> None:
    @triton.jit
    def kernel(X, lit: tl.constexpr):
        alias: tl.constexpr = lit
        tl.static_assert(lit.type == constexpr_type(lit))
        tl.static_assert(alias.type == lit.type)
        x = tl.load(X + tl.arange(0, 4))
        tl.static_assert(x.type == tl.block_type(tl.float32, [4]))
        tl.static_assert(tl.sum(x, 0).type == tl.float32)

    kernel[(1,)](np.zeros(4, np.float32), literal)


def test_type_mismatch_fails_the_static_assert() -> None:
    @triton.jit
    def kernel(lit: tl.constexpr):
        tl.static_assert(lit.type == constexpr_type(1))

    with pytest.raises(KernelValueError, match="static_assert failed"):
        kernel[(1,)](2)
