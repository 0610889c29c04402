"""Loops: compile-time unrolling (tl.static_range, short constant range) and runtime loops
(scf.for with captures, loop-carried scalars and blocks, nested and sequential loops)."""

# ruff: noqa: B007
from __future__ import annotations

import re

import mytriton as triton
import mytriton.language as tl
from tests import kernels
from tests.frontend.util import X, Y, loop_bodies, op_lines, ops, outside_loops, tt

# ------------------------------------------------------------------ unrolled loops


def test_static_range_unrolls_with_compile_time_index():
    @triton.jit
    def k(x, out):
        acc = 0.0
        for i in tl.static_range(3):
            acc += tl.load(x + i * 10)
        tl.store(out, acc)

    ir = tt(k, X, Y)
    names = ops(ir)
    assert "scf.for" not in names
    assert names.count("tt.load") == 3
    for c in ("0", "10", "20"):
        assert f"arith.constant {c} : i32" in ir


def test_static_range_with_start_and_step():
    @triton.jit
    def k(x, out, N: tl.constexpr):
        for i in tl.static_range(2, N, 3):
            tl.store(out + i, 1.0)

    ir = tt(k, X, Y, N=10)  # 2, 5, 8
    assert ops(ir).count("tt.store") == 3
    assert all(f"arith.constant {c} : i32" in ir for c in ("2", "5", "8"))


def test_short_constant_python_range_unrolls_long_one_does_not():
    @triton.jit
    def k(x, out, N: tl.constexpr):
        acc = 0.0
        for i in range(N):
            acc += tl.load(x + i)
        tl.store(out, acc)

    short = ops(tt(k, X, Y, N=4))
    assert "scf.for" not in short and short.count("tt.load") == 4
    long = tt(k, X, Y, N=1000)
    assert ops(long).count("scf.for") == 1 and ops(long).count("tt.load") == 1
    assert "arith.constant 1000 : i32" in long


def test_tl_range_is_always_a_runtime_loop():
    @triton.jit
    def k(x, out):
        acc = 0.0
        for i in tl.range(0, 4, 1, num_stages=2):
            acc += tl.load(x + i)
        tl.store(out, acc)

    assert ops(tt(k, X, Y)).count("scf.for") == 1


def test_static_range_of_zero_iterations_keeps_value():
    @triton.jit
    def k(x, out, N: tl.constexpr):
        acc = 1.5
        for i in tl.static_range(N):
            acc += tl.load(x + i)
        tl.store(out, acc)

    ir = tt(k, X, Y, N=0)
    assert "tt.load" not in ops(ir) and "arith.constant 1.500000e+00 : f32" in ir


# ------------------------------------------------------------------ runtime loops


def test_runtime_loop_carries_scalar():
    ir = tt(kernels.runtime_sum_kernel, X, Y, 8)
    (body,) = loop_bodies(ir)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln).strip()
    assert re.fullmatch(
        r"%accumulator = scf\.for %k = %\d+ to %K step %\d+ "
        r"iter_args\(%accumulator_1 = %\d+\) -> \(f32\) : i32 \{",
        header,
    ), header
    assert "tt.addptr %x, %k : !tt.ptr<f32>, i32" in body
    assert "tt.add %accumulator_1, " in body
    assert re.search(r"scf\.yield %\w+ : f32", body)
    assert "tt.store %out, %accumulator : !tt.ptr<f32>" in ir


def test_runtime_loop_carries_block_and_pointer_block():
    ir = tt(kernels.runtime_block_sum_kernel, X, Y, 100, BLOCK=16)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln)
    assert re.search(r"iter_args\(%acc_\d+ = %acc, %ptrs_\d+ = %ptrs\)", header)
    assert "-> (tensor<16xf32>, tensor<16x!tt.ptr<f32>>)" in header
    assert "%start = " in header and "to %N step" in header
    (body,) = loop_bodies(ir)
    assert re.search(r"scf\.yield %\w+, %\w+ : tensor<16xf32>, tensor<16x!tt.ptr<f32>>", body)
    assert "arith.constant 16 : i32" in ir  # the step BLOCK


def test_captured_values_are_not_carried():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        scale = tl.load(x)
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in range(n):
            acc += tl.load(x + offs + i) * scale
        tl.store(out + offs, acc)

    ir = tt(k, X, Y, 4, BLOCK=16)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln)
    # only acc: offs and scale are captures
    assert re.search(r"iter_args\(%acc_\d+ = %acc\) ->", header)
    (body,) = loop_bodies(ir)
    assert "%offs" in body and "%scale" in body


def test_loop_bounds_start_stop_step():
    @triton.jit
    def k(x, out, n):
        for i in range(2, n, 4):
            tl.store(out + i, 1.0)

    ir = tt(k, X, Y, 30)
    m = re.search(r"scf\.for %i = %(\w+) to %n step %(\w+) : i32", ir)
    assert m, ir
    consts = dict(re.findall(r"%(\w+) = arith\.constant (\S+) : i32", ir))
    assert (consts[m.group(1)], consts[m.group(2)]) == ("2", "4")


def test_runtime_start_and_constant_stop():
    @triton.jit
    def k(x, out, n):
        for i in range(n, 100):
            tl.store(out + i, 1.0)

    assert re.search(r"scf\.for %i = %n to %\w+ step %\w+ : i32", tt(k, X, Y, 3))


def test_multiple_carried_values_and_names_created_inside():
    @triton.jit
    def k(x, out, n):
        total = 0.0
        count = 0
        for i in range(n):
            v = tl.load(x + i)  # created inside: not carried
            total += v
            count += 1
        tl.store(out, total / count)

    ir = tt(k, X, Y, 5)
    header = next(ln for ln in ir.splitlines() if "scf.for" in ln)
    assert header.strip().startswith("%count, %total = scf.for")
    assert "iter_args(%count_1 = %" in header and "%total_1 = %" in header
    assert "-> (i32, f32)" in header
    assert "%v = " not in outside_loops(ir)


def test_carried_variable_unchanged_in_a_branch_not_taken():
    @triton.jit
    def k(x, out, n, UPDATE: tl.constexpr):
        acc = 1.0
        for i in range(n):
            if UPDATE:
                acc = acc * 2.0
        tl.store(out, acc)

    ir = tt(k, X, Y, 3, UPDATE=False)
    (body,) = loop_bodies(ir)
    assert re.search(r"scf\.yield %acc_1 : f32", body)
    assert "tt.mul" in ops(tt(k, X, Y, 3, UPDATE=True))


def test_weakly_typed_update_keeps_carried_type():
    @triton.jit
    def k(x, out, n):
        acc = 0.0
        idx = 0
        for i in range(n):
            acc += i  # f32 += i32 -> f32
            acc = acc * 2  # f32 * python int -> f32
            idx = idx + 1
        tl.store(out + idx, acc)

    ir = tt(k, X, Y, 3)
    assert "-> (f32, i32)" in ir and "tt.cast %i : i32 -> f32" in ir


def test_nested_runtime_loops():
    ir = tt(kernels.nested_loop_kernel, X, Y, 4, 5)
    outer, inner = loop_bodies(ir)
    assert inner in outer
    assert "scf.for %j = " in outer and "to %N step" in outer
    assert "iter_args(%row_1 = %" in outer  # `row` created in the outer body, carried inside
    assert re.search(r"%total = scf\.for %i = %\w+ to %M step %\w+ iter_args\(%total_1", ir)
    assert "tt.mul %row, %row : f32" in outer  # the inner loop's result, named row


def test_sequential_loops_and_static_inside_runtime():
    @triton.jit
    def k(x, out, n):
        a = 0.0
        for i in range(n):
            for j in tl.static_range(2):
                a += tl.load(x + i + j)
        b = a
        for i in range(n):
            b -= 1.0
        tl.store(out, b)

    ir = tt(k, X, Y, 4)
    first, _second = loop_bodies(ir)
    assert ops(first).count("tt.load") == 2  # static_range unrolled inside the scf.for
    assert "iter_args(%b_1 = %a)" in ir


def test_runtime_loop_inside_static_range():
    @triton.jit
    def k(x, out, n):
        for c in tl.static_range(3):
            acc = 0.0
            for i in range(n):
                acc += tl.load(x + c * 100 + i)
            tl.store(out + c, acc)

    ir = tt(k, X, Y, 4)
    assert ops(ir).count("scf.for") == 3


def test_runtime_loop_in_inlined_helper():
    @triton.jit
    def k(x, out, n):
        tl.store(out, running_sum(x, n))

    ir = tt(k, X, Y, 4)
    assert ops(ir).count("scf.for") == 1 and "func.call" not in ops(ir)


@triton.jit
def running_sum(ptr, n):
    s = 0.0
    for i in range(n):
        s += tl.load(ptr + i)
    return s


def test_loop_over_constexpr_bound_in_matmul_is_unrolled():
    ir = tt(kernels.tiled_matmul_kernel, X, Y, Y, 16, 16, K=64, BM=16, BN=16, BK=16)
    assert "scf.for" not in ops(ir)
    dots = op_lines(ir, "tt.dot")
    assert len(dots) == 4
    assert all(
        ln.endswith(": tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>") for ln in dots
    )


def test_runtime_k_matmul_carries_accumulator():
    ir = tt(kernels.tiled_matmul_runtime_k_kernel, X, Y, Y, 16, 16, 32, BM=16, BN=16, BK=16)
    (body,) = loop_bodies(ir)
    assert re.search(r"iter_args\(%acc_\d+ = %acc\) -> \(tensor<16x16xf32>\)", ir)
    assert "tt.dot" in body and re.search(r"scf\.yield %\w+ : tensor<16x16xf32>", body)


# ------------------------------------------------------------------ after the tt passes


def test_loop_invariants_are_hoisted_in_tt_opt():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        acc = tl.zeros((BLOCK,), tl.float32)
        for i in range(n):
            acc += tl.load(x + offs + i) * 2.0
        tl.store(out + offs, acc)

    before = tt(k, X, Y, 4, BLOCK=16)
    after = tt(k, X, Y, 4, BLOCK=16, stage="tt-opt")
    assert "tt.splat %x" in loop_bodies(before)[0]
    (body,) = loop_bodies(after)
    assert "tt.splat %x" not in body and "tt.splat %x" in outside_loops(after)
    assert "tt.load" in body  # memory ops stay in the loop
    assert "arith.constant 2.000000e+00" not in body
