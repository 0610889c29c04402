"""``tl.atomic_*`` arguments Triton rejects, each a typed error at the call's line; and the
accepted forms compile."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, KernelValueError
from tests.frontend.util import X, expect_error, op_lines, tt

H = np.zeros(64, dtype=np.float16)
B = np.zeros(64, dtype=np.int8)
S = np.zeros(64, dtype=np.int16)


@triton.jit
def and_on_float_kernel(x, h, b, s):
    tl.atomic_and(x, 1.0)  # <-


@triton.jit
def xor_on_float_block_kernel(x, h, b, s):
    offs = tl.arange(0, 16)
    tl.atomic_xor(x + offs, offs.to(tl.float32))  # <-


@triton.jit
def max_on_half_kernel(x, h, b, s):
    tl.atomic_max(h, 1.0)  # <-


@triton.jit
def xchg_on_half_kernel(x, h, b, s):
    tl.atomic_xchg(h, 1.0)  # <-


@triton.jit
def add_on_int8_kernel(x, h, b, s):
    tl.atomic_add(b, 1)  # <-


@triton.jit
def add_on_int16_kernel(x, h, b, s):
    tl.atomic_add(s, 1)  # <-


@triton.jit
def cas_on_int8_kernel(x, h, b, s):
    tl.atomic_cas(b, 0, 1)  # <-


@triton.jit
def bad_sem_kernel(x, h, b, s):
    tl.atomic_add(x, 1.0, sem="seq_cst")  # <-


@triton.jit
def bad_scope_kernel(x, h, b, s):
    tl.atomic_cas(x, 0.0, 1.0, scope="device")  # <-


@triton.jit
def runtime_sem_kernel(x, h, b, s):
    tl.atomic_add(x, 1.0, sem=tl.program_id(0))  # <-


@triton.jit
def not_a_pointer_kernel(x, h, b, s):
    tl.atomic_add(1.0, 1.0)  # <-


@triton.jit
def block_into_scalar_kernel(x, h, b, s):
    tl.atomic_add(x, tl.zeros((16,), tl.float32))  # <-


@triton.jit
def mask_too_big_kernel(x, h, b, s):
    offs = tl.arange(0, 16)
    tl.atomic_add(x + offs, 1.0, mask=tl.zeros((16, 16), tl.int1))  # <-


CASES = [
    (and_on_float_kernel, KernelTypeError, ("tl.atomic_and", "fp32")),
    (xor_on_float_block_kernel, KernelTypeError, ("tl.atomic_xor", "fp32")),
    (max_on_half_kernel, KernelTypeError, ("tl.atomic_max", "fp16")),
    (xchg_on_half_kernel, KernelTypeError, ("tl.atomic_xchg", "fp16")),
    (add_on_int8_kernel, KernelTypeError, ("tl.atomic_add", "int8")),
    (add_on_int16_kernel, KernelTypeError, ("tl.atomic_add", "int16")),
    (cas_on_int8_kernel, KernelTypeError, ("16, 32 or 64 bits", "int8")),
    (bad_sem_kernel, KernelValueError, ("sem='seq_cst'", "'acq_rel'")),
    (bad_scope_kernel, KernelValueError, ("scope='device'", "'gpu'")),
    (runtime_sem_kernel, KernelTypeError, ("sem must be a compile-time string",)),
    (not_a_pointer_kernel, KernelTypeError, ("expected a pointer",)),
    (block_into_scalar_kernel, KernelTypeError, ("shape [16]", "shape []")),
    (mask_too_big_kernel, KernelTypeError, ("mask of shape [16, 16]",)),
]


@pytest.mark.parametrize(("kernel", "cls", "words"), CASES, ids=[c[0].__name__ for c in CASES])
def test_rejected_atomic(kernel, cls, words):
    expect_error(kernel, (X, H, B, S), {}, cls, words, "tl.atomic")


@triton.jit
def accepted_kernel(x, h, b, s):
    offs = tl.arange(0, 16)
    tl.atomic_add(h, 1.0)
    tl.atomic_cas(s, 0, 1)
    tl.atomic_max(x + offs, 2, mask=offs < 3, sem="relaxed", scope="cta")
    (x + offs).atomic_xchg(1.5, sem=tl.constexpr("release"), scope="sys")


def test_accepted_forms_build_one_op_each():
    """An int value is cast to the pointee, scalars broadcast to the pointers; the defaults
    are acq_rel at gpu scope."""
    ir = tt(accepted_kernel, X, H, B, S)
    rmw = op_lines(ir, "tt.atomic_rmw")
    assert "add, acq_rel, gpu, %h" in rmw[0] and rmw[0].endswith(": !tt.ptr<f16>")
    assert "max, relaxed, cta" in rmw[1] and rmw[1].endswith(": tensor<16x!tt.ptr<f32>>")
    assert "xchg, release, sys" in rmw[2]
    assert "acq_rel, gpu, %s" in op_lines(ir, "tt.atomic_cas")[0]
