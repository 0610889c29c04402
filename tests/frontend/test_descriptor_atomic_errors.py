"""``desc.atomic_*`` misuse Triton rejects (``semantic.validate_store_like`` and
``descriptor_atomic_*``'s dtype sets), and a value of another element type, which Triton leaves
undefined: each a typed error at the kernel's line."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelNameError, KernelTypeError, KernelValueError
from tests.frontend.util import expect_error

F32 = np.zeros((16, 64), np.float32)
I32 = np.zeros((16, 64), np.int32)
I64 = np.zeros((16, 64), np.int64)
F16 = np.zeros((16, 64), np.float16)


@triton.jit
def shape_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_add([0, 0], tl.zeros((4, BLOCK), x.dtype.element_ty))  # <-


@triton.jit
def scalar_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_or([0, 0], 1)  # <-


@triton.jit
def offsets_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_max([0], tl.zeros((2, BLOCK), x.dtype.element_ty))  # <-


@triton.jit
def dtype_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_add([0, 0], tl.zeros((2, BLOCK), tl.float16))  # <-


@triton.jit
def min_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_min([0, 0], tl.zeros((2, BLOCK), x.dtype.element_ty))  # <-


@triton.jit
def add_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_add([0, 0], tl.zeros((2, BLOCK), x.dtype.element_ty))  # <-


@triton.jit
def xor_kernel(x, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.atomic_xor([0, 0], tl.zeros((2, BLOCK), x.dtype.element_ty))  # <-


@triton.jit
def block_pointer_kernel(x, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (2, BLOCK), (1, 0))
    p.atomic_add([0, 0], tl.zeros((2, BLOCK), tl.float32))  # <-


CASES = [
    (shape_kernel, F32, KernelTypeError, ("block shape [2, 32]", "shape [4, 32]"), "d.atomic_add"),
    (scalar_kernel, I32, KernelTypeError, ("block shape [2, 32]", "1"), "d.atomic_or"),
    (offsets_kernel, I32, KernelValueError, ("expected 2 offsets", "got 1"), "d.atomic_max"),
    (dtype_kernel, F32, KernelTypeError, ("holds fp32", "fp16"), "d.atomic_add"),
    # Triton's sets: no float min/max (f16/bf16 need TMA here), no int64 add, no float xor
    (min_kernel, F32, KernelTypeError, ("atomic_min does not support", "fp32"), "d.atomic_min"),
    (min_kernel, F16, KernelTypeError, ("atomic_min does not support", "fp16"), "d.atomic_min"),
    (add_kernel, I64, KernelTypeError, ("atomic_add does not support", "int64"), "d.atomic_add"),
    (xor_kernel, F32, KernelTypeError, ("atomic_xor does not support", "fp32"), "d.atomic_xor"),
    (block_pointer_kernel, F32, KernelNameError, ("no attribute `atomic_add`",), "p.atomic_add"),
]


@pytest.mark.parametrize(
    ("kernel", "x", "cls", "words", "at"),
    CASES,
    ids=[f"{c[0].__name__}-{c[1].dtype}" for c in CASES],
)
def test_rejected(kernel, x, cls, words, at):
    expect_error(kernel, (x, 16), {"BLOCK": 32}, cls, words, at)
