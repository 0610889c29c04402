"""Issue 10 in the frontend: the scf.for of a runtime or negative step, tl.range's options as
loop attributes (disable_licm honoured by LICM), conditional expressions on runtime values,
and the typed errors: bad options, zero steps, non-integer bounds, a name bound on one path."""

# ruff: noqa: B007
from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelNameError, KernelTypeError, KernelValueError
from tests.frontend.util import X, Y, expect_error, loop_bodies, ops, tt

I = np.zeros(64, np.int32)  # noqa: E741


@triton.jit
def runtime_step_kernel(out, n, step):
    acc = 0
    for i in tl.range(0, n, step):
        acc += i
    tl.store(out, acc)


def test_runtime_step_counts_iterations_from_zero():
    ir = tt(runtime_step_kernel, I, 100, 7)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln)
    assert "scf.for %i_count = " in header
    (body,) = loop_bodies(ir)
    # an int32 loop may run 2**32 - 1 times: an int64 counter (a 32-bit one would read such a
    # count as negative and run zero times), the variable computed in int64 and wrapped back
    assert header.rstrip().endswith(": i64 {")
    mul = next(ln for ln in body.splitlines() if "tt.mul %i_count" in ln)
    assert mul.rstrip().endswith(": i64")
    assert any("%i = tt.cast" in ln and "i64 -> i32" in ln for ln in body.splitlines())
    assert "tt.div " in ir and ": ui32" in ir  # the trip count, in unsigned arithmetic
    assert "ui32 -> i64" in ir  # zero-extended


@triton.jit
def negative_step_kernel(out, n):
    for i in tl.range(n, 0, -4):
        tl.store(out + i, 1)


def test_negative_constant_step_mirrors_an_upward_loop():
    ir = tt(negative_step_kernel, I, 100)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln)
    assert "to %n step" in header  # iv runs upward over [0, n)
    assert "arith.constant 4 : i32" in ir and "tt.div " not in ir
    (body,) = loop_bodies(ir)
    assert "tt.sub %n, %i_count" in body


def test_positive_constant_step_keeps_the_plain_loop():
    ir = tt(runtime_step_kernel, I, 100, 16)  # 16 is a plain int argument, still runtime
    assert "%i_count" in ir
    (body,) = loop_bodies(tt(negative_step_kernel, I, 100))
    assert "%i =" in body


@triton.jit
def int64_kernel(out, n):
    acc = 0
    for i in range(0, n, 3):
        acc += 1
    tl.store(out, acc)


def test_int64_bound_makes_an_int64_loop():
    ir = tt(int64_kernel, I, 2**40)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln)
    assert header.rstrip().endswith(": i64 {"), header


@triton.jit
def options_kernel(x, out, n, s, DISABLE: tl.constexpr):
    acc = 0.0
    for i in tl.range(0, n, num_stages=3, loop_unroll_factor=2, flatten=True,
                      warp_specialize=True, disallow_acc_multi_buffer=True,
                      disable_licm=DISABLE):  # fmt: skip
        scale = s * 2.0  # pure, on a value from outside: LICM would hoist it
        acc += tl.load(x + i) * (scale + 1.0)
    tl.store(out, acc)


@pytest.mark.parametrize("stage", ["tt", "ttg"])
def test_options_become_loop_attributes(stage: str):
    ir = tt(options_kernel, X, Y, 100, 1.5, DISABLE=True, stage=stage)
    attrs = ir[ir.index("scf.yield") :]
    for a in (
        "tt.num_stages = 3 : i32",
        "tt.loop_unroll_factor = 2 : i32",
        "tt.flatten",
        "tt.warp_specialize",
        "tt.disallow_acc_multi_buffer",
        "tt.disable_licm",
    ):
        assert a in attrs, a


def _only_loop_body(ir: str) -> str:
    """The body of the one scf.for, whose closing line may carry attributes."""
    return ir[ir.index("scf.for") : ir.index("scf.yield")]


@pytest.mark.parametrize("stage", ["tt-opt", "ttg"])  # after the tt pipeline's LICM, ttg's
def test_disable_licm_keeps_invariant_ops_in_the_loop(stage: str):
    kept = _only_loop_body(tt(options_kernel, X, Y, 100, 1.5, DISABLE=True, stage=stage))
    hoisted = _only_loop_body(tt(options_kernel, X, Y, 100, 1.5, DISABLE=False, stage=stage))
    assert ops(kept).count("tt.mul") == 2 and ops(kept).count("tt.add") == 2
    assert ops(hoisted).count("tt.mul") == 1 and ops(hoisted).count("tt.add") == 1


@triton.jit
def ternary_kernel(x, out, n):
    v = tl.load(x + 1) if n > 3 else 0.5
    tl.store(out, v)


def test_runtime_conditional_expression_is_an_scf_if():
    ir = tt(ternary_kernel, X, Y, 10)
    assert ops(ir).count("scf.if") == 1
    then = ir[ir.index("scf.if") : ir.index("} else {")]
    assert "tt.load" in then  # the load runs only on its side


def test_static_range_negative_step_binds_compile_time_ints():
    @triton.jit
    def k(x, out, N: tl.constexpr):
        for i in tl.static_range(N, 0, -3):
            tl.static_assert(i % 3 == N % 3)
            tl.store(out + i, 1.0)

    ir = tt(k, X, Y, N=10)  # 10, 7, 4, 1
    assert ops(ir).count("tt.store") == 4 and "scf.for" not in ops(ir)


# ------------------------------------------------------------------ errors


@triton.jit
def bad_num_stages(out, n):
    for i in tl.range(0, n, num_stages="3"):  # <-
        tl.store(out + i, 1)


@triton.jit
def bad_flag(out, n):
    for i in tl.range(0, n, flatten=1):  # <-
        tl.store(out + i, 1)


@triton.jit
def unknown_option(out, n):
    for i in tl.range(0, n, unroll=2):  # <-
        tl.store(out + i, 1)


@triton.jit
def zero_static_step(out):
    for i in tl.static_range(0, 4, 0):  # <-
        tl.store(out + i, 1)


@triton.jit
def zero_runtime_loop_step(out, n):
    for i in tl.range(0, n, 0):  # <-
        tl.store(out + i, 1)


@triton.jit
def float_bound(out, n):
    for i in range(0, n, 2.0):  # <-
        tl.store(out, 1)


@triton.jit
def block_condition(out, n):
    offs = tl.arange(0, 16)
    v = 1 if offs < n else 2  # <-
    tl.store(out + offs, v)


@triton.jit
def mismatched_sides(x, out, n):
    offs = tl.arange(0, 16)
    v = tl.load(x + offs) if n > 0 else tl.load(x)  # <-
    tl.store(out + offs, v)


@triton.jit
def one_path_only(out, n):
    if n > 3:
        y = n * 2
    tl.store(out, y)  # <-


@triton.jit
def loop_local(out, n):
    for i in range(n):
        z = i
    tl.store(out, z)  # <-


@pytest.mark.parametrize(
    ("kernel", "args", "cls", "words", "at"),
    [
        (bad_num_stages, (I, 8), KernelTypeError, ("num_stages", "compile-time int"), "tl.range"),
        (bad_flag, (I, 8), KernelTypeError, ("flatten", "compile-time bool"), "tl.range"),
        (unknown_option, (I, 8), KernelTypeError, ("unroll",), "tl.range"),
        (zero_static_step, (I,), KernelValueError, ("must not be zero",), "tl.static_range"),
        (zero_runtime_loop_step, (I, 8), KernelValueError, ("must not be zero",), "tl.range"),
        (float_bound, (I, 8), KernelTypeError, ("must be integers", "float"), "range"),
        (block_condition, (I, 8), KernelTypeError, ("must be a scalar", "tl.where"), "offs <"),
        (mismatched_sides, (X, Y, 8), KernelTypeError, ("one type", "block", "scalar"), "tl.load"),
        (
            one_path_only,
            (I, 8),
            KernelNameError,
            ("`y` is not defined", "only one path", "line"),
            "y)",
        ),
        (
            loop_local,
            (I, 8),
            KernelNameError,
            ("`z` is not defined", "first assigned inside"),
            "z)",
        ),
    ],
)
def test_errors(kernel, args, cls, words, at):
    expect_error(kernel, args, {}, cls, words, at)
