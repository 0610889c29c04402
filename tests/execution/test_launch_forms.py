"""Launch forms libraries use that Triton accepts, run on every backend: a grid of more than
three entries (the first three launch), pre-run hooks (called with the launch's arguments
before it runs); and a global changed after the compile is an error, as in Triton."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def program_ids(out, BLOCK: tl.constexpr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    nx, ny, nz = tl.num_programs(0), tl.num_programs(1), tl.num_programs(2)
    pid = (z * ny + y) * nx + x
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.zeros((BLOCK,), tl.int32) + nx * 100 + ny * 10 + nz)


@pytest.mark.parametrize("grid", [(2, 3, 1, 7), lambda meta: (2, 3, 1, 7, 9)], ids=["tuple", "fn"])
def test_grid_of_more_than_three_entries_launches_the_first_three(run: Any, grid: Any) -> None:
    out = np.full(6 * 4 + 4, -1, np.int32)
    run(program_ids, grid, out, BLOCK=4)
    np.testing.assert_array_equal(out[:24], 231)
    np.testing.assert_array_equal(out[24:], -1)  # 2 * 3 * 1 programs, not 2 * 3 * 1 * 7


@triton.jit
def add_two(a, n: tl.constexpr):
    offs = tl.arange(0, n)
    tl.store(a + offs, tl.load(a + offs) + 2)


def test_pre_run_hook_sees_the_launch_arguments_before_each_launch(run: Any) -> None:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    def zero_first(*args: Any, **kwargs: Any) -> None:
        calls.append((args, kwargs))
        args[0][:] = 0

    add_two.clear_cache()
    add_two.add_pre_run_hook(zero_first)
    try:
        a = np.ones(4, np.int32)
        for _ in range(3):  # later launches too (no fast path skips the hook)
            run(add_two, (1,), a, n=4)
            np.testing.assert_array_equal(a, 2)
        assert len(calls) == 3
        args, kwargs = calls[0]
        assert len(args) == 1 and kwargs == {"n": 4, "num_warps": 4}
        if run.framework == "numpy":
            assert args[0] is a
            add_two.run(a, 4, grid=(1,), warmup=False)  # Triton's run() calls the hooks too
            np.testing.assert_array_equal(a, 2)
            assert len(calls) == 4 and calls[3][0][1:] == (4,)
    finally:
        add_two.pre_run_hooks.clear()
        add_two.clear_cache()


BIAS = tl.constexpr(1.5)


@triton.jit
def add_bias(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs) + BIAS)


def test_changed_global_raises_until_clear_cache(run: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Never the old value run silently (Triton's check on every launch)."""
    x = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    add_bias.clear_cache()
    run(add_bias, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x + 1.5)
    monkeypatch.setitem(globals(), "BIAS", tl.constexpr(4.0))
    with pytest.raises(RuntimeError, match="Global variable BIAS has changed since we compiled"):
        run(add_bias, (1,), x, out, BLOCK=8)
    add_bias.clear_cache()
    run(add_bias, (1,), x, out, BLOCK=8)
    np.testing.assert_array_equal(out, x + 4.0)
    add_bias.clear_cache()
