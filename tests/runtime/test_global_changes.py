"""A global a compiled kernel holds, changed afterwards, is an error at the next launch (Triton's
``RuntimeError: Global variable X has changed since we compiled this kernel``), never the old
value run silently; ``clear_cache()`` compiles the new one. Which globals count: values,
constexprs (also mutated in place), dtypes, ``@jit`` helpers and their own globals, attributes
of user modules; not modules, classes or plain functions. Plain globals (``SCALE = 2.0``) are
read only with ``TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1`` (Triton's rule), which these tests set;
``test_constexpr_global_change_caught_by_default`` runs without it."""

from __future__ import annotations

import re
import types
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import GlobalChangedError, LaunchError

X = np.zeros(16, np.float32)

SCALE = 2.0
WIDTH = tl.constexpr(16)
DTYPE = tl.float32
LIMITS = (1.0, 2.0)
cfg = types.ModuleType("user_cfg")
cfg.OFFSET = 3.0  # type: ignore[attr-defined]


@triton.jit
def helper_one(x):
    return x + SCALE


@triton.jit
def helper_two(x):
    return x - 1.0


@triton.jit
def uses_helper(out):
    offs = tl.arange(0, 16)
    tl.store(out + offs, helper_one(tl.zeros((16,), tl.float32)))


@pytest.fixture(autouse=True)
def interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "1")


def test_constexpr_global_change_caught_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the variable only ``tl.constexpr(...)`` globals are read, and a change of one
    is caught (Triton's ``test_local_does_not_shadow_global``)."""
    monkeypatch.delenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS")
    k = fresh("WIDTH")
    out = np.zeros(16, np.float32)
    k[(1,)](out)
    np.testing.assert_array_equal(out, 16.0)
    monkeypatch.setitem(globals(), "WIDTH", tl.constexpr(17))
    with pytest.raises(GlobalChangedError, match=r"WIDTH has changed .* to constexpr\[17\]"):
        k[(1,)](out)


def fresh(body: str) -> Any:
    """A new kernel ``k(out)`` storing ``body`` (an f32 expression), reading this module."""
    src = (
        "@triton.jit\n"
        "def k(out):\n"
        "    offs = tl.arange(0, 16)\n"
        f"    tl.store(out + offs, tl.zeros((16,), tl.float32) + {body})\n"
    )
    namespace = globals()
    exec(src, namespace)
    return namespace.pop("k")


def launch(kernel: Any) -> np.ndarray:
    out = np.zeros(16, np.float32)
    kernel[(1,)](out)
    return out


@pytest.mark.parametrize(
    ("body", "name", "change", "old_new"),
    [
        ("SCALE", "SCALE", 5.0, "from 2.0 to 5.0"),
        ("WIDTH", "WIDTH", tl.constexpr(8), "from constexpr[16] to constexpr[8]"),
        ("tl.zeros((16,), DTYPE)", "DTYPE", tl.float16, "from fp32 to fp16"),
        ("cfg.OFFSET", "cfg.OFFSET", 4.0, "from 3.0 to 4.0"),
    ],
    ids=["float", "constexpr", "dtype", "module-attribute"],
)
def test_changed_global_is_an_error_until_clear_cache(
    monkeypatch: pytest.MonkeyPatch, body: str, name: str, change: Any, old_new: str
) -> None:
    k = fresh(body)
    before = launch(k)
    launch(k)  # unchanged: fine
    if "." in name:
        monkeypatch.setattr(cfg, name.split(".")[1], change)
    else:
        monkeypatch.setitem(globals(), name, change)
    with pytest.raises(GlobalChangedError, match=f"Global variable {name} has changed") as e:
        launch(k)
    message = str(e.value)
    assert old_new in message and "since we compiled this kernel" in message
    assert "`k` reads it at <string>:4;" in message and "k.clear_cache()" in message
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, LaunchError)
    with pytest.raises(GlobalChangedError):
        k.warmup(np.zeros(16, np.float32), grid=(1,))  # warmups check too, as Triton's
    k.clear_cache()
    after = launch(k)
    if name != "DTYPE":
        assert not np.array_equal(before, after)


def test_constexpr_changed_in_place_in_a_closure() -> None:
    """Triton's test_cache_closure: the same constexpr object, another value."""

    def make(cst: Any) -> Any:
        @triton.jit
        def closure(out):
            tl.store(out + tl.arange(0, 16), tl.full((16,), cst, dtype=tl.float32))

        return closure

    cst = tl.constexpr(42)
    k = make(cst)
    assert (launch(k) == 42).all()
    cst.value = 43
    with pytest.raises(
        GlobalChangedError,
        match=r"cst has changed since we compiled this kernel, from constexpr\[42\] to "
        r"constexpr\[43\]",
    ):
        launch(k)
    k.clear_cache()
    assert (launch(k) == 43).all()


def test_helper_rebound_and_helper_globals(monkeypatch: pytest.MonkeyPatch) -> None:
    uses_helper.clear_cache()
    assert (launch(uses_helper) == 2.0).all()
    monkeypatch.setitem(globals(), "SCALE", 7.0)  # read by the helper, not the kernel
    with pytest.raises(GlobalChangedError, match="SCALE"):
        launch(uses_helper)
    monkeypatch.setitem(globals(), "SCALE", 2.0)
    launch(uses_helper)  # the same value again: fine
    monkeypatch.setitem(globals(), "helper_one", helper_two)
    with pytest.raises(GlobalChangedError, match="helper_one has changed"):
        launch(uses_helper)
    uses_helper.clear_cache()
    assert (launch(uses_helper) == -1.0).all()
    assert not uses_helper.used_global_vals  # Triton's view: no helpers in it
    uses_helper.clear_cache()


def test_tuple_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    k = fresh("LIMITS[1]")
    assert (launch(k) == 2.0).all()
    monkeypatch.setitem(globals(), "LIMITS", (1.0, 3.0))
    with pytest.raises(GlobalChangedError, match=r"from \(1.0, 2.0\) to \(1.0, 3.0\)"):
        launch(k)


def test_deleted_global(monkeypatch: pytest.MonkeyPatch) -> None:
    k = fresh("SCALE")
    launch(k)
    monkeypatch.delitem(globals(), "SCALE")
    with pytest.raises(GlobalChangedError, match=re.escape("from 2.0 to <deleted>")):
        launch(k)


def test_equal_value_is_no_change(monkeypatch: pytest.MonkeyPatch) -> None:
    k = fresh("SCALE")
    launch(k)
    monkeypatch.setitem(globals(), "SCALE", float("2.0"))  # another object, the same value
    launch(k)
    monkeypatch.setitem(globals(), "SCALE", 2)  # an int: another type, another kernel
    with pytest.raises(GlobalChangedError, match=re.escape("from 2.0 to 2")):
        launch(k)


def test_read_before_a_local_of_the_same_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton's test_local_does_not_shadow_global: the read before the assignment is global."""

    @triton.jit
    def k(out):
        a = WIDTH  # noqa: F823
        tl.store(out + tl.arange(0, 16), tl.zeros((16,), tl.float32) + a)
        WIDTH = 0  # noqa: F841

    assert (launch(k) == 16).all()
    monkeypatch.setitem(globals(), "WIDTH", tl.constexpr(8))
    with pytest.raises(GlobalChangedError, match="WIDTH"):
        launch(k)


def test_modules_and_helpers_are_not_in_triton_s_view() -> None:
    k = fresh("tl.sqrt(tl.full((16,), 4.0, tl.float32)) + helper_two(1.0)")
    assert (launch(k) == 2.0).all()
    assert not k.used_global_vals  # Triton's test_no_cache_module_as_global / _callable
    assert [r.name for r in k._globals] == ["helper_two"]  # tracked by identity all the same


def test_compile_only_backend_checks_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cuda backend with NumPy arrays compiles only: warmups and launches check alike."""
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    k = fresh("SCALE")
    compiled = k.warmup(X, grid=(1,))
    assert "2.000000e+00" in compiled.asm["tt"]
    monkeypatch.setitem(globals(), "SCALE", 3.0)
    with pytest.raises(GlobalChangedError, match=re.escape("from 2.0 to 3.0")):
        k.warmup(X, grid=(1,))
    k.clear_cache()
    assert "3.000000e+00" in k.warmup(X, grid=(1,)).asm["tt"]


INNER_LIMIT = tl.constexpr(0)


@triton.jit
def inner_reads_limit(out):
    tl.store(out, INNER_LIMIT)


def test_a_helper_keeps_the_value_it_first_compiled_with(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Triton's rule: kernel2 reads a global with another value than the helper it calls did
    when kernel1 compiled it: a RuntimeError naming both (before compiling kernel2: Triton
    checks it first, even where the new value would not compile)."""
    monkeypatch.delenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", raising=False)
    out = np.zeros(1, np.int32)

    @triton.jit
    def kernel1(out):
        tl.static_assert(INNER_LIMIT == 0)
        inner_reads_limit(out)

    @triton.jit
    def kernel2(out):
        a = INNER_LIMIT  # noqa: F841
        inner_reads_limit(out)

    kernel1[(1,)](out)
    monkeypatch.setitem(globals(), "INNER_LIMIT", 1)  # not even a constexpr now
    with pytest.raises(GlobalChangedError, match="Global variable INNER_LIMIT has value 1") as e:
        kernel2[(1,)](out)
    assert isinstance(e.value, RuntimeError)
    assert "inner kernel inner_reads_limit has conflicting value" in str(e.value)
    # the same value in a kernel compiled later is fine
    monkeypatch.setitem(globals(), "INNER_LIMIT", tl.constexpr(0))
    kernel2[(1,)](out)
    # Triton's memo reset (``hash = None``) or the first kernel's clear_cache forgets it
    monkeypatch.setitem(globals(), "INNER_LIMIT", tl.constexpr(5))

    @triton.jit
    def kernel3(out):
        inner_reads_limit(out)

    with pytest.raises(GlobalChangedError):
        kernel3[(1,)](out)
    inner_reads_limit.hash = None
    kernel3[(1,)](out)
    assert out[0] == 5
