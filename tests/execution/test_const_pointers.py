"""``tl.const`` parameters (Triton's ``test_const``): pointers to constant data. Loads through
them run; a store or atomic through one, or through pointers made from one, is a typed error at
the line; constness is part of the type, so a value that is const on one runtime path and not
on the other is an error (Triton's words: "Mismatched type for", "Ternary expression with
dynamic condition has inconsistent type", "Inconsistent return types")."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError

pytestmark = pytest.mark.execution


@triton.jit
def pick(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a


@triton.jit(do_not_specialize=["choose"])
def const_kernel(x: tl.const, out, c_out: tl.const, choose, n, CASE: tl.constexpr):
    offs = tl.arange(0, 64)
    mask = offs < n
    val = tl.load(x + offs, mask=mask)
    tl.static_assert(x.dtype == tl.pointer_type(tl.float32, const=True))
    tl.static_assert(x.dtype != tl.pointer_type(tl.float32))
    if CASE == "out":
        dst = out
    elif CASE == "const_out":
        dst = c_out
    elif CASE == "if":
        if choose:  # noqa: SIM108 (a runtime if, not a conditional expression)
            dst = c_out
        else:
            dst = out
    elif CASE == "ternary":
        dst = c_out if choose else out
    elif CASE == "call":
        dst = pick(out, c_out, choose)
    elif CASE == "atomic":
        tl.atomic_add(c_out + offs, val, mask=mask)
        dst = out
    else:
        dst = out if CASE == "static_pick" else c_out  # a compile-time choice: no merge
    tl.store(dst + offs, val, mask=mask)


def test_loads_through_const_pointers_run(run: Any) -> None:
    x = np.arange(64, dtype=np.float32) * 0.5
    out = np.zeros(64, np.float32)
    compiled = run(const_kernel, (1,), x, out, out, 0, 50, CASE="out")
    np.testing.assert_array_equal(out[:50], x[:50])
    np.testing.assert_array_equal(out[50:], 0)
    assert "!tt.ptr<f32, const>" in compiled.asm["tt"]


def test_a_static_choice_of_the_writable_pointer_runs(run: Any) -> None:
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(64, np.float32)
    run(const_kernel, (1,), x, out, out, 1, 64, CASE="static_pick")
    np.testing.assert_array_equal(out, x)


ERRORS = {
    "const_out": ("Cannot store to a constant pointer", "tl.store(dst + offs"),
    "static_const": ("Cannot store to a constant pointer", "tl.store(dst + offs"),
    "atomic": ("Cannot store to a constant pointer", "tl.atomic_add(c_out"),
    "if": ("Mismatched type for dst", "if choose:"),
    "ternary": ("Ternary expression with dynamic condition has inconsistent type", "if choose"),
    "call": ("Inconsistent return types", "return"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_what_const_forbids_is_a_typed_error_at_the_line(run: Any, case: str) -> None:
    words, code = ERRORS[case]
    x, out = np.zeros(64, np.float32), np.zeros(64, np.float32)
    with pytest.raises(KernelTypeError, match=words) as info:
        run(const_kernel, (1,), x, out, out, 1, 64, CASE=case)
    assert info.value.error_message.startswith(words)  # Triton's attribute
    assert info.value.loc is not None and info.value.loc.file == __file__
    assert code in str(info.value)


@pytest.mark.parametrize("annotation", ["const", "tl.const", "const *fp32", "*kfp32"])
def test_triton_spellings_of_const(annotation: str) -> None:
    """The annotation as Triton reads it: the class, or strings naming it."""

    def k(x, out):
        tl.store(x, tl.load(out))

    k.__annotations__["x"] = tl.const if annotation == "const" else annotation
    kernel = triton.jit(k)
    with pytest.raises(KernelTypeError, match="Cannot store to a constant pointer"):
        kernel.warmup(np.zeros(1, np.float32), np.zeros(1, np.float32), grid=(1,))
