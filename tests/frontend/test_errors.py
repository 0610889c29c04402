# ruff: noqa: F841, F842, B007, RUF059, E731
"""Every construct the frontend rejects: the error class, a message naming the construct, and the
kernel's ``file:line:col`` with the source line and a caret under the offending code.

Each kernel marks its offending line with ``# <-``; ``at`` is the text the caret points at.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import (
    CompilationError,
    ConstexprError,
    KernelNameError,
    KernelTypeError,
    KernelValueError,
    LaunchError,
    SourceUnavailableError,
    StaticAssertionError,
    UnsupportedSyntaxError,
)
from tests.frontend.util import XI, X, Y, expect_error, marked_line

ARGS = (X, Y, 16)
KW = {"BLOCK": 16}

NO_GLOBAL = "Cannot access global variable "
GLOBAL_LIST = [1, 2]
GLOBAL_ARRAY = np.zeros(4)


def plain_python(a):
    return a


# ------------------------------------------------------------------ control flow


@triton.jit
def while_kernel(x, out, n, BLOCK: tl.constexpr):
    i = 0
    while i < n:  # <-
        i += 1
    else:
        i = 0


@triton.jit
def if_on_block_kernel(x, out, n, BLOCK: tl.constexpr):
    if tl.arange(0, BLOCK) > 0:  # <-
        tl.store(out, 1.0)


@triton.jit
def if_type_change_kernel(x, out, n, BLOCK: tl.constexpr):
    v = 1.0
    if n > 0:  # <-
        v = tl.zeros((BLOCK,), tl.float32)
    tl.store(out + tl.arange(0, BLOCK), v)


@triton.jit
def if_compile_time_value_kernel(x, out, n, BLOCK: tl.constexpr):
    d = tl.float32
    if n > 0:  # <-
        d = tl.int32
    tl.store(out, tl.zeros((BLOCK,), d).to(tl.float32))


@triton.jit
def failed_assert_kernel(x, out, n, BLOCK: tl.constexpr):
    assert BLOCK > 1000, "BLOCK too small"  # <-


@triton.jit
def return_value_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x)
    return v  # <-


@triton.jit
def for_else_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in range(n):  # <-
        tl.store(out + i, 1.0)
    else:
        tl.store(out, 2.0)


@triton.jit
def tuple_target_kernel(x, out, n, BLOCK: tl.constexpr):
    for i, j in range(n):  # <-
        pass


@triton.jit
def iterate_list_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in [1, 2]:  # <-
        pass


@triton.jit
def iterate_call_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in enumerate(n):  # <-
        pass


@triton.jit
def range_keyword_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in range(0, n, step=2):  # <-
        pass


@triton.jit
def range_arity_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in range(0, n, 1, 2):  # <-
        pass


@triton.jit
def static_range_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in tl.static_range(n):  # <-
        pass


@triton.jit
def float_bound_kernel(x, out, n, f, BLOCK: tl.constexpr):
    for i in range(f):  # <-
        pass


@triton.jit
def carried_type_change_kernel(x, out, n, BLOCK: tl.constexpr):
    acc = 0
    for i in range(n):  # <-
        acc += 1.5
    tl.store(out, acc)


@triton.jit
def carried_block_shape_change_kernel(x, out, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(n):  # <-
        acc = tl.zeros((BLOCK, 2), tl.float32)


@triton.jit
def carried_tuple_kernel(x, out, n, BLOCK: tl.constexpr):
    t = (1, 2)  # a tuple is loop-carried, but its elements keep their types
    for i in range(n):  # <-
        t = (3.0, 4)


@triton.jit
def loop_local_escapes_kernel(x, out, n, BLOCK: tl.constexpr):
    for i in range(n):
        inner = tl.load(x + i)
    tl.store(out, inner)  # <-


@triton.jit
def static_range_outside_for_kernel(x, out, n, BLOCK: tl.constexpr):
    r = tl.static_range(4)  # <-


@triton.jit
def tl_range_outside_for_kernel(x, out, n, BLOCK: tl.constexpr):
    r = tl.range(4)  # <-


# ------------------------------------------------------------------ syntax


@triton.jit
def chained_compare_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = 0 < offs < n  # <-


@triton.jit
def nested_def_kernel(x, out, n, BLOCK: tl.constexpr):
    def inner(a):  # <-
        return a


@triton.jit
def lambda_kernel(x, out, n, BLOCK: tl.constexpr):
    f = lambda a: a + 1  # <-


@triton.jit
def subscript_assign_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    offs[0] = 1  # <-


@triton.jit
def attribute_assign_kernel(x, out, n, BLOCK: tl.constexpr):
    x.dtype = tl.int32  # <-


@triton.jit
def subscript_augassign_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    offs[0] += 1  # <-


@triton.jit
def annotation_only_kernel(x, out, n, BLOCK: tl.constexpr):
    y: tl.float32  # <-


@triton.jit
def runtime_constexpr_annotation_kernel(x, out, n, BLOCK: tl.constexpr):
    C: tl.constexpr = n  # <-


@triton.jit
def dict_literal_kernel(x, out, n, BLOCK: tl.constexpr):
    d = {"a": 1}  # <-


@triton.jit
def list_comprehension_kernel(x, out, n, BLOCK: tl.constexpr):
    d = [i for i in range(4)]  # <-


@triton.jit
def with_kernel(x, out, n, BLOCK: tl.constexpr):
    with n:  # <-
        pass


@triton.jit
def global_statement_kernel(x, out, n, BLOCK: tl.constexpr):
    global GLOBAL_LIST  # <-


@triton.jit
def unpack_scalar_kernel(x, out, n, BLOCK: tl.constexpr):
    a, b = n  # <-


@triton.jit
def unpack_count_kernel(x, out, n, BLOCK: tl.constexpr):
    a, b = (1, 2, 3)  # <-


@triton.jit
def fstring_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.static_print(f"n is {n}")  # <-


# ------------------------------------------------------------------ names and calls


@triton.jit
def unknown_name_kernel(x, out, n, BLOCK: tl.constexpr):
    y = n + undefined_name  # <- # noqa: F821


@triton.jit
def plain_call_kernel(x, out, n, BLOCK: tl.constexpr):
    y = plain_python(n)  # <-


@triton.jit
def global_list_kernel(x, out, n, BLOCK: tl.constexpr):
    y = GLOBAL_LIST  # <-


@triton.jit
def global_array_kernel(x, out, n, BLOCK: tl.constexpr):
    y = GLOBAL_ARRAY  # <-


@triton.jit
def block_attribute_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = offs.nbytes  # <-


@triton.jit
def module_attribute_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.not_a_builtin(n)  # <-


@triton.jit
def int_attribute_kernel(x, out, n, BLOCK: tl.constexpr):
    y = BLOCK.real  # <-


@triton.jit
def print_kernel(x, out, n, BLOCK: tl.constexpr):
    print(n)  # <-


@triton.jit
def len_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = len(offs)  # <-


@triton.jit
def min_keyword_kernel(x, out, n, BLOCK: tl.constexpr):
    y = min(n, 4, key=None)  # <-


@triton.jit
def math_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    y = math.log2(n)  # <-


@triton.jit
def math_domain_kernel(x, out, n, BLOCK: tl.constexpr):
    y = math.sqrt(-1.0)  # <-


@triton.jit
def call_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.float32(n)  # <-


@triton.jit
def starred_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.load(*x)  # <-


@triton.jit
def double_star_kernel(x, out, n, BLOCK: tl.constexpr):
    opts = 1
    y = tl.load(x, **opts)  # <-


@triton.jit
def builtin_missing_arg_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0)  # <-


@triton.jit
def builtin_bad_keyword_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x, msk=None)  # <-


@triton.jit
def helper(a, b, SCALE: tl.constexpr):
    return a * SCALE + b


@triton.jit
def recursive_helper(a):
    return recursive_helper(a)  # <-


@triton.jit
def recursive_kernel(x, out, n, BLOCK: tl.constexpr):
    y = recursive_helper(n)


@triton.jit
def helper_arity_kernel(x, out, n, BLOCK: tl.constexpr):
    y = helper(n)  # <-


@triton.jit
def index_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    y = (1, 2)[n]  # <-


@triton.jit
def index_out_of_range_kernel(x, out, n, BLOCK: tl.constexpr):
    y = (1, 2)[5]  # <-


@triton.jit
def index_block_int_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = offs[0]  # <-


@triton.jit
def index_block_slice_start_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = offs[None, 2:]  # <-


@triton.jit
def index_block_slice_step_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = offs[None:None:2]  # <-


@triton.jit
def index_block_constexpr_bound_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = offs[:BLOCK]  # <-


@triton.jit
def index_block_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = offs[n]  # <-


@triton.jit
def hasattr_arity_kernel(x, out, n, BLOCK: tl.constexpr):
    found = hasattr(x)  # <-


@triton.jit
def hasattr_name_kernel(x, out, n, BLOCK: tl.constexpr):
    found = hasattr(x, BLOCK)  # <-


@triton.jit
def getattr_missing_kernel(x, out, n, BLOCK: tl.constexpr):
    found = getattr(n, "element_ty")  # <-  # noqa: B009


@triton.jit
def in_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    y = n in (1, 2)  # <-


@triton.jit
def compile_time_div_zero_kernel(x, out, n, BLOCK: tl.constexpr):
    y = BLOCK // 0  # <-


@triton.jit
def power_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    y = n**2  # <-


@triton.jit
def shift_float_kernel(x, out, n, BLOCK: tl.constexpr):
    y = (n * 1.5) << 1  # <-


@triton.jit
def matmul_operator_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((BLOCK, BLOCK), tl.float32)
    y = a @ a  # <-


@triton.jit
def string_operand_kernel(x, out, n, BLOCK: tl.constexpr):
    y = n + "a"  # <-


# ------------------------------------------------------------------ types and values


@triton.jit
def arange_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, n)  # <-


@triton.jit
def arange_float_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, 16.0)  # <-


@triton.jit
def arange_not_pow2_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, 12)  # <-


@triton.jit
def arange_empty_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(8, 8)  # <-


@triton.jit
def arange_negative_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(-4, 4)  # <-


@triton.jit
def shape_not_pow2_kernel(x, out, n, BLOCK: tl.constexpr):
    z = tl.zeros((BLOCK, 12), tl.float32)  # <-


@triton.jit
def shape_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    z = tl.zeros((n,), tl.float32)  # <-


@triton.jit
def shape_float_kernel(x, out, n, BLOCK: tl.constexpr):
    z = tl.full((16.0,), 1.0, tl.float32)  # <-


@triton.jit
def shape_zero_kernel(x, out, n, BLOCK: tl.constexpr):
    z = tl.empty((0,), tl.float32)  # <-


@triton.jit
def not_a_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    z = tl.zeros((BLOCK,), 3)  # <-


@triton.jit
def unsupported_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    z = tl.zeros((BLOCK,), tl.void)  # <-


@triton.jit
def unsupported_cast_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    w = v.to(tl.pointer_type(tl.int32))  # <-


@triton.jit
def int_too_big_kernel(x, out, n, BLOCK: tl.constexpr):
    y = n + 2**64  # <-


@triton.jit
def floordiv_float_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    w = v // 2.0  # <-


@triton.jit
def bitand_float_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    w = v & 1  # <-


@triton.jit
def bitor_float_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    w = v | v  # <-


@triton.jit
def bitxor_float_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    w = v ^ v  # <-


@triton.jit
def invert_float_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    w = ~v  # <-


@triton.jit
def exp_int_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    w = tl.exp(offs)  # <-


@triton.jit
def sigmoid_int_kernel(x, out, n, BLOCK: tl.constexpr):
    w = tl.sigmoid(n)  # <-


@triton.jit
def pointer_plus_float_kernel(x, out, n, BLOCK: tl.constexpr):
    p = x + 1.5  # <-


@triton.jit
def pointer_minus_bool_kernel(x, out, n, BLOCK: tl.constexpr):
    p = x - (n > 0)  # <-


@triton.jit
def pointer_times_int_kernel(x, out, n, BLOCK: tl.constexpr):
    p = x * 2  # <-


@triton.jit
def pointer_plus_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = x + out  # <-


@triton.jit
def int_minus_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = 1 - x  # <-


@triton.jit
def negate_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = -x  # <-


@triton.jit
def abs_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.abs(x)  # <-


@triton.jit
def pointer_truth_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.where(x, 1.0, 2.0)  # <-


@triton.jit
def cast_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    p = x.to(tl.int32)  # <-


@triton.jit
def where_pointer_mix_kernel(x, out, n, BLOCK: tl.constexpr):
    p = tl.where(n > 0, x, out)  # <-


@triton.jit
def float_bitwise_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK)) & n  # <-


@triton.jit
def broadcast_mismatch_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.arange(0, 16) + tl.arange(0, 8)  # <-


@triton.jit
def broadcast_to_bad_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.broadcast_to(tl.arange(0, 16), (8,))  # <-


@triton.jit
def expand_dims_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.expand_dims(tl.arange(0, 16), 3)  # <-


@triton.jit
def zeros_like_module_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.zeros_like(tl)  # <-


@triton.jit
def full_block_value_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    y = tl.full((BLOCK,), v, tl.float32)  # <-


@triton.jit
def full_string_value_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.full((BLOCK,), "a", tl.float32)  # <-


# ------------------------------------------------------------------ program model and memory


@triton.jit
def program_id_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(3)  # <-


@triton.jit
def program_id_runtime_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(n)  # <-


@triton.jit
def expand_dims_negative_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.expand_dims(tl.arange(0, 16), (0, -4))  # <-


@triton.jit
def expand_dims_scalar_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.expand_dims(n, 1)  # <-


@triton.jit
def expand_dims_duplicate_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.expand_dims(tl.arange(0, 16), (2, -1))  # <-


@triton.jit
def num_programs_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.num_programs(-1)  # <-


@triton.jit
def load_other_without_mask_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK), other=0.0)  # <-


@triton.jit
def load_not_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(tl.arange(0, BLOCK))  # <-


@triton.jit
def load_boundary_check_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x, boundary_check=(0,))  # <-


@triton.jit
def load_other_too_big_kernel(x, out, n, BLOCK: tl.constexpr):
    o = tl.zeros((BLOCK,), tl.float32)
    v = tl.load(x + n, mask=n > 0, other=o)  # <-


@triton.jit
def store_block_to_scalar_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    tl.store(out, v)  # <-


@triton.jit
def store_mask_too_big_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.store(out, 1.0, mask=tl.arange(0, BLOCK) < n)  # <-


@triton.jit
def store_not_pointer_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.store(n, 1.0)  # <-


# ------------------------------------------------------------------ reductions and dot


@triton.jit
def reduce_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    s = tl.sum(v, axis=1)  # <-


@triton.jit
def reduce_runtime_axis_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    s = tl.max(v, axis=n)  # <-


@triton.jit
def reduce_scalar_kernel(x, out, n, BLOCK: tl.constexpr):
    s = tl.sum(n)  # <-


@triton.jit
def reduce_pointers_kernel(x, out, n, BLOCK: tl.constexpr):
    s = tl.min(x + tl.arange(0, BLOCK), axis=0)  # <-


@triton.jit
def clamp_int_kernel(x, out, n, BLOCK: tl.constexpr):
    s = tl.clamp(tl.arange(0, BLOCK), 0, n)  # <-


@triton.jit
def fdiv_int_kernel(x, out, n, BLOCK: tl.constexpr):
    s = tl.fdiv(tl.load(x + tl.arange(0, BLOCK)), n)  # <-


@triton.jit
def fdiv_mixed_kernel(x, out, n, BLOCK: tl.constexpr):
    s = tl.fdiv(tl.load(x + tl.arange(0, BLOCK)).to(tl.float16), 0.5)  # <-


@triton.jit
def mod_int_by_bool_kernel(x, out, n, BLOCK: tl.constexpr):
    s = tl.arange(0, BLOCK) % (tl.arange(0, BLOCK) < n)  # <-


@triton.jit
def div_bool_by_int_kernel(x, out, n, BLOCK: tl.constexpr):
    s = (tl.arange(0, BLOCK) < n) / 3  # <-


@triton.jit
def dot_inner_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 8), tl.float32)
    b = tl.zeros((16, 8), tl.float32)
    c = tl.dot(a, b)  # <-


@triton.jit
def dot_rank_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16,), tl.float32)
    c = tl.dot(a, a)  # <-


@triton.jit
def dot_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.int32)
    c = tl.dot(a, a)  # <-


@triton.jit
def dot_out_dtype_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 16), tl.float16)
    c = tl.dot(a, a, out_dtype=tl.int32)  # <-


@triton.jit
def dot_acc_shape_kernel(x, out, n, BLOCK: tl.constexpr):
    a = tl.zeros((16, 8), tl.float32)
    b = tl.zeros((8, 32), tl.float32)
    acc = tl.zeros((16, 16), tl.float32)
    c = tl.dot(a, b, acc)  # <-


@triton.jit
def static_assert_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK > 64, "BLOCK must exceed 64")  # <-


@triton.jit
def static_assert_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.static_assert(n > 64)  # <-


@triton.jit
def compile_time_matmul_operator_kernel(x, out, n, BLOCK: tl.constexpr):
    y = BLOCK @ BLOCK  # <-


@triton.jit
def compile_time_invert_float_kernel(x, out, n, BLOCK: tl.constexpr):
    y = ~2.5  # <-


@triton.jit
def compile_time_compare_kernel(x, out, n, BLOCK: tl.constexpr):
    y = BLOCK < "a"  # <-


@triton.jit
def broadcast_to_lower_rank_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.broadcast_to(tl.zeros((4, BLOCK), tl.float32), (BLOCK,))  # <-


@triton.jit
def store_boundary_check_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.store(out, 1.0, boundary_check=(0,))  # <-


@triton.jit
def propagate_nan_bool_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    y = tl.maximum(v, 0.0, propagate_nan=True)  # <-


@triton.jit
def propagate_nan_int_kernel(x, out, n, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    y = tl.clamp(v, 0.0, 1.0, propagate_nan=0xFFFF)  # <-


@triton.jit
def propagate_nan_runtime_kernel(x, out, n, BLOCK: tl.constexpr):
    y = tl.minimum(n, 0, propagate_nan=n)  # <-


CASES = [
    # control flow
    (while_kernel, UnsupportedSyntaxError, ("`while ... else`",), "while"),
    (if_on_block_kernel, KernelTypeError, ("condition of an `if` must be a scalar",), "tl.arange"),
    (if_type_change_kernel, KernelTypeError, ("`v`", "one type after the `if`"), "if"),
    (if_compile_time_value_kernel, KernelTypeError, ("`d`", "compile-time"), "if"),
    (failed_assert_kernel, KernelValueError, ("assertion failed", "BLOCK too small"), "assert"),
    (return_value_kernel, KernelValueError, ("cannot return a value",), "return"),
    (for_else_kernel, UnsupportedSyntaxError, ("`for ... else`",), "for"),
    (tuple_target_kernel, UnsupportedSyntaxError, ("loop target",), "i, j"),
    (iterate_list_kernel, UnsupportedSyntaxError, ("iterating over",), "[1, 2]"),
    (iterate_call_kernel, UnsupportedSyntaxError, ("iterating over",), "enumerate"),
    (range_keyword_kernel, UnsupportedSyntaxError, ("keyword arguments to range",), "range"),
    (range_arity_kernel, KernelTypeError, ("range expects 1 to 3 arguments",), "range"),
    (static_range_runtime_kernel, ConstexprError, ("tl.static_range bounds",), "tl.static_range"),
    (float_bound_kernel, KernelTypeError, ("range bounds and step must be int32", "fp32"), "range"),
    (
        carried_type_change_kernel,
        KernelTypeError,
        ("loop-carried variable `acc`", "int32", "fp32"),
        "for",
    ),
    (
        carried_block_shape_change_kernel,
        KernelTypeError,
        ("loop-carried variable `acc`", "[16]", "[16, 2]"),
        "for",
    ),
    (carried_tuple_kernel, KernelTypeError, ("`t`", "tuple", "loop-carried"), "for"),
    (loop_local_escapes_kernel, KernelNameError, ("`inner` is not defined",), "inner"),
    (static_range_outside_for_kernel, KernelValueError, ("for loop",), "tl.static_range"),
    (tl_range_outside_for_kernel, KernelValueError, ("for loop",), "tl.range"),
    # syntax
    (chained_compare_kernel, UnsupportedSyntaxError, ("chained comparisons",), "0 < offs"),
    (nested_def_kernel, UnsupportedSyntaxError, ("nested function definition",), "def"),
    (lambda_kernel, UnsupportedSyntaxError, ("`Lambda`",), "lambda"),
    (subscript_assign_kernel, UnsupportedSyntaxError, ("assignment to `offs[0]`",), "offs[0]"),
    (attribute_assign_kernel, UnsupportedSyntaxError, ("assignment to `x.dtype`",), "x.dtype"),
    (
        subscript_augassign_kernel,
        UnsupportedSyntaxError,
        ("augmented assignment to `offs[0]`",),
        "offs[0]",
    ),
    (annotation_only_kernel, UnsupportedSyntaxError, ("annotation without a value",), "y:"),
    (
        runtime_constexpr_annotation_kernel,
        ConstexprError,
        ("`C` is annotated tl.constexpr", "run time"),
        "C:",
    ),
    (dict_literal_kernel, UnsupportedSyntaxError, ("`Dict`",), "{"),
    (list_comprehension_kernel, UnsupportedSyntaxError, ("over range", "only tuples"), "range"),
    (with_kernel, UnsupportedSyntaxError, ("`With`",), "with"),
    (global_statement_kernel, UnsupportedSyntaxError, ("`Global`",), "global"),
    (unpack_scalar_kernel, KernelTypeError, ("cannot unpack", "2 names"), "a, b"),
    (unpack_count_kernel, KernelValueError, ("cannot unpack 3 values into 2 names",), "a, b"),
    (fstring_runtime_kernel, UnsupportedSyntaxError, ("formatting a runtime value",), 'f"n is'),
    # names and calls
    (unknown_name_kernel, KernelNameError, ("`undefined_name` is not defined",), "undefined_name"),
    # Triton's rule: a plain (not tl.constexpr(...)) global is refused by name
    (plain_call_kernel, KernelNameError, (NO_GLOBAL + "plain_python",), "plain_python"),
    (global_list_kernel, KernelNameError, (NO_GLOBAL + "GLOBAL_LIST",), "GLOBAL_LIST"),
    (global_array_kernel, KernelNameError, (NO_GLOBAL + "GLOBAL_ARRAY",), "GLOBAL_ARRAY"),
    (block_attribute_kernel, KernelNameError, ("no attribute `nbytes`",), "offs.nbytes"),
    (module_attribute_kernel, KernelNameError, ("no attribute `not_a_builtin`",), "tl.not_a"),
    (int_attribute_kernel, KernelNameError, ("attribute `real` of int",), "BLOCK.real"),
    # print() is tl.device_print (Triton's rule): its first argument is the prefix string
    (print_kernel, ConstexprError, ("tl.device_print's prefix", "compile-time"), "print"),
    (len_runtime_kernel, ConstexprError, ("len() needs compile-time arguments",), "len"),
    (min_keyword_kernel, UnsupportedSyntaxError, ("keyword arguments to min()",), "min"),
    (math_runtime_kernel, ConstexprError, ("log2 needs compile-time arguments",), "math.log2"),
    (math_domain_kernel, KernelValueError, ("sqrt()", "math domain error"), "math.sqrt"),
    (call_dtype_kernel, UnsupportedSyntaxError, ("calling dtype fp32", "x.to"), "tl.float32"),
    (starred_runtime_kernel, UnsupportedSyntaxError, ("`*` on a runtime value",), "*x"),
    (double_star_kernel, UnsupportedSyntaxError, ("`**` in a call",), "**opts"),
    (builtin_missing_arg_kernel, KernelTypeError, ("tl.arange", "end"), "tl.arange"),
    (builtin_bad_keyword_kernel, KernelTypeError, ("tl.load", "msk"), "tl.load"),
    (helper_arity_kernel, KernelTypeError, ("calling `helper`",), "helper"),
    (index_runtime_kernel, UnsupportedSyntaxError, ("indexing a compile-time value",), "(1, 2)"),
    (index_out_of_range_kernel, KernelValueError, ("cannot index",), "(1, 2)"),
    (index_block_int_kernel, UnsupportedSyntaxError, ("unsupported tensor index: `0`",), "offs"),
    (
        index_block_slice_start_kernel,
        UnsupportedSyntaxError,
        ("unsupported tensor index: `2:`", "`None` and `:`"),
        "offs",
    ),
    (index_block_slice_step_kernel, UnsupportedSyntaxError, ("index: `None:None:2`",), "offs"),
    (index_block_constexpr_bound_kernel, UnsupportedSyntaxError, ("index: `:BLOCK`",), "offs"),
    (index_block_runtime_kernel, UnsupportedSyntaxError, ("index: `n`",), "offs"),
    (hasattr_arity_kernel, KernelTypeError, ("hasattr() takes an object and",), "hasattr"),
    (hasattr_name_kernel, KernelTypeError, ("must be a compile-time string", "16"), "hasattr"),
    (getattr_missing_kernel, KernelNameError, ("no attribute `element_ty`",), "getattr"),
    (in_runtime_kernel, UnsupportedSyntaxError, ("`in` on runtime values",), "n in"),
    (compile_time_div_zero_kernel, KernelValueError, ("cannot compute 16 // 0",), "BLOCK // 0"),
    (power_runtime_kernel, UnsupportedSyntaxError, ("operator `**`",), "n**2"),
    (shift_float_kernel, KernelTypeError, ("operator << needs integer operands",), "(n * 1.5)"),
    (matmul_operator_kernel, UnsupportedSyntaxError, ("operator `@`",), "a @ a"),
    (string_operand_kernel, KernelTypeError, ("type str",), 'n + "a"'),
    # types and values
    (arange_runtime_kernel, ConstexprError, ("arange end", "compile-time"), "tl.arange"),
    (arange_float_kernel, KernelTypeError, ("arange end must be an integer",), "tl.arange"),
    (arange_not_pow2_kernel, KernelValueError, ("12", "power of two"), "tl.arange"),
    (arange_empty_kernel, KernelValueError, ("end (8) must be greater than start (8)",), "tl."),
    (arange_negative_kernel, KernelValueError, ("start must be non-negative",), "tl.arange"),
    (shape_not_pow2_kernel, KernelValueError, ("invalid block shape", "power of two"), "tl.zeros"),
    (shape_runtime_kernel, ConstexprError, ("block shape", "compile-time"), "tl.zeros"),
    (shape_float_kernel, KernelTypeError, ("block shape must be an int",), "tl.full"),
    (shape_zero_kernel, KernelValueError, ("must be positive",), "tl.empty"),
    (not_a_dtype_kernel, KernelTypeError, ("expected a dtype",), "tl.zeros"),
    (unsupported_dtype_kernel, KernelTypeError, ("void is not supported",), "tl.zeros"),
    (unsupported_cast_kernel, KernelTypeError, ("cannot convert fp32 to pointer<int32>",), "v.to"),
    (
        int_too_big_kernel,
        KernelValueError,
        (str(2**64), "does not fit in int64 or uint64"),
        "n + 2**64",
    ),
    (floordiv_float_kernel, KernelTypeError, ("`//` needs integer operands",), "v // 2.0"),
    (bitand_float_kernel, KernelTypeError, ("operator &", "fp32"), "v & 1"),
    (bitor_float_kernel, KernelTypeError, ("operator |", "fp32"), "v | v"),
    (bitxor_float_kernel, KernelTypeError, ("operator ^", "fp32"), "v ^ v"),
    (invert_float_kernel, KernelTypeError, ("operator ~", "fp32"), "~v"),
    (exp_int_kernel, KernelTypeError, ("tl.exp expects a float", "int32"), "tl.exp"),
    (sigmoid_int_kernel, KernelTypeError, ("tl.sigmoid expects a float",), "tl.sigmoid"),
    (pointer_plus_float_kernel, KernelTypeError, ("pointer offsets must be integers",), "x + 1.5"),
    (pointer_minus_bool_kernel, KernelTypeError, ("subtract a boolean",), "x - (n > 0)"),
    (
        pointer_times_int_kernel,
        KernelTypeError,
        ("operator * is not defined on pointers",),
        "x * 2",
    ),
    (pointer_plus_pointer_kernel, KernelTypeError, ("two pointers",), "x + out"),
    (int_minus_pointer_kernel, KernelTypeError, ("subtract a pointer",), "1 - x"),
    (negate_pointer_kernel, KernelTypeError, ("negate a pointer",), "-x"),
    (abs_pointer_kernel, KernelTypeError, ("tl.abs of a pointer",), "tl.abs"),
    (pointer_truth_kernel, KernelTypeError, ("pointer has no truth value",), "tl.where"),
    (cast_pointer_kernel, KernelTypeError, ("cannot convert pointer<fp32> to int32",), "x.to"),
    (broadcast_mismatch_kernel, KernelTypeError, ("incompatible shapes", "[16]", "[8]"), "tl."),
    # Triton's words first (its tests match "invalid operands of type")
    (
        float_bitwise_kernel,
        KernelTypeError,
        ("invalid operands of type fp32 and int32", "operator & needs integer or boolean"),
        "tl.load",
    ),
    (broadcast_to_bad_kernel, KernelTypeError, ("cannot broadcast shape [16] to [8]",), "tl."),
    (
        expand_dims_axis_kernel,
        KernelValueError,
        ("invalid axis 3. Expected -2 <= axis < 2",),
        "tl.",
    ),
    (
        expand_dims_negative_axis_kernel,
        KernelValueError,
        ("invalid axis -4. Expected -3 <= axis < 3",),
        "tl.expand_dims",
    ),
    (expand_dims_scalar_axis_kernel, KernelValueError, ("invalid axis 1. Expected -1",), "tl."),
    (
        expand_dims_duplicate_kernel,
        KernelValueError,
        ("expand_dims received duplicate axes, normalized axes = [2, 2]",),
        "tl.expand_dims",
    ),
    (zeros_like_module_kernel, KernelTypeError, ("zeros_like's input must be a value",), "tl."),
    (full_block_value_kernel, KernelTypeError, ("fill value must be a scalar",), "tl.full"),
    (full_string_value_kernel, KernelTypeError, ("value must be a number",), "tl.full"),
    # program model and memory
    (program_id_axis_kernel, KernelValueError, ("axis must be 0, 1, or 2 but got 3",), "tl."),
    (program_id_runtime_axis_kernel, ConstexprError, ("program_id axis",), "tl.program_id"),
    (
        num_programs_axis_kernel,
        KernelValueError,
        ("num_programs axis must be 0, 1, or 2 but got -1",),
        "tl.num_programs",
    ),
    (load_other_without_mask_kernel, KernelValueError, ("`other`", "without `mask`"), "tl.load"),
    (load_not_pointer_kernel, KernelTypeError, ("expected a pointer",), "tl.load"),
    (load_boundary_check_kernel, KernelValueError, ("boundary_check", "not supported"), "tl.load"),
    (load_other_too_big_kernel, KernelTypeError, ("`other` of shape [16]",), "tl.load"),
    (store_block_to_scalar_kernel, KernelTypeError, ("shape [16] cannot be stored",), "tl.store"),
    (store_mask_too_big_kernel, KernelTypeError, ("mask of shape [16]",), "tl.store"),
    (store_not_pointer_kernel, KernelTypeError, ("expected a pointer",), "tl.store"),
    # reductions and dot
    (reduce_axis_kernel, KernelValueError, ("axis 1 out of range", "rank-1"), "tl.sum"),
    (reduce_runtime_axis_kernel, ConstexprError, ("axis must be a compile-time",), "tl.max"),
    (reduce_scalar_kernel, KernelTypeError, ("tl.sum needs a block",), "tl.sum"),
    (reduce_pointers_kernel, KernelTypeError, ("tl.min of pointers",), "tl.min"),
    (clamp_int_kernel, KernelTypeError, ("tl.clamp of int32", "floating point"), "tl.clamp"),
    (fdiv_int_kernel, KernelTypeError, ("both operands of fdiv", "int32"), "tl.fdiv"),
    (fdiv_mixed_kernel, KernelTypeError, ("tl.fdiv of fp16 and fp32", ".to()"), "tl.fdiv"),
    (mod_int_by_bool_kernel, KernelTypeError, ("int32 and int1", "signedness"), "tl.arange"),
    (div_bool_by_int_kernel, KernelTypeError, ("int1 and int32", "signedness"), "(tl.arange"),
    (dot_inner_kernel, KernelTypeError, ("inner dimensions differ", "[16, 8] x [16, 8]"), "tl.dot"),
    (dot_rank_kernel, KernelTypeError, ("rank-2 block", "[16]"), "tl.dot"),
    (dot_dtype_kernel, KernelTypeError, ("float32", "int32"), "tl.dot"),
    (dot_out_dtype_kernel, KernelTypeError, ("out_dtype",), "tl.dot"),
    (dot_acc_shape_kernel, KernelTypeError, ("acc must be", "[16, 32]"), "tl.dot"),
    (static_assert_kernel, StaticAssertionError, ("static_assert failed", "exceed 64"), "tl."),
    (static_assert_runtime_kernel, ConstexprError, ("static_assert",), "tl.static_assert"),
    (
        compile_time_matmul_operator_kernel,
        UnsupportedSyntaxError,
        ("operator `@`",),
        "BLOCK @ BLOCK",
    ),
    (compile_time_invert_float_kernel, KernelValueError, ("cannot compute `~2.5`",), "~2.5"),
    (compile_time_compare_kernel, KernelValueError, ("cannot compute 16 < 'a'",), "BLOCK <"),
    (
        broadcast_to_lower_rank_kernel,
        KernelTypeError,
        ("cannot broadcast shape [4, 16] to [16]",),
        "tl.broadcast_to",
    ),
    (store_boundary_check_kernel, KernelValueError, ("tl.store", "boundary_check"), "tl.store"),
    (
        propagate_nan_bool_kernel,
        KernelValueError,
        ("tl.maximum: propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL", "True"),
        "tl.maximum",
    ),
    (propagate_nan_int_kernel, KernelValueError, ("tl.clamp: propagate_nan", "65535"), "tl.clamp"),
    (
        propagate_nan_runtime_kernel,
        ConstexprError,
        ("tl.minimum's propagate_nan must be a compile-time constant",),
        "tl.minimum",
    ),
]


@pytest.mark.parametrize(
    ("kernel", "cls", "words", "at"), CASES, ids=[c[0].__name__ for c in CASES]
)
def test_rejected_construct(kernel, cls, words, at):
    args = (*ARGS, 1.5) if kernel is float_bound_kernel else ARGS
    expect_error(kernel, args, KW, cls, words, at)


PLAIN_GLOBAL_CASES = [
    (plain_call_kernel, ("cannot call `plain_python`",), "plain_python("),
    (global_list_kernel, ("global `GLOBAL_LIST`", "list"), "GLOBAL_LIST"),
    (global_array_kernel, ("global `GLOBAL_ARRAY`", "ndarray"), "GLOBAL_ARRAY"),
]


@pytest.mark.parametrize(
    ("kernel", "words", "at"), PLAIN_GLOBAL_CASES, ids=[c[0].__name__ for c in PLAIN_GLOBAL_CASES]
)
def test_plain_globals_allowed_by_env_must_be_compile_time(monkeypatch, kernel, words, at):
    """With ``TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1`` a plain global is read, and must still be
    a compile-time value (or a callable the kernel may call)."""
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "1")
    expect_error(kernel, ARGS, KW, KernelNameError, words, at)


def test_every_case_kernel_is_listed():
    """A kernel defined in this file but missing from CASES would silently go untested."""
    listed = {c[0] for c in CASES} | {
        recursive_kernel,
        where_pointer_mix_kernel,
        keyword_only_kernel,
        star_args_kernel,
    }
    defined = {
        v for k, v in globals().items() if k.endswith("_kernel") and hasattr(v, "is_mytriton_jit")
    }
    assert defined - listed == set()


# ------------------------------------------------------------------ kernels whose shape is wrong


@triton.jit
def star_args_kernel(x, *rest):  # <-
    pass


@triton.jit
def keyword_only_kernel(x, *, n):  # <-
    pass


def test_star_args_parameter_rejected():
    expect_error(star_args_kernel, (X,), {}, UnsupportedSyntaxError, ("*args",), "def")


def test_keyword_only_parameter_rejected():
    expect_error(
        keyword_only_kernel, (X,), {"n": 1}, UnsupportedSyntaxError, ("keyword-only",), "def"
    )


def test_unsupported_array_dtype_names_parameter():
    with pytest.raises(
        LaunchError, match=r"argument `x` has dtype complex64, which kernels cannot take"
    ):

        @triton.jit
        def k(x, out):
            pass

        k[(1,)](np.zeros(4, np.complex64), Y)


def test_recursive_call_located_in_the_helper():
    """An error inside an inlined @jit helper is raised at the call, caused by the error at the
    helper's own source line (Triton chains them the same way)."""
    with pytest.raises(UnsupportedSyntaxError) as info:
        recursive_kernel.warmup(*ARGS, grid=(1,), **KW)
    at_call = info.value
    assert at_call.loc is not None and at_call.loc.scope is not None
    assert at_call.loc.scope.name == "recursive_kernel"
    err = at_call.__cause__
    assert isinstance(err, UnsupportedSyntaxError) and err.loc is not None
    assert "recursive call of @jit function `recursive_helper`" in err.message
    file, line, text = marked_line(recursive_helper)
    assert (err.loc.file, err.loc.line) == (file, line)
    assert text[err.loc.col - 1 :].startswith("recursive_helper(a)")


def test_int32_array_pointer_mix_in_where():
    err = expect_error(
        where_pointer_mix_kernel, (XI, Y, 16), KW, KernelTypeError, ("pointers of different",), None
    )
    assert err.loc is not None


def test_source_unavailable_for_generated_kernel():
    """Compiled from a string under a made-up file name: no file holds it, and only
    ``<string>`` sources are kept (``exec_sources``)."""
    namespace: dict = {"tl": tl}
    code = compile("def made_by_exec(x, BLOCK: tl.constexpr):\n    pass\n", "<generated>", "exec")
    exec(code, namespace)
    kernel = triton.jit(namespace["made_by_exec"])
    with pytest.raises(SourceUnavailableError) as info:
        kernel.warmup(X, grid=(1,), BLOCK=16)
    assert "made_by_exec" in info.value.message
    assert "source" in info.value.message


def test_lambda_kernel_rejected():
    kernel = triton.jit(lambda x: x)
    with pytest.raises(CompilationError) as info:
        kernel.warmup(X, grid=(1,))
    assert "plain `def`" in str(info.value)


def test_error_report_format_has_four_lines():
    """``file:line:col: error: in KERNEL at L:C:`` (Triton's position: line from the ``def``,
    0-based column), the source line, a caret line (Python's own layout), the message last (as
    in Triton)."""
    with pytest.raises(UnsupportedSyntaxError) as info:
        while_kernel.warmup(*ARGS, grid=(1,), **KW)
    lines = str(info.value).splitlines()
    assert len(lines) == 4
    assert lines[0].endswith(": error: in while_kernel at 3:4:")
    assert lines[1] == "        while i < n:  # <-"
    assert lines[2] == "        ^"
    assert lines[3] == "`while ... else` is not supported in a kernel"


def test_internal_errors_are_still_located(monkeypatch):
    """A bug (any exception) while compiling a line is reported at that line, not swallowed."""
    from mytriton.frontend.builtins import Builtins

    def broken(self, x):
        raise RuntimeError("boom")

    monkeypatch.setattr(Builtins, "exp", broken)
    err = expect_error(
        exp_int_kernel,
        ARGS,
        KW,
        CompilationError,
        ("internal error while compiling this line", "RuntimeError: boom"),
        "tl.exp",
    )
    assert isinstance(err.__cause__, RuntimeError)


def test_compile_kernel_needs_every_parameter():
    from mytriton.frontend import ConstexprArg, PointerArg, compile_kernel

    specs = {"x": PointerArg(tl.float32), "out": PointerArg(tl.float32), "n": ConstexprArg(1)}
    with pytest.raises(KernelValueError, match="no value for kernel parameter `BLOCK`"):
        compile_kernel(while_kernel.fn, specs)
    specs["BLOCK"] = "sixteen"
    with pytest.raises(KernelTypeError, match="bad specification 'sixteen' for parameter `BLOCK`"):
        compile_kernel(while_kernel.fn, specs)


def test_compile_kernel_returns_a_verified_module():
    from xdsl.dialects.builtin import ModuleOp

    from mytriton.frontend import ConstexprArg, PointerArg, ScalarArg, compile_kernel

    specs = {
        "x": PointerArg(tl.float32),
        "out": PointerArg(tl.int32),
        "n": ScalarArg(tl.int32),
        "BLOCK": ConstexprArg(16),
    }
    module = compile_kernel(static_assert_kernel.fn, {**specs, "BLOCK": ConstexprArg(128)})
    assert isinstance(module, ModuleOp)
    assert "func.func @static_assert_kernel(%x: !tt.ptr<f32>, %out: !tt.ptr<i32>, %n: i32)" in str(
        module
    )
