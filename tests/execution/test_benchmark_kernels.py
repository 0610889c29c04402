"""The kernels of ``benchmarks/kernels_src.py``, loaded as ``benchmarks/compare.py`` loads them,
give the right values on every backend: add, softmax and layer norm in float32, float16 and
bfloat16 (the dtypes compare.py times), matmul and the launch-overhead kernel in float32. A GPU
run of compare.py checks its results too, but only on the GPU and only with sizes worth timing."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

ml_dtypes = pytest.importorskip("ml_dtypes")

pytestmark = pytest.mark.execution

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
DTYPES = [np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)]


def _load_benchmark_kernels() -> ModuleType:
    """``kernels_src.py`` under mytriton, through compare.py's own loader (by path: the name
    ``benchmarks`` is taken by xDSL's package in site-packages)."""
    spec = importlib.util.spec_from_file_location("benchmarks_compare", BENCHMARKS / "compare.py")
    assert spec and spec.loader
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    return compare.load_kernels("benchmarks_kernels_mytriton", triton, tl)


K = _load_benchmark_kernels()


def _epsilon(dtype: np.dtype) -> float:
    """Relative tolerance of a result computed in f32 and rounded once to ``dtype``."""
    return max(float(ml_dtypes.finfo(dtype).eps), 1e-5)


def _randn(shape: tuple[int, ...], dtype: np.dtype, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_add_rounds_once_to_the_dtype(run: Any, dtype: np.dtype) -> None:
    n = 300  # a masked tail in the last program
    x, y = _randn((n,), dtype, 1), _randn((n,), dtype, 2)
    out = np.zeros(n, dtype)
    run(K.add_kernel, (triton.cdiv(n, 128),), x, y, out, n, BLOCK_SIZE=128)
    exact = x.astype(np.float64) + y.astype(np.float64)
    np.testing.assert_array_equal(
        out.view(f"u{dtype.itemsize}"), exact.astype(dtype).view(f"u{dtype.itemsize}")
    )


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_softmax_in_float32_stored_in_the_dtype(run: Any, dtype: np.dtype) -> None:
    rows, cols = 5, 100
    x = (_randn((rows, cols), dtype, 3).astype(np.float32) * 4).astype(dtype)
    out = np.full((rows, 128), 7, dtype)  # a wider row stride; the padding stays untouched
    run(K.softmax_kernel, (rows,), out, x, cols, 128, rows, cols, BLOCK_SIZE=128)
    xd = x.astype(np.float64)
    e = np.exp(xd - xd.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out[:, :cols].astype(np.float64), want, 1.01 * _epsilon(dtype), 1e-7)
    assert np.all(out[:, cols:].astype(np.float32) == 7)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_layer_norm_in_float32_stored_in_the_dtype(run: Any, dtype: np.dtype) -> None:
    rows, cols = 6, 100
    # an offset mean: an f16/bf16 sum would lose it, the kernel's f32 sum does not
    x = (_randn((rows, cols), dtype, 4).astype(np.float32) + 30).astype(dtype)
    out = np.zeros((rows, cols), dtype)
    run(K.layer_norm_kernel, (rows,), x, out, cols, 1e-5, BLOCK_SIZE=128)
    xd = x.astype(np.float64)
    d = xd - xd.mean(axis=1, keepdims=True)
    want = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(out.astype(np.float64), want, 1.01 * _epsilon(dtype), 1e-4)


def test_matmul_float32(run: Any) -> None:
    m, n, k = 40, 24, 40  # partial tiles on every axis, and two k steps
    a, b = _randn((m, k), np.dtype(np.float32), 5), _randn((k, n), np.dtype(np.float32), 6)
    c = np.zeros((m, n), np.float32)
    run(
        K.matmul_kernel,
        (triton.cdiv(m, 32) * triton.cdiv(n, 16),),
        a,
        b,
        c,
        m,
        n,
        k,
        *(s // 4 for s in (*a.strides, *b.strides, *c.strides)),
        BLOCK_SIZE_M=32,
        BLOCK_SIZE_N=16,
        BLOCK_SIZE_K=32,
        GROUP_SIZE_M=2,
        INPUT_PRECISION="ieee",
    )
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), 1e-5, 1e-4)


def test_tiny_kernel_float32(run: Any) -> None:
    x = np.arange(128, dtype=np.float32)
    run(K.tiny_kernel, (1,), x, 100, BLOCK=128)
    want = np.arange(128, dtype=np.float32)
    want[:100] += 1
    np.testing.assert_array_equal(x, want)
