"""``triton.knobs``: each knob reads its environment variable, and setting one changes what
the compiler does."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton import knobs

KNOB_ENV = (
    "MYTRITON_KERNEL_DUMP",
    "MYTRITON_DUMP_DIR",
    "MYTRITON_CACHE_DIR",
    "TRITON_CACHE_DIR",
    "TRITON_INTERPRET",
    "TRITON_DEBUG",
    "TRITON_KERNEL_DUMP",
    "TRITON_DUMP_DIR",
    "TRITON_DEFAULT_FP_FUSION",
    "TRITON_PRINT_AUTOTUNING",
    "MYTRITON_BACKEND",
)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in KNOB_ENV:  # unset now; restored (or unset again) after the test
        monkeypatch.setenv(var, "")
        monkeypatch.delenv(var)


@triton.jit
def _fill(X, v):
    tl.store(X + tl.arange(0, 4), tl.full((4,), v, tl.float32))


def test_triton_knobs_attribute() -> None:
    assert triton.knobs is knobs
    assert isinstance(knobs.runtime, knobs.base_knobs)


def test_defaults_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert knobs.runtime.interpret is False
    assert knobs.language.default_fp_fusion is True
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    monkeypatch.setenv("TRITON_DEFAULT_FP_FUSION", "0")
    assert knobs.runtime.interpret is True
    assert knobs.language.default_fp_fusion is False


def test_setting_interpret_runs_on_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    x = np.zeros(4, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cuda backend only compiles NumPy launches
        _fill[(1,)](x, 3.0)
    assert not x.any()
    knobs.runtime.interpret = True
    assert os.environ["TRITON_INTERPRET"] == "1"
    _fill[(1,)](x, 3.0)
    np.testing.assert_array_equal(x, np.full(4, 3.0, np.float32))
    knobs.runtime.interpret = None
    assert "TRITON_INTERPRET" not in os.environ


def test_dump_knobs_write_the_stages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")
    knobs.compilation.dump_ir = True
    knobs.cache.dump_dir = str(tmp_path)
    _fill.clear_cache()
    _fill[(1,)](np.zeros(4, np.float32), 1.0)
    assert list(tmp_path.glob("*/_fill.tt.mlir"))
    assert knobs.cache.dump_dir == str(tmp_path)


def test_reset_forgets_values_set_through_the_group() -> None:
    group = knobs.autotuning.copy()
    group.print = True
    assert knobs.autotuning.print is True
    group.reset()
    assert knobs.autotuning.print is False
    assert "TRITON_PRINT_AUTOTUNING" not in os.environ


def test_descriptors_name_their_variables() -> None:
    keys = {d.key for d in knobs.compilation.knob_descriptors.values()}
    assert {"TRITON_KERNEL_DUMP", "TRITON_KERNEL_OVERRIDE", "TRITON_ALWAYS_COMPILE"} <= keys
    ignored = {n for n, d in knobs.compilation.knob_descriptors.items() if d.ignored}
    assert "dump_ir" not in ignored and "disable_line_info" in ignored
    assert knobs.mytriton.backend == "cuda"


def test_default_fp_fusion_is_the_option_default() -> None:
    from mytriton.runtime.jit import launch_options

    assert launch_options({}, False).enable_fp_fusion is True
    knobs.language.default_fp_fusion = False
    assert launch_options({}, False).enable_fp_fusion is False
    assert launch_options({"enable_fp_fusion": True}, False).enable_fp_fusion is True


def test_mytriton_variables_are_read_and_overridden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("MYTRITON_DUMP_DIR", "/tmp/mine")
    assert knobs.compilation.dump_ir is True
    assert knobs.cache.dump_dir == "/tmp/mine"
    knobs.compilation.dump_ir = False  # the value set is the value the compiler uses
    knobs.cache.dump_dir = "/tmp/theirs"
    assert "MYTRITON_KERNEL_DUMP" not in os.environ
    assert knobs.compilation.dump_ir is False
    assert knobs.cache.dump_dir == "/tmp/theirs"
    from mytriton.runtime.compiler import dump_dir

    assert dump_dir() is None


def test_cache_dir_is_the_disk_caches(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from mytriton.runtime.disk_cache import cache_dir

    monkeypatch.delenv("MYTRITON_CACHE_DIR", raising=False)
    assert knobs.cache.dir == str(cache_dir())
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(tmp_path))
    assert knobs.cache.dir == str(tmp_path) == str(cache_dir())
