"""Runtime loops whose step is not a positive constant (issue 10): a runtime step of either
sign (and 0, which runs no iteration instead of hanging), negative constant steps, int64
bounds, tl.range's options, `tl.static_range` with steps, conditional expressions on runtime
values, and a loop variable the body rebinds. Each loop records the values it visits, compared
with Python's `range`."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

I32_MIN, I32_MAX = -(2**31), 2**31 - 1
MAX_VISITS = 16


@triton.jit
def visits_kernel(out, count, start, stop, step, MAX: tl.constexpr):
    n = 0
    for i in tl.range(start, stop, step):
        tl.store(out + n, i.to(tl.int64), mask=n < MAX)
        n += 1
    tl.store(count, n)


def _visits(run: Any, kernel: Any, *args: Any, **constexprs: Any) -> list[int]:
    out = np.full(MAX_VISITS, -99, np.int64)
    count = np.zeros(1, np.int32)
    run(kernel, (1,), out, count, *args, MAX=MAX_VISITS, **constexprs)
    n = int(count[0])
    return [int(v) for v in out[: min(n, MAX_VISITS)]] + ([None] * (n - MAX_VISITS))


@pytest.mark.parametrize(
    ("start", "stop", "step"),
    [
        (0, 10, 3),
        (10, 0, -3),
        (10, 2, -3),
        (-7, 8, 5),
        (5, 5, 2),
        (5, 0, 2),  # empty: stop below start
        (0, 5, -2),  # empty: stop above start with a negative step
        (I32_MAX - 10, I32_MAX, 4),  # an upward count would overflow past the end
        (I32_MIN + 10, I32_MIN, -3),
        (I32_MAX, I32_MIN, -(2**30)),  # the span needs 32 unsigned bits
        (I32_MIN, I32_MAX, 2**30 + 3),
        (3, 9, I32_MIN),  # |step| is not an int32
    ],
)
def test_runtime_step(run: Any, start: int, stop: int, step: int) -> None:
    assert _visits(run, visits_kernel, start, stop, step) == list(range(start, stop, step))


def test_runtime_step_of_zero_runs_no_iteration(run: Any) -> None:
    """Triton's GPU code would loop forever (`iv += 0`); here the trip count is 0."""
    assert _visits(run, visits_kernel, 3, 9, 0) == []
    assert _visits(run, visits_kernel, 9, 3, 0) == []


def test_int64_bounds(run: Any) -> None:
    """A bound that needs int64 makes the loop count in int64 (Triton's promotion)."""
    start = 2**40 + 5
    assert _visits(run, visits_kernel, start, start - 20, -6) == list(range(start, start - 20, -6))
    assert _visits(run, visits_kernel, -start, -start + 9, 4) == list(range(-start, -start + 9, 4))


@triton.jit
def constant_steps_kernel(out, count, n, START: tl.constexpr, STOP: tl.constexpr,
                          STEP: tl.constexpr, MAX: tl.constexpr, KIND: tl.constexpr):  # fmt: skip
    c = 0
    if KIND == "tl.range":  # always a runtime loop: scf.for counting upward, mirrored
        for i in tl.range(START, STOP, STEP):
            tl.store(out + c, i.to(tl.int64), mask=c < MAX)
            c += 1
    elif KIND == "range":  # unrolled when short, else a runtime loop
        for i in range(START, STOP, STEP):
            tl.store(out + c, i.to(tl.int64), mask=c < MAX)
            c += 1
    elif KIND == "static_range":  # unrolled, `i` a compile-time int
        for i in tl.static_range(START, STOP, STEP):
            tl.static_assert(i % STEP == START % STEP)
            tl.store(out + c, i)
            c += 1
    else:  # runtime bound, constant negative step
        for i in tl.range(n, STOP, STEP):
            tl.store(out + c, i.to(tl.int64), mask=c < MAX)
            c += 1
    tl.store(count, c)


@pytest.mark.parametrize("kind", ["tl.range", "range", "static_range", "runtime start"])
@pytest.mark.parametrize(("start", "stop", "step"), [(10, 0, -3), (12, -2, -7), (0, 3, -1)])
def test_negative_constant_step(run: Any, kind: str, start: int, stop: int, step: int) -> None:
    got = _visits(run, constant_steps_kernel, start, START=start, STOP=stop, STEP=step, KIND=kind)
    assert got == list(range(start, stop, step))


def test_long_negative_python_range_is_a_runtime_loop(run: Any) -> None:
    """Over MAX_UNROLL trips a constant `range` is not unrolled; its visits still match."""
    out = np.zeros(1, np.int32)
    count = np.zeros(1, np.int32)
    run(sum_range_kernel, (1,), out, count, START=300, STOP=-7, STEP=-2)
    assert (int(out[0]), int(count[0])) == (sum(range(300, -7, -2)), len(range(300, -7, -2)))


@triton.jit
def sum_range_kernel(out, count, START: tl.constexpr, STOP: tl.constexpr, STEP: tl.constexpr):
    acc = 0
    c = 0
    for i in range(START, STOP, STEP):
        acc += i
        c += 1
    tl.store(out, acc)
    tl.store(count, c)


@triton.jit
def options_kernel(x, out, n, step, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in tl.range(0, n, step, num_stages=3, loop_unroll_factor=2, flatten=True,
                      warp_specialize=False, disallow_acc_multi_buffer=True, disable_licm=True):  # fmt: skip
        scale = (offs + 1).to(tl.float32)  # loop-invariant: stays in the loop (disable_licm)
        acc += tl.load(x + i * BLOCK + offs) * scale
    tl.store(out + offs, acc)


def test_range_options_do_not_change_results(run: Any) -> None:
    x = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)
    out = np.zeros(16, np.float32)
    run(options_kernel, (1,), x, out, 8, 3, BLOCK=16)
    np.testing.assert_array_equal(out, x[[0, 3, 6]].sum(axis=0) * np.arange(1, 17))


@triton.jit
def persistent_rows_kernel(x, out, n_rows, BLOCK: tl.constexpr):
    """Each program strides over rows by the number of programs, a runtime step."""
    offs = tl.arange(0, BLOCK)
    for row in tl.range(tl.program_id(0), n_rows, tl.num_programs(0)):
        v = tl.load(x + row * BLOCK + offs)
        tl.store(out + row * BLOCK + offs, v * 2.0 + tl.program_id(0).to(tl.float32))


def test_runtime_step_from_the_grid(run: Any) -> None:
    rows, programs = 11, 4
    x = np.random.default_rng(0).standard_normal((rows, 8)).astype(np.float32)
    out = np.zeros_like(x)
    run(persistent_rows_kernel, (programs,), x, out, rows, BLOCK=8)
    want = x * 2 + (np.arange(rows) % programs)[:, None].astype(np.float32)
    np.testing.assert_array_equal(out, want)


@triton.jit
def rebound_variable_kernel(out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    for i in tl.range(0, n, BLOCK):
        i = tl.multiple_of(i, BLOCK)
        tl.store(out + i + offs, offs + i)
        i = i // BLOCK  # rebinding the loop variable does not change the iteration
        tl.store(out + n + i, i * 10)
    total = 0
    for j in range(0, n, BLOCK):  # the same in a plain runtime `range`
        j = j + 1
        total += j
    tl.store(out + 2 * n, total)


def test_rebinding_the_loop_variable(run: Any) -> None:
    n, block = 64, 16
    out = np.zeros(2 * n + 1, np.int32)
    run(rebound_variable_kernel, (1,), out, n, BLOCK=block)
    np.testing.assert_array_equal(out[:n], np.arange(n))
    np.testing.assert_array_equal(out[n : n + n // block], np.arange(n // block) * 10)
    assert out[2 * n] == sum(j + 1 for j in range(0, n, block))


@triton.jit
def ternary_kernel(x, out, n, limit, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    pid = tl.program_id(0)
    # the load runs only when the condition holds (the scalar load past `n` would be out of
    # bounds): each side is compiled in its own branch of an scf.if
    first = tl.load(x + pid * BLOCK) if pid * BLOCK < n else -1.0
    row = tl.load(x + pid * BLOCK + offs) if pid < limit else tl.zeros((BLOCK,), tl.float32)
    scale = 2 if pid % 2 == 0 else 3  # numbers on both sides: an int32
    tl.store(out + pid * BLOCK + offs, row * scale + first)
    tl.store(out + pid * BLOCK, 7.0) if pid == 0 else tl.store(out + pid * BLOCK, 8.0)


def test_conditional_expression_on_runtime_values(run: Any) -> None:
    block, programs = 8, 4
    x = np.arange(3 * block, dtype=np.float32) + 1  # 3 rows: program 3's loads are guarded
    out = np.zeros(programs * block, np.float32)
    run(ternary_kernel, (programs,), x, out, x.size, 2, BLOCK=block)
    for p in range(programs):
        first = x[p * block] if p * block < x.size else -1.0
        row = x[p * block : (p + 1) * block] if p < 2 else np.zeros(block, np.float32)
        want = row * (2 if p % 2 == 0 else 3) + first
        want[0] = 7.0 if p == 0 else 8.0
        np.testing.assert_array_equal(out[p * block : (p + 1) * block], want)


def range_steps_warmups() -> list[Any]:
    """Every kernel above compiled once (compile-only), for tests/cuda's nvcc check and
    tests/mlir's PTX check on machines without a GPU."""
    i64, i32 = np.zeros(MAX_VISITS, np.int64), np.zeros(1, np.int32)
    f = np.zeros(1024, np.float32)
    consts = {"START": 10, "STOP": 0, "STEP": -3, "MAX": MAX_VISITS}
    return [
        visits_kernel.warmup(i64, i32, 5, 20, 3, grid=(1,), MAX=MAX_VISITS),
        visits_kernel.warmup(i64, i32, 2**40, 20, -3, grid=(1,), MAX=MAX_VISITS),
        *(
            constant_steps_kernel.warmup(i64, i32, 7, grid=(1,), KIND=kind, **consts)
            for kind in ("tl.range", "runtime start")
        ),
        sum_range_kernel.warmup(i32, i32, grid=(1,), START=300, STOP=-7, STEP=-2),
        options_kernel.warmup(f, f, 8, 3, grid=(1,), BLOCK=16),
        persistent_rows_kernel.warmup(f, f, 11, grid=(4,), BLOCK=8),
        rebound_variable_kernel.warmup(i32, 64, grid=(1,), BLOCK=16),
        ternary_kernel.warmup(f, f, 24, 2, grid=(4,), BLOCK=8),
    ]
