"""``tl.dot`` operand and result dtypes Triton rejects, each a typed error at the call's line."""

from __future__ import annotations

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, KernelValueError
from tests.frontend.util import X, Y, expect_error

ARGS = (X, Y, 16)
KW = {"BLOCK": 16}


@triton.jit
def mixed_dtypes_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float16)
    b = tl.zeros((16, 16), tl.float32)
    tl.dot(a, b)  # <-


@triton.jit
def mixed_ints_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.int8)
    b = tl.zeros((16, 16), tl.float16)
    tl.dot(a, b)  # <-


@triton.jit
def int16_operands_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.int16)
    tl.dot(a, a)  # <-


@triton.jit
def bf16_out_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float16)
    tl.dot(a, a, out_dtype=tl.bfloat16)  # <-


@triton.jit
def f16_out_f64_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float16)
    tl.dot(a, a, out_dtype=tl.float64)  # <-


@triton.jit
def int8_acc_default_out_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.int8)
    acc = tl.zeros((16, 16), tl.int32)
    tl.dot(a, a, acc)  # <-


@triton.jit
def f16_acc_mismatch_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float16)
    acc = tl.zeros((16, 16), tl.float32)
    tl.dot(a, a, acc, out_dtype=tl.float16)  # <-


@triton.jit
def f64_acc_default_out_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float64)
    acc = tl.zeros((16, 16), tl.float64)
    tl.dot(a, a, acc)  # <-


@triton.jit
def bad_precision_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float32)
    tl.dot(a, a, input_precision="fp8")  # <-


@triton.jit
def precision_and_tf32_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float32)
    tl.dot(a, a, input_precision="ieee", allow_tf32=False)  # <-


@triton.jit
def fp8_and_f16_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float8e4nv)
    b = tl.zeros((16, 16), tl.float16)
    tl.dot(a, b)  # <-


@triton.jit
def fp8_out_f64_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float8e5)
    tl.dot(a, a, out_dtype=tl.float64)  # <-


CASES = [
    (mixed_dtypes_kernel, KernelTypeError, ("same dtype", "fp16", "fp32"), "tl.dot"),
    (mixed_ints_kernel, KernelTypeError, ("same dtype", "int8", "fp16"), "tl.dot"),
    (int16_operands_kernel, KernelTypeError, ("tl.int8, tl.float16", "int16"), "tl.dot"),
    (bf16_out_kernel, KernelTypeError, ("out_dtype=bfloat16",), "tl.dot"),
    (f16_out_f64_kernel, KernelTypeError, ("out_dtype must be", "fp64"), "tl.dot"),
    (int8_acc_default_out_kernel, KernelTypeError, ("acc must be a int32", "out_dtype"), "tl.dot"),
    (f16_acc_mismatch_kernel, KernelTypeError, ("acc must be a fp16", "acc fp32"), "tl.dot"),
    (f64_acc_default_out_kernel, KernelTypeError, ("out_dtype must be fp64",), "tl.dot"),
    (bad_precision_kernel, KernelValueError, ("input_precision", "'fp8'"), "tl.dot"),
    (precision_and_tf32_kernel, KernelValueError, ("only one of",), "tl.dot"),
    (fp8_and_f16_kernel, KernelTypeError, ("same dtype", "fp8e4nv", "fp16"), "tl.dot"),
    (fp8_out_f64_kernel, KernelTypeError, ("out_dtype must be", "fp8e5 operands"), "tl.dot"),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_rejected_dot(kernel, cls, words, at):
    expect_error(kernel, ARGS, KW, cls, words, at)


@triton.jit
def accepted_kernel(x, out, n, BLOCK: tl.constexpr):
    h = tl.zeros((16, 16), tl.float16)
    i = tl.zeros((16, 32), tl.int8)  # K >= 32 for 8-bit operands on NVIDIA
    f = tl.zeros((16, 16), tl.float32)
    tl.dot(h, h, tl.zeros((16, 16), tl.float16), out_dtype=tl.float16)
    tl.dot(i, tl.trans(i), tl.zeros((16, 16), tl.int32), out_dtype=tl.int32)
    tl.dot(f, f, out_dtype=tl.float16, input_precision="tf32x3")
    tl.dot(f, f, input_precision="IEEE")
    tl.dot(f, f, input_precision="bf16x6")
    tl.dot(f, f, allow_tf32=True)


def test_triton_accepted_combinations_compile():
    """f32 operands ignore ``out_dtype`` without ``acc`` (Triton's rule), an f16 accumulator and
    an int32 one are accepted with the matching ``out_dtype``."""
    accepted_kernel.warmup(*ARGS, grid=(1,), **KW)


@triton.jit
def fp8_dots_kernel(x, out, n, BLOCK: tl.constexpr):
    e4 = tl.zeros((16, 32), tl.float8e4nv)
    e5 = tl.zeros((32, 16), tl.float8e5)
    tl.dot(e4, tl.zeros((32, 16), tl.float8e4nv))
    tl.dot(e4, e5, tl.zeros((16, 16), tl.float16), out_dtype=tl.float16)
    tl.dot(tl.zeros((16, 32), tl.float8e4b15), tl.zeros((32, 16), tl.float8e4b15))


def test_fp8_dots_keep_fp8_operands_of_mma_formats():
    """fp8e4nv and fp8e5 blocks (either format each) stay fp8 in ``tt.dot`` (the layout passes
    decide where they run); fp8e4b15 becomes f16 (exact) first. ``out_dtype=tl.float16`` is an
    f32 dot rounded to f16."""
    tt = fp8_dots_kernel.warmup(*ARGS, grid=(1,), **KW).asm["tt"]
    dots = [line for line in tt.splitlines() if "tt.dot" in line]
    assert len(dots) == 3
    assert "tensor<16x32xf8E4M3FN> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf32>" in dots[0]
    assert "tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>" in dots[1]
    lines = tt.splitlines()
    rounded = lines[lines.index(dots[1]) + 1]
    assert "tt.cast" in rounded and "tensor<16x16xf32> -> tensor<16x16xf16>" in rounded
    assert "tensor<16x32xf16> * tensor<32x16xf16> -> tensor<16x16xf32>" in dots[2]
