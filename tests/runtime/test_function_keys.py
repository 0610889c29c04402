"""The cache keys of ``constexpr_function``\\ s and of ``@jit`` functions given as compile-time
arguments, as Triton 3.6's ``test_cache.py`` reads them: ``src``, ``_unsafe_update_src``,
``cache_key`` (with Triton's refusal of a read Python function), and a disk-cache hit for a
kernel whose ``@jit`` argument had its source replaced and restored."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import SourceUnavailableError, UnsupportedReferenceError
from mytriton.runtime import disk_cache
from tests.runtime.test_disk_cache import _SWITCHES


@triton.constexpr_function
def flag_fn():
    return False


@triton.constexpr_function
def calls_flag(n):
    return flag_fn() or n > 4


@triton.jit
def flag_user(out):
    a: tl.constexpr = flag_fn()
    tl.store(out, a)


@triton.constexpr_function
def reads_numpy(n):
    return np.log2(n)


@triton.constexpr_function
def reads_the_language(n):
    return triton.cdiv(n, 2) + math.floor(len([n])) + int(tl.float32.primitive_bitwidth)


@pytest.fixture(autouse=True)
def _interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")


def test_src_starts_at_the_def_line() -> None:
    assert flag_fn.src == "def flag_fn():\n    return False\n"
    assert Path(__file__).read_text().splitlines()[flag_fn.starting_line_number - 1] == (
        "def flag_fn():"
    )


def test_key_follows_the_source_and_the_new_source_runs() -> None:
    base, user, caller = flag_fn.cache_key, flag_user.cache_key, calls_flag.cache_key
    orig = flag_fn.src
    flag_fn._unsafe_update_src(orig.replace("False", "True"))
    try:
        assert flag_fn() is True and calls_flag(1) is True
        assert flag_fn.cache_key != base
        assert flag_user.cache_key != user  # a kernel reading it
        assert calls_flag.cache_key != caller  # a constexpr function reading it
    finally:
        flag_fn._unsafe_update_src(orig)
    flag_fn.hash = None  # Triton's memo reset is accepted
    assert flag_fn() is False
    assert (flag_fn.cache_key, flag_user.cache_key, calls_flag.cache_key) == (base, user, caller)


def test_a_launch_compiles_the_new_source() -> None:
    @triton.jit
    def store_flag(out):
        tl.store(out, flag_fn())

    orig = flag_fn.src
    out = np.zeros(1, np.int32)
    flag_fn._unsafe_update_src(orig.replace("False", "7"))
    try:
        store_flag[(1,)](out)
    finally:
        flag_fn._unsafe_update_src(orig)
    assert out[0] == 7


def test_a_closure_keeps_its_cells() -> None:
    scale = 3

    @triton.constexpr_function
    def scaled(n):
        return n * scale

    scaled._unsafe_update_src(scaled.src.replace("n * scale", "n * scale + 1"))
    assert scaled(2) == 7
    with pytest.raises(SourceUnavailableError, match="not one `def`"):
        scaled._unsafe_update_src("scaled = 1\n")
    assert scaled(2) == 7


def test_reading_another_python_function_is_refused() -> None:
    with pytest.raises(UnsupportedReferenceError, match="Unsupported function referenced") as e:
        reads_numpy.cache_key
    assert isinstance(e.value, RuntimeError)  # Triton's type
    assert reads_numpy(8) == 3.0  # calling it is fine
    assert len(reads_the_language.cache_key) == 64


def test_kernel_key_of_a_refused_constexpr_function_is_its_source() -> None:
    @triton.jit
    def user(out):
        tl.store(out, reads_numpy(8))

    assert len(user.cache_key) == 64


@triton.jit
def call_func(out_ptr, FUNC: tl.constexpr):
    tl.store(out_ptr, FUNC())


def test_replaced_and_restored_jit_argument_hits_the_disk_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")  # compile-only here, cached on disk
    for var in _SWITCHES:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(disk_cache, "stats", disk_cache.CacheStats())

    @triton.jit
    def fn_a():
        return 0

    out = np.zeros((), np.int32)
    orig = fn_a.src
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        call_func[(1,)](out, fn_a)
        fn_a._unsafe_update_src(orig.replace("0", "1"))
        call_func[(1,)](out, fn_a)  # a new source: compiled
        assert disk_cache.stats.stores == 2
        call_func.device_caches.clear()
        call_func[(1,)](out, fn_a)
        fn_a._unsafe_update_src(orig)
        call_func[(1,)](out, fn_a)
    assert (disk_cache.stats.stores, disk_cache.stats.hits) == (2, 2)
    call_func.clear_cache()
