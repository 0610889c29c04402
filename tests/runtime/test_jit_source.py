"""``JITFunction.src`` and ``_unsafe_update_src``, as Triton's own test suite uses them to patch
a template kernel: ``k = triton.JITFunction(template.fn); k._unsafe_update_src(k.src.replace(...))``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import MyTritonError


@triton.jit
def template_kernel(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)  # noqa: F841 (the patched expressions read it)
    tl.store(out_ptr + offs, GENERATE_TEST_HERE)  # noqa: F821 (replaced before compiling)


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")


def patched(expr: str) -> triton.JITFunction:
    kernel = triton.JITFunction(template_kernel.fn)
    kernel._unsafe_update_src(kernel.src.replace("GENERATE_TEST_HERE", expr))
    return kernel


def test_src_starts_at_the_def_line() -> None:
    src = template_kernel.src
    assert src.startswith("def template_kernel(x_ptr, out_ptr, N: tl.constexpr):\n")
    assert "@triton.jit" not in src


def test_patched_kernels_compile_their_own_source() -> None:
    x = np.arange(8, dtype=np.float32)
    double, square = patched("x * 2"), patched("x * x")
    for kernel, expected in ((double, x * 2), (square, x * x), (double, x * 2)):
        out = np.zeros_like(x)
        kernel[(1,)](x, out, N=8)
        np.testing.assert_array_equal(out, expected)
    assert "x * x" in square.src and "x * 2" in double.src


def test_errors_in_a_patched_kernel_name_the_original_file_and_line() -> None:
    kernel = patched("undefined_name")
    x = np.zeros(8, np.float32)
    with pytest.raises(MyTritonError) as info:
        kernel[(1,)](x, x, N=8)
    lines = Path(__file__).read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "GENERATE_TEST_HERE)" in text)
    assert f"test_jit_source.py:{line}:" in str(info.value)
    assert "undefined_name" in str(info.value)
