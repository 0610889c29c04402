"""Shape-manipulation arguments Triton rejects (``trans``, ``reshape``, ``split``, ``cat``,
``gather``, ``sort``, ``histogram``, batched ``dot``), each a typed error at the call's line;
and the IR the accepted forms build."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from tests.frontend.util import X, expect_error, op_lines, tt

XI32 = np.zeros(64, dtype=np.int32)


@triton.jit
def bad_permutation_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.trans(v, 0, 0)  # <-


@triton.jit
def permutation_too_short_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.permute(v, (1,))  # <-


@triton.jit
def trans_rank1_kernel(x, i):
    tl.trans(tl.load(x + tl.arange(0, 8)))  # <-


@triton.jit
def reshape_numel_kernel(x, i):
    v = tl.load(x + tl.arange(0, 8))
    tl.reshape(v, (4, 4))  # <-


@triton.jit
def reshape_not_power_of_two_kernel(x, i):
    v = tl.load(x + tl.arange(0, 8))
    tl.reshape(v, 6)  # <-


@triton.jit
def reshape_runtime_shape_kernel(x, i):
    n = tl.load(i)
    v = tl.load(x + tl.arange(0, 8))
    tl.reshape(v, n)  # <-


@triton.jit
def split_not_two_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.split(v)  # <-


@triton.jit
def cat_without_reorder_kernel(x, i):
    v = tl.load(x + tl.arange(0, 8))
    tl.cat(v, v)  # <-


@triton.jit
def cat_rank2_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.cat(v, v, can_reorder=True)  # <-


@triton.jit
def join_dtypes_kernel(x, i):
    tl.join(tl.load(x + tl.arange(0, 8)), tl.load(i + tl.arange(0, 8)))  # <-


@triton.jit
def gather_float_index_kernel(x, i):
    v = tl.load(x + tl.arange(0, 8))
    tl.gather(v, v, 0)  # <-


@triton.jit
def gather_rank_kernel(x, i):
    v = tl.load(x + tl.arange(0, 8))
    idx = tl.load(i + tl.arange(0, 4)[:, None] * 2 + tl.arange(0, 2)[None, :])
    tl.gather(v, idx, 0)  # <-


@triton.jit
def gather_shape_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    idx = tl.load(i + tl.arange(0, 2)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.gather(v, idx, 1)  # <-


@triton.jit
def gather_axis_kernel(x, i):
    v = tl.load(x + tl.arange(0, 8))
    tl.gather(v, tl.load(i + tl.arange(0, 8)), 1)  # <-


@triton.jit
def sort_not_last_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.sort(v, 0)  # <-


@triton.jit
def topk_too_many_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.topk(v, 16)  # <-


@triton.jit
def topk_not_power_of_two_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.topk(v, 3)  # <-


@triton.jit
def histogram_float_kernel(x, i):
    tl.histogram(tl.load(x + tl.arange(0, 8)), 4)  # <-


@triton.jit
def histogram_rank2_kernel(x, i):
    v = tl.load(i + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.histogram(v, 4)  # <-


@triton.jit
def item_of_block_kernel(x, i):
    tl.load(x + tl.arange(0, 8)).item()  # <-


@triton.jit
def dot3d_batch_kernel(x, i):
    a = tl.zeros((2, 16, 16), tl.float32)
    b = tl.zeros((4, 16, 16), tl.float32)
    tl.dot(a, b)  # <-


@triton.jit
def dot_rank_mismatch_kernel(x, i):
    a = tl.zeros((2, 16, 16), tl.float32)
    b = tl.zeros((16, 16), tl.float32)
    tl.dot(a, b)  # <-


CASES = [
    (bad_permutation_kernel, KernelValueError, ("tl.trans", "permutation", "[0, 0]")),
    (permutation_too_short_kernel, KernelValueError, ("tl.permute", "as many entries")),
    (trans_rank1_kernel, KernelValueError, ("tl.trans of a rank-1 block",)),
    (reshape_numel_kernel, KernelValueError, ("number of elements", "[8]", "[4, 4]")),
    (reshape_not_power_of_two_kernel, KernelValueError, ("power of two",)),
    (reshape_runtime_shape_kernel, ConstexprError, ("tl.reshape's shape", "compile-time")),
    (split_not_two_kernel, KernelValueError, ("tl.split", "size 2", "[4, 4]")),
    (cat_without_reorder_kernel, KernelValueError, ("can_reorder=True",)),
    (cat_rank2_kernel, KernelValueError, ("rank-1",)),
    (join_dtypes_kernel, KernelTypeError, ("tl.join", "fp32", "int32")),
    (gather_float_index_kernel, KernelTypeError, ("index must hold integers",)),
    (gather_rank_kernel, KernelValueError, ("same rank",)),
    (gather_shape_kernel, KernelValueError, ("index dimension 0",)),
    (gather_axis_kernel, KernelValueError, ("axis 1 out of range",)),
    (sort_not_last_kernel, KernelValueError, ("tl.sort", "last dimension")),
    (topk_too_many_kernel, KernelValueError, ("tl.topk", "from 1 to 8", "16")),
    (topk_not_power_of_two_kernel, KernelValueError, ("tl.topk", "power of two")),
    (histogram_float_kernel, KernelTypeError, ("tl.histogram", "integers")),
    (histogram_rank2_kernel, KernelValueError, ("rank-1",)),
    (item_of_block_kernel, KernelValueError, ("one-element block",)),
    (dot3d_batch_kernel, KernelTypeError, ("batch dimensions differ",)),
    (dot_rank_mismatch_kernel, KernelTypeError, ("rank-2 block",)),
]


@pytest.mark.parametrize(("kernel", "cls", "words"), CASES, ids=[c[0].__name__ for c in CASES])
def test_rejected_shape_op(kernel, cls, words):  # type: ignore[no-untyped-def]
    expect_error(
        kernel, (X, XI32), {}, cls, words, "tl." if "item" not in kernel.__name__ else "tl.load"
    )


@triton.jit
def accepted_kernel(x, i):
    v = tl.load(x + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :])
    t = tl.trans(v)
    p = tl.permute(v, 0, 1)  # the identity: no op
    r = tl.reshape(t, 32)
    a, b = tl.split(tl.reshape(r, (16, 2)))
    tl.store(x + tl.arange(0, 16), tl.join(a, b).ravel().reshape(16, 2).sum(1) + p.sum(1).sum(0))


def test_accepted_forms_build_shape_ops() -> None:
    ir = tt(accepted_kernel, X, XI32)
    (trans,) = op_lines(ir, "tt.trans")  # the identity permutation builds none
    assert "order = array<i32: 1, 0>" in trans
    assert len(op_lines(ir, "tt.reshape")) == 4
    assert len(op_lines(ir, "tt.split")) == 1
    assert len(op_lines(ir, "tt.join")) == 1


@triton.jit
def shapes_are_lists_kernel(x, i):
    v = tl.load(x + tl.arange(0, 2))
    z1, z2 = tl.split(v)
    tl.static_assert(isinstance(z1, tl.tensor) and isinstance(v, tl.tensor))
    tl.static_assert(z1.shape == [] and v.shape == [2] and v.shape == (2,))
    tl.static_assert(tl.interleave(z1, z2).shape == [tl.constexpr(2)])
    w = tl.load(x + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :])
    r = w.reshape(w.shape[:-1] + [2, 2])  # noqa: RUF005 (Triton code writes shapes so)
    tl.static_assert(r.shape == [8, 2, 2])
    tl.static_assert(w.T.shape == [4, 8] and w.trans().shape == [4, 8])
    tl.static_assert(tl.full((), 1, tl.int32).shape == [])


def test_shapes_are_lists_and_split_gives_scalars() -> None:
    tt(shapes_are_lists_kernel, X, XI32)  # the static_asserts hold
