"""``GpuSimBackend`` behind ``kernel[grid](...)``: compile stages, launch, the cache."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

import mytriton.backends as backends
from mytriton.backends.gpusim import run_lowered
from mytriton.backends.gpusim.backend import GpuSimBackend
from tests import kernels
from tests.gpusim.util import nans, parse, randn

pytestmark = pytest.mark.execution


@pytest.fixture
def gpusim(monkeypatch: pytest.MonkeyPatch) -> Iterator[GpuSimBackend]:
    """Select gpusim without registering it in ``mytriton.backends`` (the lead does that)."""
    backend = GpuSimBackend()
    monkeypatch.setitem(backends._INSTANCES, "gpusim", backend)
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET"):
        monkeypatch.delenv(var, raising=False)
    yield backend
    kernels.add_kernel.clear_cache()
    kernels.tutorial_matmul_kernel.clear_cache()


def test_launch_through_jit(gpusim: GpuSimBackend) -> None:
    rng = np.random.default_rng(0)
    n = 1000
    x, y, out = randn(rng, n), randn(rng, n), nans(n)
    compiled = kernels.add_kernel[(4,)](x, y, out, n, BLOCK=256, num_warps=2)
    np.testing.assert_array_equal(out, x + y)
    assert compiled.backend == "gpusim"
    assert {"tt", "tt-opt", "ttg", "gpu"} <= set(compiled.asm)
    assert (
        '"gpu.func"' in compiled.asm["gpu"]
        and "known_block_size = array<i32: 64, 1, 1>" in compiled.asm["gpu"]
    )


def test_printed_gpu_stage_runs_the_same(gpusim: GpuSimBackend) -> None:
    rng = np.random.default_rng(1)
    m, n, k = 40, 24, 33
    a, b = randn(rng, m, k), randn(rng, k, n)
    c1, c2 = nans(m, n), nans(m, n)
    args = (m, n, k, k, 1, n, 1, n, 1)
    meta = dict(BLOCK_SIZE_M=16, BLOCK_SIZE_N=16, BLOCK_SIZE_K=16, GROUP_SIZE_M=2)
    compiled = kernels.tutorial_matmul_kernel[(6,)](a, b, c1, *args, **meta)
    runtime = kernels.tutorial_matmul_kernel.runtime_arguments(a, b, c2, *args, **meta)
    assert len(runtime) == 9  # the three unit strides are compiled in
    run_lowered(parse(compiled.asm["gpu"]), (6, 1, 1), runtime)
    np.testing.assert_array_equal(c1, c2)
    np.testing.assert_allclose(c1, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_empty_grid_launches_nothing(gpusim: GpuSimBackend) -> None:
    out = nans(10)
    kernels.add_kernel[(0,)](out, out, out, 10, BLOCK=16)
    assert np.isnan(out).all()
