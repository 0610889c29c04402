"""``desc.gather``/``desc.scatter`` misuse Triton rejects (``semantic.descriptor_gather``,
``descriptor_scatter`` and the ops' verifiers), each a typed error at the kernel's line."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelNameError, KernelTypeError, KernelValueError
from tests.frontend.util import expect_error, op_lines, tt

F32 = np.zeros((16, 64), np.float32)
ARGS = (F32, F32, 16)
KW = {"BLOCK": 32}


@triton.jit
def two_row_block_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [2, BLOCK])
    d.gather(tl.arange(0, 8), 0)  # <-


@triton.jit
def three_d_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n, n], [n * n, n, 1], [1, 1, BLOCK])
    d.gather(tl.arange(0, 8), 0)  # <-


@triton.jit
def three_offsets_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8), 0, 0)  # <-


@triton.jit
def scatter_one_offset_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(out, [n, n], [n, 1], [1, BLOCK])
    d.scatter(tl.zeros((8, BLOCK), tl.float32), tl.arange(0, 8))  # <-


@triton.jit
def two_d_offsets_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8)[:, None] + tl.zeros((8, 2), tl.int32), 0)  # <-


@triton.jit
def scalar_offsets_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(n, 0)  # <-


@triton.jit
def int64_offsets_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8).to(tl.int64), 0)  # <-


@triton.jit
def float_offsets_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8).to(tl.float32), 0)  # <-


@triton.jit
def four_rows_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 4), 0)  # <-


@triton.jit
def int64_y_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8), n.to(tl.int64))  # <-


@triton.jit
def block_y_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8), tl.arange(0, 8))  # <-


@triton.jit
def scatter_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(out, [n, n], [n, 1], [1, BLOCK])
    d.scatter(tl.zeros((16, BLOCK), tl.float32), tl.arange(0, 8), 0)  # <-


@triton.jit
def scatter_scalar_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(out, [n, n], [n, 1], [1, BLOCK])
    d.scatter(1.0, tl.arange(0, 8), 0)  # <-


@triton.jit
def scatter_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(out, [n, n], [n, 1], [1, BLOCK])
    d.scatter(tl.zeros((8, BLOCK), tl.float16), tl.arange(0, 8), 0)  # <-


@triton.jit
def block_pointer_gather_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (1, BLOCK), (1, 0))
    p.gather(tl.arange(0, 8), 0)  # <-


CASES = [
    (two_row_block_kernel, KernelValueError, ("one row", "[2, 32]"), "d.gather"),
    (three_d_kernel, KernelValueError, ("one row", "[1, 1, 32]"), "d.gather"),
    (three_offsets_kernel, KernelValueError, ("2D indexing", "3 offsets"), "d.gather"),
    (scatter_one_offset_kernel, KernelValueError, ("scatter only supports 2D",), "d.scatter"),
    (two_d_offsets_kernel, KernelTypeError, ("1-d block", "[8, 2]"), "d.gather"),
    (scalar_offsets_kernel, KernelTypeError, ("1-d block", "shape []"), "d.gather"),
    (int64_offsets_kernel, KernelTypeError, ("int32", "int64"), "d.gather"),
    (float_offsets_kernel, KernelTypeError, ("int32", "fp32"), "d.gather"),
    (four_rows_kernel, KernelValueError, ("at least 8 rows", "4"), "d.gather"),
    (int64_y_kernel, KernelTypeError, ("y offset", "32-bit"), "d.gather"),
    (block_y_kernel, KernelTypeError, ("y offset", "scalars"), "d.gather"),
    (scatter_shape_kernel, KernelTypeError, ("shape [8, 32]", "[16, 32]"), "d.scatter"),
    (scatter_scalar_kernel, KernelTypeError, ("shape [8, 32]", "1.0"), "d.scatter"),
    (scatter_dtype_kernel, KernelTypeError, ("holds fp32", "fp16"), "d.scatter"),
    (block_pointer_gather_kernel, KernelNameError, ("no attribute `gather`",), "p.gather"),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_rejected(kernel, cls, words, at):
    expect_error(kernel, ARGS, KW, cls, words, at)


@triton.jit
def narrow_gather_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    d.gather(tl.arange(0, 8), 0)  # <-


@pytest.mark.parametrize(
    ("dtype", "block", "least"), [(np.float32, 4, 8), (np.float16, 8, 16), (np.int8, 16, 32)]
)
def test_too_few_columns(dtype, block, least):
    """Triton's minimum: 32 // bitwidth * 8 columns (a descriptor allows fewer)."""
    x = np.zeros((16, 64), dtype)
    words = (f"at least {least} columns", f"has {block}")
    expect_error(narrow_gather_kernel, (x, x, 16), {"BLOCK": block}, KernelValueError, words, "d")


@triton.jit
def gather_scatter_kernel(x, out, n, BLOCK: tl.constexpr):
    src = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, BLOCK])
    dst = tl.make_tensor_descriptor(out, [n, n], [n, 1], [1, BLOCK])
    rows = tl.arange(0, 8)
    dst.scatter(src.gather(rows, 0), rows, 0)


def test_gather_and_scatter_are_masked_pointer_accesses():
    """No new op: one masked tt.load (zero padding) and one masked tt.store, 8 x 32 each."""
    ir = tt(gather_scatter_kernel, *ARGS, **KW)
    (load,) = op_lines(ir, "tt.load")
    (store,) = op_lines(ir, "tt.store")
    assert load.endswith(": tensor<8x32x!tt.ptr<f32>>") and load.count("%") == 4, (
        load
    )  # mask, other
    assert store.endswith(": tensor<8x32x!tt.ptr<f32>>") and store.count("%") == 3, store  # mask
