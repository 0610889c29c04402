"""Where Triton's words differ from ours, the cause of the error carries Triton's exact ones
(``test_compile_errors.py`` compares them), and Triton's compile-time warnings and the rules of
its NVIDIA backend (fp8e4b15 on Hopper) hold for the cuda and mlir backends, checked
here by compiling for a CUDA target (no GPU needed up to the CUDA C++)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.compat.compiler import ASTSource
from mytriton.compat.compiler import compile as triton_compile
from mytriton.errors import CompilationError, ConstexprError, KernelValueError
from mytriton.runtime.driver import GPUTarget
from tests.frontend.util import marked_line


@pytest.fixture(autouse=True)
def _fresh_cache(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Warnings come from a compile, not from a cache hit."""
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path))


def _compile(kernel: Any, capability: int = 90, **constexprs: Any) -> Any:
    signature = dict.fromkeys(constexprs, "constexpr")
    src = ASTSource(fn=kernel, signature=signature, constexprs=constexprs)
    return triton_compile(src, target=GPUTarget("cuda", capability, 32))


@triton.jit
def arange_kernel():
    tl.arange(2, 7)  # <-


@triton.jit
def full_kernel():
    tl.full((33,), 0, dtype=tl.int64)  # <-


@triton.jit
def imprecise_kernel():
    a = tl.full((64, 64), 0.0, tl.float8e5)
    tl.dot(a, a, max_num_imprecise_acc=128)  # <-


@pytest.mark.parametrize(
    ("kernel", "ours", "tritons"),
    [
        (
            arange_kernel,
            "arange's range end - start = 5 must be a power of two",
            "arange's range must be a power of 2",
        ),
        (
            full_kernel,
            "dimension 0 of shape [33] must be a power of two (got 33)",
            "Shape element 0 must be a power of 2",
        ),
        (
            imprecise_kernel,
            "tl.dot: max_num_imprecise_acc (128) must be <= K (64)",
            "max_num_imprecise_acc (128) must be <= K (64)",
        ),
    ],
)
def test_cause_has_tritons_words(kernel: Any, ours: str, tritons: str) -> None:
    with pytest.raises(KernelValueError) as info:
        _compile(kernel)
    assert ours in info.value.message
    assert info.value.loc is not None and info.value.loc.line == marked_line(kernel)[1]
    assert type(info.value.__cause__) is ValueError
    assert str(info.value.__cause__) == tritons


@triton.jit
def where_kernel(out):
    a = tl.full((64,), 0, tl.uint32)
    b = tl.full((64,), 1, tl.float32)
    tl.store(out + tl.arange(0, 64), tl.where(a, b, 2.0))  # <-


def test_where_of_a_non_boolean_condition_warns_at_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    out = np.zeros(64, np.float32)
    with pytest.warns(UserWarning, match="non-boolean condition is deprecated.*Got uint32") as w:
        where_kernel[(1,)](out)
    assert w[0].lineno == marked_line(where_kernel)[1]
    np.testing.assert_array_equal(out, np.full(64, 2.0, np.float32))  # still a != 0


@triton.jit
def dot_kernel(dtype: tl.constexpr, SIZE: tl.constexpr):
    a = tl.full((SIZE, SIZE), 0.0, dtype)
    tl.dot(a, a)  # <-


def test_fp8e4b15_dots_warn_on_hopper_only() -> None:
    with warnings.catch_warnings(record=True) as ampere:
        warnings.simplefilter("always")
        _compile(dot_kernel, capability=80, dtype=tl.float8e4b15, SIZE=64)
    assert not [w for w in ampere if "fp8e4b15" in str(w.message)]
    with pytest.warns(UserWarning, match="the use of fp8e4b15 is deprecated on Hopper") as hopper:
        _compile(dot_kernel, capability=90, dtype=tl.float8e4b15, SIZE=64)
    assert hopper[0].lineno == marked_line(dot_kernel)[1]


@triton.jit(do_not_specialize=["N"])
def unspecialized_constexpr_kernel(
    N: tl.constexpr,  # <-
):
    pass


def test_constexpr_listed_in_do_not_specialize() -> None:
    words = "N marked as constexpr and listed in do_not_specialize"
    with pytest.raises(ConstexprError, match=words) as info:
        _compile(unspecialized_constexpr_kernel, N=5)
    assert info.value.loc is not None
    assert info.value.loc.line == marked_line(unspecialized_constexpr_kernel)[1]
    with pytest.raises(CompilationError, match=words):
        unspecialized_constexpr_kernel[(1,)](5)
