"""``triton.autotune``, ``triton.heuristics`` and ``triton.Config`` on the interpreter (configs
timed by a fake ``do_bench`` where the selection matters), plus GPU timing when a GPU exists."""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import BackendError, BackendUnavailableError, LaunchError, OutOfResources
from mytriton.runtime import autotuner as autotuner_module
from mytriton.runtime.autotuner import Autotuner, Config, is_resource_error
from tests.gpu_required import require_gpu


@pytest.fixture(autouse=True)
def interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    monkeypatch.delenv("MYTRITON_PRINT_AUTOTUNING", raising=False)
    monkeypatch.delenv("TRITON_PRINT_AUTOTUNING", raising=False)
    monkeypatch.delenv("TRITON_CACHE_AUTOTUNING", raising=False)
    monkeypatch.setattr(autotuner_module, "_UNTIMED_WARNED", True)


@triton.jit
def add_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + 1, mask=mask)


@triton.jit
def accumulate_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.load(out + offs, mask=mask)
    tl.store(out + offs, acc + tl.load(x + offs, mask=mask), mask=mask)


@triton.jit
def limited_kernel(x, out, n, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK <= 16, "BLOCK too large")
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + 1, mask=mask)


@triton.jit
def masked_kernel(x, out, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out + offs, tl.load(x + offs) * 2)
    else:
        mask = offs < n
        tl.store(out + offs, tl.load(x + offs, mask=mask) * 2, mask=mask)


BLOCKS = (8, 16, 32)
CONFIGS = [Config({"BLOCK": b}, num_warps=1) for b in BLOCKS]


def grid(meta: dict[str, Any]) -> tuple[int]:
    return (triton.cdiv(meta["n"], meta["BLOCK"]),)


class FakeBench:
    """A ``do_bench`` that runs the call once and reports a time per config (from a table
    keyed by the BLOCK the call's pre-hook saw)."""

    def __init__(self, times: dict[int, float]):
        self.times = times
        self.calls = 0
        self.block: int | None = None

    def pre_hook(self, kwargs: dict[str, Any], reset_only: bool = False) -> None:
        if not reset_only:
            self.block = kwargs["BLOCK"]

    def __call__(self, fn: Callable[[], Any], quantiles: Any = None) -> list[float]:
        self.calls += 1
        fn()
        assert self.block is not None
        return [self.times[self.block]] * 3


def tuned(kernel: Any, bench: FakeBench, **kwargs: Any) -> Autotuner:
    return triton.autotune(CONFIGS, key=["n"], do_bench=bench, pre_hook=bench.pre_hook, **kwargs)(
        kernel
    )


def inputs(n: int, dtype: Any = np.float32) -> tuple[np.ndarray, np.ndarray]:
    return np.arange(n, dtype=dtype), np.zeros(n, dtype=dtype)


def test_config_str_kwargs_and_identity() -> None:
    c = Config({"BLOCK": 32}, num_warps=8, num_stages=2)
    assert c.all_kwargs() == {"BLOCK": 32, "num_warps": 8, "num_ctas": 1, "num_stages": 2}
    assert str(c) == (
        "BLOCK: 32, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: None, ir_override: None"
    )
    assert c == Config({"BLOCK": 32}, num_warps=8, num_stages=2)
    assert len({c, Config({"BLOCK": 32}, num_warps=8, num_stages=2)}) == 1
    assert Config({}, maxnreg=64).all_kwargs()["maxnreg"] == 64


def test_untimed_on_interpreter_picks_first_config_and_warns_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(autotuner_module, "_UNTIMED_WARNED", False)
    kernel = triton.autotune(CONFIGS, key=["n"])(add_kernel)
    x, out = inputs(40)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kernel[grid](x, out, 40)
        kernel[grid](x, out, 24)
    np.testing.assert_array_equal(out, x + 1)
    assert kernel.best_config == CONFIGS[0]
    assert len([w for w in caught if "not timed" in str(w.message)]) == 1


def test_selects_fastest_config_per_key_and_dtype() -> None:
    bench = FakeBench({8: 3.0, 16: 1.0, 32: 2.0})
    kernel = tuned(add_kernel, bench)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    np.testing.assert_array_equal(out, x + 1)
    assert kernel.best_config == CONFIGS[1]
    assert bench.calls == 3
    kernel[grid](x, out, 40)  # same key: cached
    assert bench.calls == 3
    assert kernel.cache == {(40, "float32", "float32"): CONFIGS[1]}
    bench.times = {8: 1.0, 16: 3.0, 32: 2.0}
    kernel[grid](x[:24], out[:24], 24)  # new n
    assert bench.calls == 6 and kernel.best_config == CONFIGS[0]
    x64, out64 = inputs(40, np.float64)
    kernel[grid](x64, out64, 40)  # same n, other dtypes
    assert bench.calls == 9
    np.testing.assert_array_equal(out64, x64 + 1)


def test_grid_lambda_sees_config_and_call_kwargs() -> None:
    seen: list[dict[str, Any]] = []

    def recording_grid(meta: dict[str, Any]) -> tuple[int]:
        seen.append(dict(meta))
        return grid(meta)

    kernel = triton.autotune(CONFIGS[2:], key=["n"])(add_kernel)
    x, out = inputs(40)
    kernel[recording_grid](x, out, n=40)
    assert seen[-1]["BLOCK"] == 32 and seen[-1]["n"] == 40
    np.testing.assert_array_equal(out, x + 1)


def test_early_config_prune() -> None:
    bench = FakeBench({8: 3.0, 16: 1.0, 32: 2.0})
    pruned: list[Any] = []

    def prune(configs: list[Config], nargs: dict[str, Any], **kwargs: Any) -> list[Config]:
        pruned.append(nargs["n"])
        return [c for c in configs if c.kwargs["BLOCK"] != 16]

    kernel = tuned(add_kernel, bench, prune_configs_by={"early_config_prune": prune})
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert pruned == [40] and bench.calls == 2
    assert kernel.best_config == CONFIGS[2]


def test_early_config_prune_to_nothing_is_a_launch_error() -> None:
    kernel = triton.autotune(
        CONFIGS, key=["n"], prune_configs_by={"early_config_prune": lambda c, a, **k: []}
    )(add_kernel)
    x, out = inputs(8)
    with pytest.raises(LaunchError, match="early_config_prune"):
        kernel[grid](x, out, 8)


def test_perf_model_top_k() -> None:
    bench = FakeBench({8: 3.0, 16: 1.0, 32: 2.0})
    kernel = tuned(
        add_kernel,
        bench,
        prune_configs_by={"perf_model": lambda **kw: -kw["BLOCK"], "top_k": 2},
    )
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert bench.calls == 2  # BLOCK 32 and 16 (the model's two best)
    assert kernel.best_config == CONFIGS[1]
    kernel.configs_top_k = 0.34  # a fraction of the configs, at least one: no benchmarking
    kernel[grid](x[:16], out[:16], 16)
    assert bench.calls == 2 and kernel.best_config == CONFIGS[2]


def even(args: dict[str, Any]) -> bool:
    return bool(args["n"] % args["BLOCK"] == 0)


def test_heuristics_below_autotune_sees_config() -> None:
    bench = FakeBench({8: 1.0, 16: 2.0, 32: 3.0})
    kernel = tuned(triton.heuristics({"EVEN": even})(masked_kernel), bench)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    np.testing.assert_array_equal(out, x * 2)
    assert kernel.best_config == CONFIGS[0]


def test_heuristics_above_autotune() -> None:
    kernel = triton.heuristics({"EVEN": lambda args: args["n"] % 32 == 0})(
        triton.autotune(CONFIGS, key=["n"])(masked_kernel)
    )
    for n in (40, 64):
        x, out = inputs(n)
        kernel[grid](x, out, n)
        np.testing.assert_array_equal(out, x * 2)


def test_heuristics_alone_computes_block() -> None:
    kernel = triton.heuristics({"BLOCK": lambda args: triton.next_power_of_2(args["n"])})(
        add_kernel
    )
    x, out = inputs(20)
    kernel[(1,)](x, out, 20)
    np.testing.assert_array_equal(out, x + 1)


def test_reset_to_zero() -> None:
    bench = FakeBench({8: 1.0, 16: 2.0, 32: 3.0})
    kernel = triton.autotune(CONFIGS, key=["n"], do_bench=bench, reset_to_zero=["out"])(
        accumulate_kernel
    )
    kernel.pre_hook = _chain(kernel.pre_hook, bench.pre_hook)
    x, out = inputs(40)
    out += 5
    kernel[grid](x, out, 40)
    np.testing.assert_array_equal(out, x)  # zeroed before each run and before the real one


def test_restore_value() -> None:
    bench = FakeBench({8: 1.0, 16: 2.0, 32: 3.0})
    kernel = triton.autotune(CONFIGS, key=["n"], do_bench=bench, restore_value=["out"])(
        accumulate_kernel
    )
    kernel.pre_hook = _chain(kernel.pre_hook, bench.pre_hook)
    x, out = inputs(40)
    out += 5
    kernel[grid](x, out, 40)
    np.testing.assert_array_equal(out, x + 5)  # benchmark runs were undone


def _chain(first: Callable[..., Any], second: Callable[..., Any]) -> Callable[..., Any]:
    def hook(kwargs: dict[str, Any], reset_only: bool = False) -> None:
        first(kwargs, reset_only=reset_only)
        second(kwargs, reset_only=reset_only)

    return hook


def test_pre_and_post_hooks_and_config_pre_hook() -> None:
    events: list[tuple[str, Any]] = []
    bench = FakeBench({8: 2.0, 16: 1.0})

    def pre(kwargs: dict[str, Any], reset_only: bool = False) -> None:
        bench.pre_hook(kwargs, reset_only)
        events.append(("pre", (kwargs["BLOCK"], reset_only)))

    def post(kwargs: dict[str, Any], exception: BaseException | None) -> None:
        events.append(("post", (kwargs["BLOCK"], exception)))

    configs = [
        Config({"BLOCK": 8}, num_warps=1, pre_hook=lambda kw: events.append(("cfg", kw["BLOCK"]))),
        Config({"BLOCK": 16}, num_warps=2),
    ]
    kernel = triton.autotune(configs, key=["n"], do_bench=bench, pre_hook=pre, post_hook=post)(
        add_kernel
    )
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert events == [
        ("cfg", 8),
        ("pre", (8, False)),
        ("post", (8, None)),
        ("pre", (16, False)),
        ("post", (16, None)),
        ("pre", (16, True)),  # reset only, before the real launch
    ]
    assert kernel.best_config is configs[1]
    np.testing.assert_array_equal(out, x + 1)


def test_print_autotuning(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRITON_PRINT_AUTOTUNING", "1")
    bench = FakeBench({8: 2.0, 16: 1.0, 32: 3.0})
    kernel = tuned(add_kernel, bench)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    printed = capsys.readouterr().out
    assert "Autotuning kernel add_kernel with config BLOCK: 8, num_warps: 1" in printed
    assert (
        "Triton autotuning for function add_kernel,\nwith key as (40, 'float32', 'float32')"
        in printed
    )
    assert f"best config selected: {CONFIGS[1]};" in printed
    kernel[grid](x, out, 40)
    assert capsys.readouterr().out == ""  # cached: nothing printed


def test_resource_error_config_is_skipped_when_timed() -> None:
    bench = FakeBench({8: 2.0, 16: 3.0, 32: 1.0})  # 32 would win but does not compile
    kernel = tuned(limited_kernel, bench)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert kernel.best_config == CONFIGS[0]
    assert kernel.configs_timings[CONFIGS[2]] == [math.inf] * 3
    np.testing.assert_array_equal(out, x + 1)


def test_resource_error_config_is_skipped_when_untimed() -> None:
    configs = [Config({"BLOCK": 32}), Config({"BLOCK": 16})]
    kernel = triton.autotune(configs, key=["n"])(limited_kernel)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert kernel.best_config == configs[1]
    np.testing.assert_array_equal(out, x + 1)


def test_resource_errors_are_classified() -> None:
    assert is_resource_error(BackendError("kernel needs 300000 bytes of shared memory"))
    assert not is_resource_error(BackendUnavailableError("no GPU"))
    assert not is_resource_error(ValueError("user bug"))


def test_conflicting_meta_parameter_is_a_value_error_as_in_triton() -> None:
    kernel = triton.autotune(CONFIGS, key=["n"])(add_kernel)
    x, out = inputs(8)
    with pytest.raises(LaunchError, match="conflicting meta-parameters: BLOCK") as caught:
        kernel[grid](x, out, 8, BLOCK=8)
    assert isinstance(caught.value, ValueError)


def test_top_k_of_a_wrong_type_is_a_type_error_as_in_triton() -> None:
    kernel = triton.autotune(
        CONFIGS, key=["n"], prune_configs_by={"perf_model": lambda **kw: 0, "top_k": "2"}
    )(add_kernel)
    x, out = inputs(8)
    with pytest.raises(TypeError, match=r"top_k must be a float <= 1\.0 or an int"):
        kernel[grid](x, out, 8)


def test_single_config_is_not_benchmarked() -> None:
    bench = FakeBench({})
    kernel = triton.autotune(CONFIGS[:1], key=["n"], do_bench=bench)(add_kernel)
    x, out = inputs(20)
    kernel[grid](x, out, 20)
    assert bench.calls == 0 and kernel.best_config == CONFIGS[0]
    np.testing.assert_array_equal(out, x + 1)


def test_warmup_compiles_every_config() -> None:
    kernel = triton.autotune(CONFIGS, key=["n"])(add_kernel)
    x, out = inputs(8)
    compiled = kernel.warmup(x, out, 8, grid=(1,))
    assert len(compiled) == 3
    np.testing.assert_array_equal(out, 0)


def test_cache_results_on_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(tmp_path))
    bench = FakeBench({8: 2.0, 16: 1.0, 32: 3.0})
    configs = [Config({"BLOCK": b}, num_warps=1) for b in BLOCKS]  # no pre-hooks: storable

    def make() -> Autotuner:
        kernel = triton.autotune(configs, key=["n"], do_bench=bench, cache_results=True)(add_kernel)
        kernel.pre_hook = bench.pre_hook
        return kernel

    x, out = inputs(40)
    make()[grid](x, out, 40)
    assert bench.calls == 3
    assert len(list((tmp_path / "autotune").glob("add_kernel-*.autotune.json"))) == 1
    again = make()
    again[grid](x, out, 40)
    assert bench.calls == 3 and again.best_config == configs[1]
    np.testing.assert_array_equal(out, x + 1)


def test_gpu_timing_with_cupy(monkeypatch: pytest.MonkeyPatch) -> None:
    cupy = require_gpu("cupy")
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    configs = [Config({"BLOCK": b}, num_warps=w) for b, w in itertools.product((128, 1024), (1, 4))]
    kernel = triton.autotune(configs, key=["n"], reset_to_zero=["out"])(accumulate_kernel)
    n = 1 << 16
    x = cupy.arange(n, dtype=cupy.float32)
    out = cupy.zeros(n, dtype=cupy.float32)
    kernel[grid](x, out, n)
    assert kernel.best_config in configs
    assert all(math.isfinite(t[0]) and t[0] > 0 for t in kernel.configs_timings.values())
    np.testing.assert_array_equal(cupy.asnumpy(out), cupy.asnumpy(x))


def test_gpu_timing_with_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    torch = require_gpu("torch")
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    configs = [Config({"BLOCK": 256}, num_warps=2), Config({"BLOCK": 512}, num_warps=4)]
    kernel = triton.autotune(configs, key=["n"], restore_value=["out"])(accumulate_kernel)
    n = 5000
    x = torch.arange(n, dtype=torch.float32, device="cuda")
    out = torch.ones(n, dtype=torch.float32, device="cuda")
    kernel[grid](x, out, n)
    assert kernel.best_config in configs
    torch.testing.assert_close(out, x + 1)


def test_post_hook_sees_the_resource_error() -> None:
    bench = FakeBench({8: 2.0, 16: 3.0, 32: 1.0})
    errors: list[str] = []

    def post(kwargs: dict[str, Any], exception: BaseException | None) -> None:
        if exception is not None:
            errors.append(str(exception))

    kernel = triton.autotune(
        CONFIGS, key=["n"], do_bench=bench, pre_hook=bench.pre_hook, post_hook=post
    )(limited_kernel)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert len(errors) == 1 and "BLOCK too large" in errors[0]


def test_config_with_too_many_warps_is_skipped() -> None:
    """``num_warps=128`` is more threads than a block holds: Triton's ``OutOfResources``,
    handed to the post-hook, and the tuner goes on with the other config (Triton's
    ``test_exceed_threads``)."""
    errors: list[BaseException] = []

    def post(kwargs: dict[str, Any], exception: BaseException | None) -> None:
        if exception is not None:
            errors.append(exception)

    def bench(fn: Callable[[], Any], quantiles: Any = None) -> list[float]:
        fn()
        return [1.0] * 3

    configs = [Config({"BLOCK": 16}, num_warps=128), Config({"BLOCK": 16}, num_warps=4)]
    kernel = triton.autotune(configs, key=["n"], do_bench=bench, post_hook=post)(add_kernel)
    x, out = inputs(40)
    kernel[grid](x, out, 40)
    assert kernel.best_config is configs[1]
    assert len(errors) == 1 and isinstance(errors[0], OutOfResources)
    assert "out of resource: threads, Required: 4096, Hardware limit: 1024" in str(errors[0])
    np.testing.assert_array_equal(out, x + 1)


def test_autotuner_over_any_kernel_object_prunes_fraction_after_early_prune() -> None:
    launched: list[int] = []
    estimated: list[int] = []
    benchmarked: list[int] = []

    class Kernel:
        fn = staticmethod(lambda: None)

        def run(self, **kwargs: Any) -> None:
            launched.append(kwargs["BLOCK"])

    def do_bench(call: Callable[[], Any], quantiles: Any) -> list[float]:
        call()
        benchmarked.append(launched[-1])
        return [float(launched[-1])] * 3

    def model(**kwargs: Any) -> int:
        estimated.append(kwargs["BLOCK"])
        return int(kwargs["BLOCK"])

    tuner = Autotuner(
        Kernel(),
        arg_names=[],
        configs=[Config({"BLOCK": b}) for b in range(1, 11)],
        key=[],
        do_bench=do_bench,
        prune_configs_by={
            "early_config_prune": lambda configs, nargs, **kw: configs[:6],
            "perf_model": model,
            "top_k": 0.5,
        },
    )
    tuner.run()
    assert estimated == list(range(1, 7))
    assert benchmarked == [1, 2, 3]
    assert launched[-1] == 1


def test_warmup_through_heuristics_above_autotune_compiles_without_timing() -> None:
    bench = FakeBench({})
    kernel = triton.heuristics({"EVEN": lambda args: True})(
        triton.autotune(CONFIGS, key=["n"], do_bench=bench)(masked_kernel)
    )
    x, out = inputs(64)
    assert len(kernel.warmup(x, out, 64, grid=(1,))) == 3
    assert bench.calls == 0
    np.testing.assert_array_equal(out, 0)


def test_knobs_switch_printing(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, expected in (("1", True), ("true", True), ("0", False), ("off", False)):
        monkeypatch.setenv("MYTRITON_PRINT_AUTOTUNING", value)
        assert autotuner_module.print_autotuning() is expected


def test_runtime_module_exports_the_autotuner_classes() -> None:
    """Triton's own autotuner tests spell them ``triton.runtime.Autotuner`` and so on."""
    from mytriton.runtime import autotuner, jit

    assert triton.runtime.Autotuner is autotuner.Autotuner
    assert triton.runtime.Heuristics is autotuner.Heuristics
    assert triton.runtime.Config is triton.Config
    assert triton.runtime.KernelInterface is autotuner.KernelInterface
    assert triton.runtime.JITFunction is jit.JITFunction
