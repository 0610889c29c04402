"""``tl.dot_scaled`` arguments Triton 3.6 rejects (and those its Hopper path cannot compile),
each a typed error at the call's line; Triton's own words where its tests read them
(``test_compile_errors.py::test_dot_scaled_shape_verification``)."""

from __future__ import annotations

import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from tests.frontend.util import X, Y, expect_error

ARGS = (X, Y, 16)
KW = {"BLOCK": 16}


@triton.jit
def bad_format_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    b = tl.full((64, 32), 0, tl.uint8)
    tl.dot_scaled(a, None, "e3m2", b, None, "e4m3")  # <-


@triton.jit
def wrong_lhs_scale_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    b = tl.full((64, 32), 0, tl.uint8)
    s = tl.full((32, 4), 0, tl.uint8)  # [M, K // 16]
    sb = tl.full((32, 2), 0, tl.uint8)
    c = tl.full((32, 32), 0.0, tl.float32)
    tl.dot_scaled(a, s, "e5m2", b, sb, "e5m2", c, False, True, True, tl.float32)  # <-


@triton.jit
def transposed_rhs_scale_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    b = tl.full((64, 16), 0, tl.uint8)
    rhs_scale = tl.full((2, 16), 0, tl.uint8)  # [K // 32, N]: must be [N, K // 32]
    tl.dot_scaled(a, None, "e4m3", b, rhs_scale, "e4m3")  # <-


@triton.jit
def int8_scale_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    scale = tl.full((32, 2), 0, tl.int8)
    tl.dot_scaled(a, scale, "e4m3", a.T, None, "e4m3")  # <-


@triton.jit
def fp8_scale_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 32), 0, tl.uint8)
    scale = tl.full((32, 4), 0, tl.uint8).to(tl.float8e4nv, bitcast=True)
    tl.dot_scaled(a, scale, "e2m1", a, None, "e2m1")  # <-


@triton.jit
def e2m1_not_uint8_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 32), 0, tl.int8)
    b = tl.full((64, 32), 0, tl.uint8)
    tl.dot_scaled(a, None, "e2m1", b, None, "e4m3")  # <-


@triton.jit
def bf16_as_uint8_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    b = tl.full((64, 32), 0, tl.uint8)
    tl.dot_scaled(a, None, "bf16", b, None, "e4m3")  # <-


@triton.jit
def k_pack_not_fp4_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    tl.dot_scaled(a, None, "e4m3", a.T, None, "e4m3", lhs_k_pack=False)  # <-


@triton.jit
def k_mismatch_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)  # e2m1: K = 128
    b = tl.full((64, 32), 0, tl.uint8)  # e4m3: K = 64
    tl.dot_scaled(a, None, "e2m1", b, None, "e4m3")  # <-


@triton.jit
def rank_mismatch_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((2, 32, 64), 0, tl.uint8)
    b = tl.full((64, 32), 0, tl.uint8)
    tl.dot_scaled(a, None, "e4m3", b, None, "e4m3")  # <-


@triton.jit
def batched_scale_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((2, 32, 64), 0, tl.uint8)
    b = tl.full((2, 64, 32), 0, tl.uint8)
    scale = tl.full((2, 32, 2), 0, tl.uint8)
    tl.dot_scaled(a, scale, "e4m3", b, None, "e4m3")  # <-


@triton.jit
def wrong_acc_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    acc = tl.zeros((32, 32), tl.float16)
    tl.dot_scaled(a, None, "e4m3", a.T, None, "e4m3", acc)  # <-


@triton.jit
def f16_out_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    tl.dot_scaled(a, None, "e4m3", a.T, None, "e4m3", out_dtype=tl.float16)  # <-


@triton.jit
def runtime_fast_math_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.full((32, 64), 0, tl.uint8)
    tl.dot_scaled(a, None, "e4m3", a.T, None, "e4m3", fast_math=n > 0)  # <-


CASES = [
    (bad_format_kernel, KernelValueError, ("Invalid float format: e3m2.", "'e2m1'")),
    (
        wrong_lhs_scale_shape_kernel,
        KernelValueError,
        ("lhs_scale must be a tensor of shape [32, 2]. Got ['32', '4']",),
    ),
    (
        transposed_rhs_scale_kernel,
        KernelValueError,
        ("rhs_scale must be a tensor of shape [16, 2]. Got ['2', '16']",),
    ),
    (int8_scale_kernel, KernelTypeError, ("lhs_scale must hold uint8", "int8")),
    (fp8_scale_kernel, KernelTypeError, ("float8e4nv scales", "lhs_scale")),
    (e2m1_not_uint8_kernel, KernelTypeError, ("e2m1 format must be packed as uint8. Got int8",)),
    (bf16_as_uint8_kernel, KernelTypeError, ("Unexpected dtype for bf16. Got uint8",)),
    (k_pack_not_fp4_kernel, KernelValueError, ("only mxfp4 inputs can be packed",)),
    (k_mismatch_kernel, KernelTypeError, ("Reduction dimension should pack the same number",)),
    (rank_mismatch_kernel, KernelTypeError, ("Both inputs must be either 2D or 3D",)),
    (batched_scale_kernel, KernelValueError, ("batched (3-D) operands",)),
    (wrong_acc_kernel, KernelTypeError, ("acc must be a float32 block of shape [32, 32]", "fp16")),
    (f16_out_kernel, KernelTypeError, ("Only float32 is supported for out_dtype",)),
    (runtime_fast_math_kernel, ConstexprError, ("fast_math must be a compile-time constant",)),
]


@pytest.mark.parametrize(("kernel", "cls", "words"), CASES, ids=[c[0].__name__ for c in CASES])
def test_rejected_dot_scaled(kernel, cls, words):
    expect_error(kernel, ARGS, KW, cls, words, "tl.dot_scaled")
