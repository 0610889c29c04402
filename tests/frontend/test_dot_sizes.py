"""The smallest ``tl.dot`` Triton's NVIDIA backend compiles (``nvidia_dots.py``): K >= 16, and
K >= 32 for 8-bit operands. The cuda and mlir backends refuse smaller dots at the call's line
(``DotSizeError``, caused by an ``AssertionError`` with Triton's words); the interpreter and
gpusim, like Triton's interpreter, run them."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.compiler import ASTSource
from mytriton.errors import CompilationError, DotSizeError
from mytriton.runtime.driver import GPUTarget
from tests.frontend.util import expect_error, marked_line

EIGHT = tl.constexpr(8)


@triton.jit
def small_dot_kernel(out, dtype: tl.constexpr, K: tl.constexpr):
    a = tl.full((16, K), 1.0, tl.float32).to(dtype)
    b = tl.full((K, 16), 1.0, tl.float32).to(dtype)
    tl.store(out + tl.arange(0, 16), tl.sum(tl.dot(a, b).to(tl.float32), axis=1))  # <-


DTYPES = [(tl.float8e5, 32), (tl.int8, 32), (tl.float16, 16), (tl.bfloat16, 16), (tl.float32, 16)]
OUT = np.zeros(16, np.float32)


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
@pytest.mark.parametrize(("dtype", "least_k"), DTYPES)
def test_gpu_backends_refuse_dots_below_the_least_k(
    monkeypatch: pytest.MonkeyPatch, backend: str, dtype: Any, least_k: int
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    small_dot_kernel.clear_cache()
    words = f"Input shapes should have M >= 1, N >= 1 and K >= {least_k}"
    kwargs = {"dtype": dtype, "K": least_k // 2}
    err = expect_error(small_dot_kernel, (OUT,), kwargs, DotSizeError, (words,), None)
    file, line, text = marked_line(small_dot_kernel)
    assert err.loc is not None and (err.loc.file, err.loc.line) == (file, line)
    assert text[err.loc.col - 1 :].startswith("tl.dot")
    assert isinstance(err.__cause__, AssertionError) and str(err.__cause__) == words
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only here
        small_dot_kernel.warmup(OUT, dtype=dtype, K=least_k, grid=(1,))  # the least K compiles


@pytest.mark.parametrize("dtype", [tl.float8e5, tl.int8, tl.float16])
def test_triton_compile_for_a_cuda_target(dtype: Any) -> None:
    """``triton.compile`` for an NVIDIA target, as Triton's ``test_min_dot_size`` does it."""

    @triton.jit
    def dot_kernel(dtype: tl.constexpr):
        a = tl.full((EIGHT, EIGHT), 0.0, dtype)
        b = tl.full((EIGHT, EIGHT), 0.0, dtype)
        tl.dot(a, b)

    src = ASTSource(fn=dot_kernel, signature={"dtype": "constexpr"}, constexprs={"dtype": dtype})
    with pytest.raises(CompilationError) as e:
        triton.compile(src, target=GPUTarget("cuda", 90, 32))
    k = 32 if dtype.primitive_bitwidth == 8 else 16
    assert f"M >= 1, N >= 1 and K >= {k}" in str(e.value.__cause__)
    triton.compile(src, target=GPUTarget("cpu", "x86_64", 1))  # the interpreter takes it


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_cpu_backends_run_small_dots(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    small_dot_kernel.clear_cache()
    for dtype in (tl.int8, tl.float16):
        out = np.zeros(16, np.float32)
        small_dot_kernel[(1,)](out, dtype=dtype, K=8)
        np.testing.assert_array_equal(out, np.full(16, 8.0 * 16))
