"""Block pointer and tensor descriptor misuse Triton rejects, each a typed error at the
kernel's line (Triton 3.6's checks in ``semantic.make_block_ptr``, ``_load_block_pointer``,
``_store_block_pointer``, ``make_tensor_descriptor`` and ``descriptor_load/store``)."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelNameError, KernelTypeError, KernelValueError
from tests.frontend.util import X, Y, expect_error, op_lines, tt

ARGS = (X, Y, 16)
KW = {"BLOCK": 16}


@triton.jit
def not_power_of_two_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x, (n,), (1,), (0,), (12,), (0,))  # <-


@triton.jit
def rank_mismatch_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (BLOCK,), (0,))  # <-


@triton.jit
def bad_order_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (BLOCK, BLOCK), (1, 1))  # <-


@triton.jit
def runtime_block_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x, (n,), (1,), (0,), (n,), (0,))  # <-


@triton.jit
def int64_offset_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x, (n,), (1,), (n.to(tl.int64),), (BLOCK,), (0,))  # <-


@triton.jit
def float_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x, (1.5,), (1,), (0,), (BLOCK,), (0,))  # <-


@triton.jit
def block_of_pointers_base_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_block_ptr(x + tl.arange(0, BLOCK), (n,), (1,), (0,), (BLOCK,), (0,))  # <-


@triton.jit
def check_out_of_range_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.load(p, boundary_check=(1,))  # <-


@triton.jit
def duplicate_check_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n, n), (n, 1), (0, 0), (BLOCK, BLOCK), (1, 0))
    tl.load(p, boundary_check=(0, 0))  # <-


@triton.jit
def bad_padding_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.load(p, boundary_check=(0,), padding_option="inf")  # <-


@triton.jit
def nan_padding_int_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.load(p, boundary_check=(0,), padding_option="nan")  # <-


@triton.jit
def mask_on_block_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.load(p, mask=tl.arange(0, BLOCK) < n)  # <-


@triton.jit
def store_mask_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(out, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.store(p, tl.zeros((BLOCK,), tl.float32), mask=tl.arange(0, BLOCK) < n)  # <-


@triton.jit
def store_padding_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(out, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.store(p, tl.zeros((BLOCK,), tl.float32), padding_option="zero")  # <-


@triton.jit
def store_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(out, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.store(p, tl.zeros((2 * BLOCK,), tl.float32))  # <-


@triton.jit
def store_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(out, (n,), (1,), (0,), (BLOCK,), (0,))
    tl.store(p, tl.zeros((BLOCK,), tl.float16))  # <-


@triton.jit
def advance_rank_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    p = tl.advance(p, (BLOCK, 0))  # <-


@triton.jit
def advance_plain_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.advance(x + tl.arange(0, BLOCK), (BLOCK,))  # <-  # noqa: F841


@triton.jit
def check_on_plain_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.load(x + tl.arange(0, BLOCK), boundary_check=(0,))  # <-


@triton.jit
def unknown_attribute_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    p.load()  # <-


@triton.jit
def loop_changes_block_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    for _ in range(n):  # <-
        p = tl.make_block_ptr(x, (n,), (1,), (0,), (2 * BLOCK,), (0,))
    tl.load(p)


@triton.jit
def if_pointer_or_block_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    if n > 3:  # <-  # noqa: SIM108
        p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    else:
        p = x + tl.arange(0, BLOCK)
    tl.load(p)


@triton.jit
def descriptor_last_stride_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_tensor_descriptor(x, [n, n], [1, n], [BLOCK, BLOCK])  # <-


@triton.jit
def descriptor_narrow_block_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_tensor_descriptor(x, [n, n], [n, 1], [BLOCK, 2])  # <-


@triton.jit
def descriptor_rank_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_tensor_descriptor(x, [n, n, n, n, n, n], [n, n, n, n, n, 1], [1, 1, 1, 1, 1, 4])  # <-


@triton.jit
def descriptor_strides_count_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_tensor_descriptor(x, [n, n], [1], [BLOCK, BLOCK])  # <-


@triton.jit
def descriptor_nan_int_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.make_tensor_descriptor(x, [n], [1], [BLOCK], padding_option="nan")  # <-


@triton.jit
def descriptor_offsets_count_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [BLOCK, BLOCK])
    d.load([0])  # <-


@triton.jit
def descriptor_store_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.make_tensor_descriptor(out, [n, n], [n, 1], [BLOCK, BLOCK])
    d.store([0, 0], tl.zeros((BLOCK,), tl.float32))  # <-


@triton.jit
def load_descriptor_of_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.load_tensor_descriptor(x, [0])  # <-


XI = np.zeros(64, np.int32)

CASES = [
    (not_power_of_two_kernel, KernelValueError, ("power of 2", "12"), "tl.make_block_ptr"),
    (rank_mismatch_kernel, KernelValueError, ("same length",), "tl.make_block_ptr"),
    (bad_order_kernel, KernelValueError, ("permutation",), "tl.make_block_ptr"),
    (runtime_block_shape_kernel, ConstexprError, ("block_shape", "compile-time"), "tl.make"),
    (int64_offset_kernel, KernelTypeError, ("32-bit", ".to(tl.int32)"), "tl.make_block_ptr"),
    (float_shape_kernel, KernelTypeError, ("shape must be integers",), "tl.make_block_ptr"),
    (block_of_pointers_base_kernel, KernelTypeError, ("scalar pointer",), "tl.make_block_ptr"),
    (check_out_of_range_kernel, KernelValueError, ("dimension 1", "rank-1"), "tl.load"),
    (duplicate_check_kernel, KernelValueError, ("duplicate",), "tl.load"),
    (bad_padding_kernel, KernelValueError, ("padding_option", "'inf'"), "tl.load"),
    (mask_on_block_pointer_kernel, KernelValueError, ("`mask` and `other`",), "tl.load"),
    (store_mask_kernel, KernelValueError, ("`mask` cannot",), "tl.store"),
    (store_padding_kernel, KernelTypeError, ("padding_option",), "tl.store"),
    (store_shape_kernel, KernelTypeError, ("shape [32]", "[16]"), "tl.store"),
    (store_dtype_kernel, KernelTypeError, ("holds fp32", "fp16"), "tl.store"),
    (advance_rank_kernel, KernelValueError, ("2 offsets", "rank-1"), "tl.advance"),
    (advance_plain_pointer_kernel, KernelTypeError, ("expects a block pointer",), "tl.advance"),
    (
        check_on_plain_pointer_kernel,
        KernelValueError,
        ("not supported", "tl.make_block_ptr"),
        "tl.load",
    ),
    (unknown_attribute_kernel, KernelNameError, ("no attribute `load`",), "p.load"),
    (loop_changes_block_shape_kernel, KernelTypeError, ("loop-carried", "[16]", "[32]"), "for"),
    (if_pointer_or_block_kernel, KernelTypeError, ("block pointer", "`else`"), "if"),
    (descriptor_last_stride_kernel, KernelValueError, ("contiguous",), "tl.make_tensor"),
    (descriptor_narrow_block_kernel, KernelValueError, ("at least 16 bytes",), "tl.make_tensor"),
    (descriptor_rank_kernel, KernelValueError, ("1 to 5 dimensions",), "tl.make_tensor"),
    (descriptor_strides_count_kernel, KernelValueError, ("expected 2 strides",), "tl.make"),
    (descriptor_offsets_count_kernel, KernelValueError, ("expected 2 offsets",), "d.load"),
    (descriptor_store_shape_kernel, KernelTypeError, ("block shape [16, 16]",), "d.store"),
    (load_descriptor_of_pointer_kernel, KernelTypeError, ("tensor descriptor",), "tl.load_"),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_rejected(kernel, cls, words, at):
    expect_error(kernel, ARGS, KW, cls, words, at)


INT_CASES = [
    (nan_padding_int_kernel, KernelValueError, ("'nan'", "int32"), "tl.load"),
    (descriptor_nan_int_kernel, KernelValueError, ("'nan'", "int32"), "tl.make_tensor"),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), INT_CASES, ids=[c[0].__name__ for c in INT_CASES]
)
def test_rejected_for_integers(kernel, cls, words, at):
    expect_error(kernel, (XI, XI, 16), KW, cls, words, at)


@triton.jit
def cache_options_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    q = tl.make_block_ptr(out, (n,), (1,), (0,), (BLOCK,), (0,))
    v = tl.load(p, boundary_check=(0,), cache_modifier=".cg", eviction_policy="evict_last")
    tl.store(q, v, boundary_check=(0,), cache_modifier=".cs")


def test_cache_options_reach_the_expanded_memory_ops():
    """A block pointer's load and store keep tl.load/tl.store's cache options."""
    ir = tt(cache_options_kernel, *ARGS, **KW)
    (load,) = op_lines(ir, "tt.load")
    (store,) = op_lines(ir, "tt.store")
    assert '{cache = "cg", evict = "evict_last"}' in load
    assert '{cache = "cs"}' in store
