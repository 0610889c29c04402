"""Triton's runtime cache API, as its runtime/test_cache.py and test_launch.py use it, pinned on
the CPU backends: ``cache_key``, ``device_caches``, ``preload``, ``knobs.*.scope()``,
``refresh_knobs`` and the compile and launch hooks."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton import knobs
from mytriton.errors import AutotuneError, DeviceAssertionError, LaunchError, MyTritonError
from mytriton.runtime.mock_tensor import MockTensor


@pytest.fixture(autouse=True)
def gpusim(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    with knobs.runtime.scope():
        yield


@triton.jit
def _store(X, v, BLOCK: tl.constexpr):
    tl.store(X + tl.arange(0, BLOCK), tl.full((BLOCK,), v, tl.int32))


@triton.jit
def _one():
    return 1


@triton.jit
def _call(out, FN: tl.constexpr):
    tl.store(out, FN())


def _counter() -> tuple[list[dict[str, Any]], Any]:
    calls: list[dict[str, Any]] = []

    def hook(**kwargs: Any) -> None:
        calls.append(kwargs)

    return calls, hook


def test_jit_cache_hook_once_per_compile() -> None:
    calls, hook = _counter()
    knobs.runtime.jit_cache_hook = hook
    x = np.zeros(4, np.int32)
    for v in (2, 3, 5):  # one specialization
        _store[(1,)](x, v, BLOCK=4)
    assert len(calls) <= 1  # 0 when an earlier test compiled it
    _store.device_caches.clear()
    _store[(1,)](x, 7, BLOCK=4)
    assert len(calls) == len(calls[:-1]) + 1 and calls[-1]["compile"]["is_warmup"] is False
    info = calls[-1]
    assert info["fn"].name == "_store" and info["fn"].jit_function is _store
    assert info["compile"]["signature"] == {"X": "*i32", "v": "i32", "BLOCK": "constexpr"}
    assert info["key"] in _store.device_caches["cpu"][0]
    np.testing.assert_array_equal(x, np.full(4, 7))


def test_jit_cache_hook_that_returns_true_skips_the_compile() -> None:
    @triton.jit
    def kernel(X):
        tl.store(X, 1)

    knobs.runtime.jit_cache_hook = lambda **kwargs: True
    x = np.zeros(1, np.int32)
    assert kernel[(1,)](x) is None
    assert x[0] == 0 and len(kernel.device_caches["cpu"][0]) == 0


def test_post_compile_hook_gets_the_same_specialization_data() -> None:
    before, hook = _counter()
    after, post = _counter()
    knobs.runtime.jit_cache_hook = hook
    knobs.runtime.jit_post_compile_hook = post

    @triton.jit
    def kernel(X, N: tl.constexpr):
        tl.store(X + tl.arange(0, N), 1)

    kernel.warmup(np.zeros(8, np.int32), 8, grid=(1,))
    assert len(before) == len(after) == 1
    data = before[0]["compile"]["specialization_data"]
    assert after[0]["compile"]["specialization_data"] == data
    assert json.loads(data)["name"].endswith(
        "test_post_compile_hook_gets_the_same_specialization_data.<locals>.kernel"
    )
    assert before[0]["compile"]["is_warmup"] is True


def test_preload_compiles_what_the_hook_saw() -> None:
    seen, hook = _counter()
    knobs.runtime.jit_cache_hook = hook

    @triton.jit
    def kernel(a, o, n, N: tl.constexpr, T: tl.constexpr):
        idx = tl.arange(0, N)
        tl.store(o + idx, tl.load(a + idx).to(T) * n)

    first = kernel.warmup(
        np.zeros(32, np.float32), np.zeros(32, np.float32), 1, 32, tl.float32, grid=(1,)
    )
    data = seen[0]["compile"]["specialization_data"]
    kernel.device_caches["cpu"][0].clear()
    again = kernel.preload(data)
    assert again is not None and again.hash == first.hash
    assert len(kernel.device_caches["cpu"][0]) == 1
    # a launch of the same specialization finds the preloaded kernel
    a = np.arange(32, dtype=np.float32)
    o = np.zeros(32, np.float32)
    assert kernel[(1,)](a, o, 1, 32, tl.float32) is again and len(seen) == 2
    np.testing.assert_array_equal(o, a)

    @triton.jit
    def other(a, o, n, N: tl.constexpr, T: tl.constexpr):
        pass

    with pytest.raises(RuntimeError, match="Specialization data is for"):
        other.preload(data)


def test_warmup_on_mock_tensors() -> None:
    @triton.jit
    def kernel(a, o, N: tl.constexpr):
        idx = tl.arange(0, N)
        tl.store(o + idx, tl.load(a + idx))

    kernel.warmup(MockTensor(tl.float32), MockTensor(tl.float32), 16, grid=(1,))
    assert len(kernel.device_caches["cpu"][0]) == 1
    # an aligned float32 array specializes the same way
    kernel.warmup(np.zeros(16, np.float32), np.zeros(16, np.float32), 16, grid=(1,))
    assert len(kernel.device_caches["cpu"][0]) == 1
    with pytest.raises(LaunchError, match="MockTensor"):
        kernel[(1,)](MockTensor(tl.float32), MockTensor(tl.float32), 16)


def test_warmup_on_torch_dtypes() -> None:
    torch = pytest.importorskip("torch")

    @triton.jit
    def kernel(a, o, N: tl.constexpr):
        idx = tl.arange(0, N)
        tl.store(o + idx, tl.load(a + idx))

    kernel.warmup(torch.float32, torch.float32, 16, grid=(1,))
    kernel.warmup(torch.zeros(16), torch.zeros(16), 16, grid=(1,))
    assert len(kernel.device_caches["cpu"][0]) == 1


def test_device_caches_clear_compiles_again() -> None:
    calls, hook = _counter()
    knobs.runtime.jit_cache_hook = hook

    @triton.jit
    def kernel(X):
        tl.store(X, 5)

    x = np.zeros(1, np.int32)
    kernel[(1,)](x)
    kernel[(1,)](x)  # the fast path
    assert len(calls) == 1 and len(kernel.device_caches["cpu"][0]) == 1
    kernel.device_caches["cpu"][0].clear()
    kernel[(1,)](x)
    assert len(calls) == 2
    assert len(kernel.device_caches[None][0]) == 0  # no compile-only kernel


def test_replaced_source_of_a_jit_argument_recompiles() -> None:
    """Regression: a @jit function passed as a constexpr was keyed by identity, so after
    ``_unsafe_update_src`` the launch ran the kernel compiled from the old source."""

    @triton.jit
    def fn():
        return 1

    out = np.zeros(1, np.int32)
    _call[(1,)](out, fn)
    assert out[0] == 1
    original = fn.src
    fn._unsafe_update_src(original.replace("return 1", "return 2"))
    _call[(1,)](out, fn)
    assert out[0] == 2
    fn._unsafe_update_src(original)
    _call[(1,)](out, fn)
    assert out[0] == 1


def test_cache_key_follows_sources_and_lines() -> None:
    key = _call.cache_key
    assert key == _call.cache_key and _call.hash == key
    _call.hash = None  # Triton's reset of its memo
    original = _one.src
    _one._unsafe_update_src(original.replace("return 1", "return 2"))
    try:
        # _call reads no helper by name: its key is its own
        assert _call.cache_key == key
        k1 = _one.cache_key
    finally:
        _one._unsafe_update_src(original)
    assert _one.cache_key != k1
    with pytest.raises(AttributeError):
        _call.hash = "x"


def test_launch_hooks_get_the_launch_metadata() -> None:
    seen: list[Any] = []

    def metadata(grid: Any, kernel: Any, args: dict[str, Any]) -> dict[str, Any]:
        return {"grid": grid, "value": args["v"]}

    @triton.jit(launch_metadata=metadata)
    def kernel(X, v):
        tl.store(X, v)

    order: list[str] = []
    enter = lambda m: (order.append("enter"), seen.append(m.get()))  # noqa: E731
    leave = lambda m: order.append("exit")  # noqa: E731
    x = np.zeros(1, np.int32)
    kernel[(1,)](x, 3)  # warm: a fast path exists
    knobs.runtime.launch_enter_hook.add(enter)
    knobs.runtime.launch_exit_hook.add(leave)
    try:
        kernel[(1, 3, 2)](x, 6)
    finally:
        knobs.runtime.launch_enter_hook.remove(enter)
        knobs.runtime.launch_exit_hook.remove(leave)
    assert order == ["enter", "exit"]
    assert seen[0]["grid"] == (1, 3, 2) and seen[0]["value"] == 6 and seen[0]["name"] == "kernel"
    kernel[(1,)](x, 7)
    assert len(seen) == 1 and x[0] == 7


def test_hook_chain_order() -> None:
    calls: list[int] = []
    chain = knobs.HookChain(reversed=True)
    assert not chain
    first, second = (lambda: calls.append(1)), (lambda: calls.append(2))
    chain.add(first)
    chain.add(second)
    chain.add(first)
    chain()
    assert calls == [2, 1]


def test_scope_restores_knobs_and_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRITON_CACHE_DIR", raising=False)
    monkeypatch.delenv("MYTRITON_CACHE_DIR", raising=False)
    before = knobs.cache.dir
    with knobs.cache.scope(), knobs.runtime.scope():
        knobs.cache.dir = "/tmp/elsewhere"
        knobs.runtime.jit_cache_hook = print
        assert knobs.cache.dir == "/tmp/elsewhere"
    assert knobs.cache.dir == before and knobs.runtime.jit_cache_hook is None


def test_refresh_knobs_sees_triton_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    @triton.jit
    def kernel(COND: tl.constexpr):
        tl.device_assert(COND, "cond")

    monkeypatch.setenv("TRITON_DEBUG", "1")
    knobs.refresh_knobs()
    assert knobs.runtime.debug is True
    with pytest.raises(DeviceAssertionError):
        kernel[(1,)](False)
    monkeypatch.setenv("TRITON_DEBUG", "0")
    knobs.refresh_knobs()
    kernel[(1,)](False)


def test_prune_that_leaves_nothing_says_so_as_triton() -> None:
    @triton.autotune(
        configs=[triton.Config({"B": 4}), triton.Config({"B": 8})],
        key=[],
        prune_configs_by={"early_config_prune": lambda configs, nargs, **kw: []},
    )
    @triton.jit
    def kernel(X, B: tl.constexpr):
        tl.store(X + tl.arange(0, B), 1)

    with pytest.raises(AutotuneError) as e:
        kernel[(1,)](np.zeros(8, np.int32))
    assert str(e.value) == (
        "Autotuner error: No valid autotuner configs after pruning. "
        "`early_config_prune` should return at least one config."
    )
    assert isinstance(e.value, MyTritonError)
