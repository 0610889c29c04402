"""``tl.atomic_*`` on every backend: final memory against a NumPy reference, and the returned old
values checked to form one sequential history (``check_history``), with masks, replicated
layouts, contention from many programs, a spin lock, and every ``sem``/``scope``."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

Array = np.ndarray


def check_history(init: Any, vals: Array, olds: Array, final: Any, f: Callable) -> None:
    """The atomics ``f(memory, vals[i])`` returning ``olds[i]`` on one element ran in some
    order from ``init`` to ``final``. Values never come back (the tests pick them so), so at
    each step at most one pending op can change the element, and the ones seeing it unchanged
    can go first."""
    pending = list(range(len(vals)))
    cur = init
    while pending:
        here = [i for i in pending if olds[i] == cur]
        keep = [i for i in here if f(cur, vals[i]) == cur]
        moves = [i for i in here if f(cur, vals[i]) != cur]
        assert len(moves) <= 1, f"two atomics changed {cur!r}: {[vals[i] for i in moves]}"
        if not keep and not moves:
            raise AssertionError(f"no pending atomic saw {cur!r}: olds {olds[pending]}")
        for i in keep:
            pending.remove(i)
        if moves:
            pending.remove(moves[0])
            cur = f(cur, vals[moves[0]])
    assert cur == final or (cur != cur and final != final), (cur, final)


def _fmax(a: Any, b: Any) -> Any:
    return type(a)(max(a, b))


def _fmin(a: Any, b: Any) -> Any:
    return type(a)(min(a, b))


def _np(fn: Callable) -> Callable:
    def f(a: Any, b: Any) -> Any:
        with np.errstate(all="ignore"):
            return type(a)(fn(a, b))

    return f


OPS: dict[str, Callable] = {
    "add": _np(lambda a, b: a + b),
    "max": _fmax,
    "min": _fmin,
    "and": _np(lambda a, b: a & b),
    "or": _np(lambda a, b: a | b),
    "xor": _np(lambda a, b: a ^ b),
    "xchg": lambda a, b: b,
}


@triton.jit
def rmw_kernel(p, vals, out, n, K: tl.constexpr, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(vals + offs, mask=m)
    ptrs = p + offs % K
    if OP == "add":
        old = tl.atomic_add(ptrs, v, mask=m)
    elif OP == "max":
        old = tl.atomic_max(ptrs, v, mask=m)
    elif OP == "min":
        old = tl.atomic_min(ptrs, v, mask=m)
    elif OP == "and":
        old = tl.atomic_and(ptrs, v, mask=m)
    elif OP == "or":
        old = tl.atomic_or(ptrs, v, mask=m)
    elif OP == "xor":
        old = tl.atomic_xor(ptrs, v, mask=m)
    else:
        old = tl.atomic_xchg(ptrs, v, mask=m)
    tl.store(out + offs, old, mask=m)


def _case(
    op: str, dtype: np.dtype, n: int, k: int, rng: np.random.Generator
) -> tuple[Array, Array]:
    """Initial memory and values for which no element value comes back (``check_history``)."""
    i = np.arange(n)
    bit = (i // k).astype(np.int64)
    if op == "add":
        vals = rng.permutation(n) + 1
        init = np.zeros(k)
    elif op in ("max", "min"):
        vals = rng.permutation(n) - n // 2
        if dtype.kind == "u":
            vals = vals + n + (1 << 31)  # beyond int32: unsigned order matters
        if dtype.kind == "f":
            vals = rng.standard_normal(n)
        init = np.full(k, -np.inf if op == "max" else np.inf)
        if dtype.kind != "f":
            info = np.iinfo(dtype)
            init = np.full(k, info.min if op == "max" else info.max)
    elif op == "and":
        vals = ~(np.int64(1) << bit)
        init = np.full(k, -1)
    elif op in ("or", "xor"):
        vals = np.int64(1) << bit
        init = np.zeros(k)
    else:
        vals = rng.permutation(n) + 1
        init = np.full(k, -1)
    return init.astype(dtype), vals.astype(dtype)


def _reference(op: str, init: Array, vals: Array) -> Array:
    """Memory after every atomic (in order: all but xchg commute)."""
    f = OPS[op]
    mem = init.copy()
    for i, v in enumerate(vals):
        mem[i % len(mem)] = f(mem[i % len(mem)], v)
    return mem


RMW_CASES = [
    (op, dt)
    for op in OPS
    for dt in ("int32", "float32")
    if not (dt == "float32" and op in ("and", "or", "xor"))
] + [("add", "int64"), ("max", "uint32"), ("min", "uint32"), ("max", "int64"), ("xor", "int64")]


@pytest.mark.parametrize(("op", "dtype"), RMW_CASES, ids=[f"{o}-{d}" for o, d in RMW_CASES])
def test_rmw_memory_and_history(run: Any, op: str, dtype: str) -> None:
    dt = np.dtype(dtype)
    n, k, block = 60, 4, 32
    rng = np.random.default_rng(7)
    init, vals = _case(op, dt, n, k, rng)
    p, out = init.copy(), np.zeros(n, dt)
    run(rmw_kernel, (2,), p, vals, out, n, K=k, OP=op, BLOCK=block)
    if op != "xchg":  # its final value depends on the order: the history checks it
        np.testing.assert_array_equal(p, _reference(op, init, vals))
    for a in range(k):
        lanes = np.arange(a, n, k)
        check_history(init[a], vals[lanes], out[lanes], p[a], OPS[op])


@triton.jit
def masked_add_kernel(p, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(p + offs, offs + 1, mask=offs < n)
    tl.store(out + offs, old, mask=offs < n)


def test_masked_lanes_do_nothing(run: Any) -> None:
    p = np.arange(32, dtype=np.int32) * 10
    out = np.full(32, -5, np.int32)
    run(masked_add_kernel, (1,), p, out, 13, BLOCK=32)
    expect = np.arange(32, dtype=np.int32) * 10
    np.testing.assert_array_equal(out[:13], expect[:13])
    assert (out[13:] == -5).all()
    expect[:13] += np.arange(1, 14, dtype=np.int32)
    np.testing.assert_array_equal(p, expect)


@triton.jit
def float_add_kernel(p, x, out, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    old = tl.atomic_add(p + offs % 2, tl.load(x + offs))
    tl.store(out + offs, old)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float64"])
def test_float_add_dtypes(run: Any, dtype: str) -> None:
    if dtype == "bfloat16":
        ml_dtypes = pytest.importorskip("ml_dtypes")
        dt = np.dtype(ml_dtypes.bfloat16)
    else:
        dt = np.dtype(dtype)
    n = 32  # small integers: every partial sum is exact, in any order
    x = (np.arange(n) % 4 + 1).astype(dt)
    p, out = np.zeros(2, dt), np.zeros(n, dt)
    run(float_add_kernel, (2,), p, x, out, BLOCK=16)
    for a in range(2):
        total = float(x[a::2].astype(np.float64).sum())
        assert float(p[a]) == total
        check_history(
            0.0, x[a::2].astype(np.float64), out[a::2].astype(np.float64), total, lambda c, v: c + v
        )


@triton.jit
def float_extremum_kernel(p, x, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * BLOCK + offs)
    tl.atomic_max(p + offs * 0, v)
    tl.atomic_min(p + 1 + offs * 0, v)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_max_min_signs(run: Any, dtype: str) -> None:
    """Triton's sign split: positive values by signed, negative by unsigned integer order."""
    x = np.array([-3.5, -0.25, 2.0, -7.0, 0.5, 1e-3, -1e30, 3.25] * 4, dtype)
    p = np.array([-np.inf, np.inf], dtype)
    run(float_extremum_kernel, (4,), p, x, BLOCK=8)
    assert p[0] == x.max() and p[1] == x.min()
    q = np.array([-10.0, 10.0], dtype)
    run(float_extremum_kernel, (4,), q, -np.abs(x), BLOCK=8)  # all negative
    assert q[0] == (-np.abs(x)).max() and q[1] == (-np.abs(x)).min()


@triton.jit
def block_sum_kernel(acc, x, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(acc + offs * 0, tl.load(x + offs, mask=offs < n, other=0), mask=offs < n)


@triton.jit
def ticket_kernel(counter, rows, SEM: tl.constexpr, SCOPE: tl.constexpr):
    """A work queue: each program draws a ticket and writes its id to that row, with every
    thread of the program (so every thread must hold the ticket)."""
    t = tl.atomic_add(counter, 1, sem=SEM, scope=SCOPE)
    cols = tl.arange(0, 64)
    tl.store(rows + t * 64 + cols, cols * 0 + tl.program_id(0))


def test_many_programs_sum_one_address(run: Any) -> None:
    """Every element of x through atomic_add into one integer: 10^6 on a GPU."""
    n = 1_000_000 if run.backend in ("cuda", "mlir") else 3000
    x = np.random.default_rng(3).integers(-1000, 1000, n).astype(np.int32)
    acc = np.zeros(1, np.int32)
    block = 1024 if run.backend in ("cuda", "mlir") else 256
    run(block_sum_kernel, (triton.cdiv(n, block),), acc, x, n, BLOCK=block)
    assert int(acc[0]) == int(x.astype(np.int64).sum())


@pytest.mark.parametrize(
    ("sem", "scope"),
    [("acq_rel", "gpu"), ("relaxed", "cta"), ("acquire", "sys"), ("release", "gpu")],
)
def test_scalar_tickets_are_a_permutation(run: Any, sem: str, scope: str) -> None:
    """A scalar atomic runs once per program (thread 0) and every thread gets its result."""
    programs = 64 if run.backend in ("cuda", "mlir") else 6
    counter = np.zeros(1, np.int32)
    rows = np.full((programs, 64), -1, np.int32)
    run(ticket_kernel, (programs,), counter, rows, SEM=sem, SCOPE=scope)
    assert counter[0] == programs
    assert (rows == rows[:, :1]).all()
    assert sorted(rows[:, 0]) == list(range(programs))


@triton.jit
def replicated_kernel(p, out, ROWS: tl.constexpr, COLS: tl.constexpr):
    """A block of 16 over 128 threads, and a reduction's slice layout: both replicated."""
    small = tl.arange(0, 16)
    old = tl.atomic_add(p + small, small + 1)
    tl.store(out + small, old + 1000)
    grid = tl.arange(0, ROWS)[:, None] * COLS + tl.arange(0, COLS)[None, :]
    rows = tl.arange(0, ROWS)
    prev = tl.atomic_xchg(p + 16 + rows, tl.sum(grid, axis=1))
    tl.store(out + 16 + rows, prev)


def test_replicated_elements_update_once_and_all_replicas_get_the_old_value(run: Any) -> None:
    p = np.arange(24, dtype=np.int32)
    out = np.zeros(24, np.int32)
    run(replicated_kernel, (1,), p, out, ROWS=8, COLS=16, num_warps=4)
    np.testing.assert_array_equal(out[:16], np.arange(16) + 1000)
    np.testing.assert_array_equal(p[:16], np.arange(16) * 2 + 1)
    np.testing.assert_array_equal(out[16:], np.arange(16, 24))
    grid = np.arange(8)[:, None] * 16 + np.arange(16)[None, :]
    np.testing.assert_array_equal(p[16:], grid.sum(axis=1))


@triton.jit
def spin_lock_kernel(locks, count, acc, x, GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    """The layer-norm backward pattern: programs of one group take turns on its accumulator
    row, which they update with plain loads and stores under a lock."""
    pid = tl.program_id(0)
    group = pid % GROUPS
    lock = locks + group
    cols = tl.arange(0, BLOCK)
    part = tl.load(x + pid * BLOCK + cols)
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    seen = tl.load(count + group)
    if seen == 0:
        tl.atomic_xchg(count + group, 1)
    else:
        part += tl.load(acc + group * BLOCK + cols)
    tl.store(acc + group * BLOCK + cols, part)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


def test_spin_lock_protects_a_read_modify_write(run: Any) -> None:
    programs = 64 if run.backend in ("cuda", "mlir") else 8
    groups, block = 4, 32
    x = np.random.default_rng(5).integers(-50, 50, (programs, block)).astype(np.float32)
    locks = np.zeros(groups, np.int32)
    count = np.zeros(groups, np.int32)
    acc = np.full((groups, block), np.nan, np.float32)
    run(spin_lock_kernel, (programs,), locks, count, acc, x, GROUPS=groups, BLOCK=block)
    expect = np.stack([x[g::groups].sum(axis=0) for g in range(groups)])
    np.testing.assert_array_equal(acc, expect)
    assert (locks == 0).all() and (count == 1).all()


@triton.jit
def cas_kernel(p, cmp, val, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_cas(p + offs, tl.load(cmp + offs), tl.load(val + offs))
    tl.store(out + offs, old)


@pytest.mark.parametrize("dtype", ["int32", "float32", "int64", "float64", "int16"])
def test_cas_swaps_where_equal(run: Any, dtype: str) -> None:
    dt = np.dtype(dtype)
    p = (np.arange(16) % 5).astype(dt)
    cmp = (np.arange(16) % 3).astype(dt)
    val = (np.arange(16) + 100).astype(dt)
    init = p.copy()
    out = np.zeros(16, dt)
    run(cas_kernel, (1,), p, cmp, val, out, BLOCK=16)
    np.testing.assert_array_equal(out, init)
    np.testing.assert_array_equal(p, np.where(init == cmp, val, init))


@triton.jit
def method_kernel(p, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ptrs = p + offs
    a = ptrs.atomic_add(1.5)
    b = ptrs.atomic_max(2.0, mask=offs % 2 == 0)
    c = (p + BLOCK + offs).atomic_cas(0.0, 7.0)
    tl.store(out + offs, a + b + c)


def test_tensor_methods(run: Any) -> None:
    p = np.zeros(16, np.float32)
    p[8:] = [0, 1] * 4
    out = np.zeros(8, np.float32)
    run(method_kernel, (1,), p, out, BLOCK=8)
    even = np.arange(8) % 2 == 0
    np.testing.assert_array_equal(p[:8], np.where(even, 2.0, 1.5))
    np.testing.assert_array_equal(p[8:], np.where(even, 7.0, 1.0))
    np.testing.assert_array_equal(out, 0 + np.where(even, 1.5, 0) + np.where(even, 0, 1))


def atomic_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda and tests/mlir check the
    C++ and the PTX)."""
    i32, f32 = np.zeros(64, np.int32), np.zeros(64, np.float32)
    compiled = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for op, dtype in RMW_CASES:
            a = np.zeros(64, dtype)
            compiled.append(rmw_kernel.warmup(a, a, a, 60, K=4, OP=op, BLOCK=32, grid=(2,)))
        import ml_dtypes

        for dt in (np.float16, ml_dtypes.bfloat16, np.float64):
            a = np.zeros(32, dt)
            compiled.append(float_add_kernel.warmup(a, a, a, BLOCK=16, grid=(2,)))
        compiled += [
            float_extremum_kernel.warmup(f32, f32, BLOCK=8, grid=(4,)),
            masked_add_kernel.warmup(i32, i32, 13, BLOCK=32, grid=(1,)),
            ticket_kernel.warmup(i32, i32, SEM="relaxed", SCOPE="cta", grid=(1,)),
            ticket_kernel.warmup(i32, i32, SEM="release", SCOPE="sys", grid=(1,)),
            replicated_kernel.warmup(i32, i32, ROWS=8, COLS=16, grid=(1,)),
            spin_lock_kernel.warmup(i32, i32, f32, f32, GROUPS=4, BLOCK=32, grid=(8,)),
            cas_kernel.warmup(f32, f32, f32, f32, BLOCK=16, grid=(1,)),
            method_kernel.warmup(f32, f32, BLOCK=8, grid=(1,)),
        ]
        a16 = np.zeros(16, np.int16)
        compiled.append(cas_kernel.warmup(a16, a16, a16, a16, BLOCK=16, grid=(1,)))
    return compiled
