"""Runtime ``if`` (on scalars) on every backend: values assigned in the branches become the
results of one ``scf.if``; programs may take different branches."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def branchy_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=0.0)
    scale = 1.0
    if pid % 3 == 0:
        v = v * 2.0
        scale = 3.0
    elif pid % 3 == 1:
        v = v + 1.0
    else:
        scale = 0.5
    tl.store(out + offs, v * scale, mask=offs < n)


@triton.jit
def pick_source_kernel(a, b, out, n, split, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    if pid < split:  # noqa: SIM108 (a statement `if`: runtime ternaries are not supported)
        src = a + offs
    else:
        src = b + offs
    tl.store(out + offs, tl.load(src, mask=offs < n, other=0.0), mask=offs < n)


@triton.jit
def if_in_loop_kernel(x, out, K, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    even = tl.zeros((BLOCK,), tl.float32)
    odd_rows = 0
    for k in range(K):
        if k % 2 == 0:
            even += tl.load(x + k * BLOCK + cols)
        else:
            odd_rows += 1
    tl.store(out + cols, even + odd_rows)


def reference_branchy(x: np.ndarray, block: int) -> np.ndarray:
    ref = x.astype(np.float64).copy()
    for pid in range(triton.cdiv(len(x), block)):
        s = slice(pid * block, (pid + 1) * block)
        if pid % 3 == 0:
            ref[s] = x[s] * 2.0 * 3.0
        elif pid % 3 == 1:
            ref[s] = x[s] + 1.0
        else:
            ref[s] = x[s] * 0.5
    return ref


@pytest.mark.parametrize(("n", "block"), [(1000, 64), (4096, 1024), (77, 16)])
def test_if_elif_else(run: Any, n: int, block: int) -> None:
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    run(branchy_kernel, (triton.cdiv(n, block),), x, out, n, BLOCK=block)
    np.testing.assert_allclose(out, reference_branchy(x, block), rtol=1e-6)


@pytest.mark.parametrize("split", [0, 3, 100])
def test_branches_pick_pointers(run: Any, split: int) -> None:
    n, block = 1000, 128
    rng = np.random.default_rng(split)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    run(pick_source_kernel, (triton.cdiv(n, block),), a, b, out, n, split, BLOCK=block)
    ref = np.where(np.arange(n) // block < split, a, b)
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("k", [0, 1, 5, 8])
def test_if_inside_a_runtime_loop(run: Any, k: int) -> None:
    block = 32
    x = np.random.default_rng(k).standard_normal(max(k, 1) * block).astype(np.float32)
    out = np.full(block, np.nan, np.float32)
    run(if_in_loop_kernel, (1,), x, out, k, BLOCK=block)
    rows = x.reshape(-1, block)[:k].astype(np.float64)
    ref = rows[0::2].sum(axis=0) + (k // 2)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)


@triton.jit
def same_value_both_branches_kernel(y, a, out, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    u = tl.load(y + offs)
    av = tl.load(a + offs)
    scale = 1
    if s > 0:
        u = av
        scale = 5
    else:
        u = av
        scale = 5
    tl.store(out + offs, u * scale)


@pytest.mark.parametrize("s", [-1, 1])
def test_branches_assigning_the_same_value(run: Any, s: int) -> None:
    """Both branches assign one value (a block from before the `if`, a constant): the value
    after the `if` is that one, not the value from before the `if`."""
    block = 16
    y = np.full(block, 7.0, np.float32)
    a = np.arange(block, dtype=np.float32)
    out = np.full(block, np.nan, np.float32)
    run(same_value_both_branches_kernel, (1,), y, a, out, s, BLOCK=block)
    np.testing.assert_array_equal(out, a * 5)


@triton.jit
def first_assigned_in_every_branch_kernel(out, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if s == 0 or s == 1:
        w = 3
        c = 2.5
    else:
        w = 3
        c = 2.5
    tl.store(out + offs, offs * w + c)


@pytest.mark.parametrize("s", [0, 1, 2])
def test_name_first_assigned_with_one_value_in_every_branch(run: Any, s: int) -> None:
    block = 8
    out = np.full(block, np.nan, np.float32)
    run(first_assigned_in_every_branch_kernel, (1,), out, s, BLOCK=block)
    np.testing.assert_array_equal(out, np.arange(block) * 3 + 2.5)


@triton.jit
def one_element_if_kernel(x, explicit: tl.constexpr):
    condition = tl.load(x + tl.arange(0, 1)) > 42  # a block of one element
    if explicit:
        condition = condition.item()
    if condition:
        tl.store(x, 42)


@pytest.mark.filterwarnings("ignore:If conditional called with multidimensional")
@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize("value", [41, 43])
def test_if_on_a_one_element_block(run, value, explicit):
    """Triton's rule: a one-element block as an ``if`` condition is its element."""
    x = np.full(1, value, np.int32)
    run(one_element_if_kernel, (1,), x, explicit=explicit, num_warps=1)
    assert x[0] == (42 if value > 42 else value)


def test_if_on_a_one_element_block_warns(monkeypatch):
    """... with Triton's warning to write ``.item()``, when compiling (a fresh compile)."""
    monkeypatch.setenv("MYTRITON_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")
    x = np.full(1, 43, np.int32)
    with pytest.warns(UserWarning, match=r'please use "if \(condition\).item\(\)"'):
        one_element_if_kernel.warmup(x, explicit=False, num_warps=2, grid=(1,))
