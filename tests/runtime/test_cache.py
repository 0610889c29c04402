"""The JIT specialization cache: what hits, what misses, and clear_cache."""

from __future__ import annotations

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import GlobalChangedError
from tests.frontend.util import XI, X, Y


@triton.jit
def scale_kernel(x, out, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n) * s, mask=offs < n)


@pytest.fixture(autouse=True)
def fresh_cache():
    scale_kernel.clear_cache()
    yield
    scale_kernel.clear_cache()


def launch(*args, **kwargs):
    return scale_kernel[(1,)](*args, **kwargs)


def test_same_specialization_hits():
    a = launch(X, Y, 2.0, 10, BLOCK=16)
    b = launch(np.ones(7, np.float32), np.ones(7, np.float32), 3.5, 99, BLOCK=16)
    c = scale_kernel.warmup(X, Y, 2.0, 10, grid=(4,), BLOCK=16)
    assert a is b is c
    assert len(scale_kernel.cache) == 1


def test_python_and_numpy_scalars_of_one_kind_share_an_entry():
    a = launch(X, Y, 2.0, 10, BLOCK=16)
    b = launch(X, Y, np.float32(2.0), np.int32(10), BLOCK=16)
    assert a is b


@pytest.mark.parametrize(
    ("args", "kwargs", "why"),
    [
        ((XI, XI, 2.0, 10), {"BLOCK": 16}, "array dtype"),
        ((X, Y, 2.0, 10), {"BLOCK": 32}, "constexpr value"),
        ((X, Y, 2, 10), {"BLOCK": 16}, "scalar kind int vs float"),
        ((X, Y, True, 10), {"BLOCK": 16}, "scalar kind bool vs float"),
        ((X, Y, 2.0, 10), {"BLOCK": 16, "num_warps": 8}, "num_warps"),
        ((X, Y, 2.0, 10), {"BLOCK": 16, "num_stages": 2}, "num_stages"),
    ],
)
def test_different_specialization_misses(args, kwargs, why):
    base = launch(X, Y, 2.0, 10, BLOCK=16)
    other = launch(*args, **kwargs)
    assert other is not base, why
    assert len(scale_kernel.cache) == 2
    assert launch(*args, **kwargs) is other  # and then hits


def test_constexpr_key_includes_type():
    """BLOCK=16 and BLOCK=16.0 compare equal in Python but are different specializations."""

    @triton.jit
    def k(x, out, C: tl.constexpr):
        tl.store(out, C * 1.0)

    a = k.warmup(X, Y, grid=(1,), C=16)
    b = k.warmup(X, Y, grid=(1,), C=16.0)
    assert a is not b
    assert len(k.cache) == 2


def test_specialization_changes_the_ir():
    f = launch(X, Y, 2.0, 10, BLOCK=16)
    i = launch(XI, XI, 2, 10, BLOCK=16)
    assert "%x: !tt.ptr<f32>" in f.asm["tt"] and "%s: f32" in f.asm["tt"]
    assert "%x: !tt.ptr<i32>" in i.asm["tt"] and "%s: i32" in i.asm["tt"]


def test_clear_cache_recompiles():
    a = launch(X, Y, 2.0, 10, BLOCK=16)
    scale_kernel.clear_cache()
    assert scale_kernel.cache == {}
    b = launch(X, Y, 2.0, 10, BLOCK=16)
    assert b is not a
    assert b.asm["tt"] == a.asm["tt"]


def test_clear_cache_sees_changed_globals():
    """Globals are compile-time values: a change is an error until clear_cache() picks it up."""
    import tests.runtime.test_cache as me

    me.SCALE = tl.constexpr(2.0)
    try:

        @triton.jit
        def k(x, out):
            tl.store(out, SCALE)  # noqa: F821

        assert "2.000000e+00" in k.warmup(X, Y, grid=(1,)).asm["tt"]
        me.SCALE = tl.constexpr(5.0)
        with pytest.raises(
            GlobalChangedError,
            match=r"SCALE has changed .* from constexpr\[2\.0\] to constexpr\[5\.0\]",
        ):
            k.warmup(X, Y, grid=(1,))  # not the old value, silently
        k.clear_cache()
        assert "5.000000e+00" in k.warmup(X, Y, grid=(1,)).asm["tt"]
    finally:
        del me.SCALE


def test_pipeline_override_is_part_of_the_key(monkeypatch):
    optimised = launch(X, Y, 2.0, 10, BLOCK=16)
    monkeypatch.setenv("MYTRITON_PIPELINE", "")
    raw = launch(X, Y, 2.0, 10, BLOCK=16)
    assert raw is not optimised
    # no pass ran: the tt-opt stage only wrote the launch's num_stages on the module
    with_stages = "builtin.module attributes {tt.num_stages = 3 : i32} {"
    assert raw.asm["tt-opt"] == raw.asm["tt"].replace("builtin.module {", with_stages, 1)
    assert optimised.asm["tt-opt"] != raw.asm["tt-opt"]


def test_backend_is_part_of_the_key(monkeypatch):
    a = launch(X, Y, 2.0, 10, BLOCK=16)
    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    b = launch(X, Y, 2.0, 10, BLOCK=16)
    assert a is not b
    assert (a.backend, b.backend) == ("cuda", "mlir")


def test_caches_are_per_kernel():
    @triton.jit
    def other(x, out, s, n, BLOCK: tl.constexpr):
        tl.store(out, s)

    launch(X, Y, 2.0, 10, BLOCK=16)
    other.warmup(X, Y, 2.0, 10, grid=(1,), BLOCK=16)
    assert len(scale_kernel.cache) == 1 and len(other.cache) == 1
    other.clear_cache()
    assert len(scale_kernel.cache) == 1


@triton.jit
def fill_constexpr_kernel(out, C: tl.constexpr):
    tl.store(out + tl.arange(0, 4), tl.full((4,), C, tl.float32))


@pytest.mark.parametrize("launch_twice", [False, True])
def test_signed_zero_constexprs_are_distinct(monkeypatch, launch_twice):
    """``0.0 == -0.0`` in Python: the cache (and the launch fast path) still tell them apart,
    and each stores +0.0, as Triton does (it emits the type's zero for any scalar == 0)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    fill_constexpr_kernel.clear_cache()
    out = np.full(4, np.nan, np.float32)
    for c in (0.0, -0.0) if not launch_twice else (0.0, -0.0, 0.0, -0.0):
        fill_constexpr_kernel[(1,)](out, C=c)
        assert np.all(out == 0.0) and not np.any(np.signbit(out)), c
    assert len(fill_constexpr_kernel.cache) == 2


def test_nan_constexpr_compiles_once(monkeypatch):
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    fill_constexpr_kernel.clear_cache()
    out = np.zeros(4, np.float32)
    first = fill_constexpr_kernel[(1,)](out, C=float("nan"))
    again = fill_constexpr_kernel[(1,)](out, C=float("nan"))
    assert first is again and len(fill_constexpr_kernel.cache) == 1
    assert np.isnan(out).all()
