"""``tests/gpu_required.py``: a missing GPU skips, or fails under ``MYTRITON_REQUIRE_CUDA=1``;
and every GPU fixture of the suite goes through it.

CuPy and torch are replaced by stand-ins (or blocked) so the outcome is the same on any machine.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests import gpu_required
from tests.gpu_required import REQUIRE_CUDA_ENV, require_gpu

TESTS = Path(__file__).parent


def _fake_cupy(devices: int) -> Any:
    runtime = SimpleNamespace(getDeviceCount=lambda: devices)
    return SimpleNamespace(cuda=SimpleNamespace(runtime=runtime))


def _fake_torch(available: bool) -> Any:
    return SimpleNamespace(cuda=SimpleNamespace(is_available=lambda: available))


def _broken_cupy() -> Any:
    def no_driver() -> int:
        raise RuntimeError("cudaErrorInsufficientDriver")

    return SimpleNamespace(cuda=SimpleNamespace(runtime=SimpleNamespace(getDeviceCount=no_driver)))


# (framework, cupy module, torch module, what the skip or failure names); None blocks the import
MISSING = [
    pytest.param("cupy", None, None, "CuPy cannot use a GPU", id="no-cupy"),
    pytest.param("cupy", _broken_cupy(), None, "cudaErrorInsufficientDriver", id="no-driver"),
    pytest.param("cupy", _fake_cupy(0), None, "CuPy finds no CUDA device", id="no-device"),
    pytest.param("torch", None, _fake_torch(True), "CuPy cannot use a GPU", id="torch-no-cupy"),
    pytest.param("torch", _fake_cupy(1), None, "torch cannot use a GPU", id="no-torch"),
    pytest.param("torch", _fake_cupy(1), _fake_torch(False), "torch sees no", id="torch-no-cuda"),
]


@pytest.fixture
def frameworks(monkeypatch: pytest.MonkeyPatch) -> Any:
    def install(cupy: Any, torch: Any) -> None:
        monkeypatch.setitem(sys.modules, "cupy", cupy)
        monkeypatch.setitem(sys.modules, "torch", torch)

    return install


@pytest.mark.parametrize("value", [None, "", "0"])
@pytest.mark.parametrize(("framework", "cupy", "torch", "why"), MISSING)
def test_missing_gpu_skips_by_default(
    frameworks: Any,
    monkeypatch: pytest.MonkeyPatch,
    value: str | None,
    framework: str,
    cupy: Any,
    torch: Any,
    why: str,
) -> None:
    frameworks(cupy, torch)
    if value is None:
        monkeypatch.delenv(REQUIRE_CUDA_ENV, raising=False)
    else:
        monkeypatch.setenv(REQUIRE_CUDA_ENV, value)
    with pytest.raises(pytest.skip.Exception, match=why):
        require_gpu(framework)


@pytest.mark.parametrize("value", ["1", "yes"])
@pytest.mark.parametrize(("framework", "cupy", "torch", "why"), MISSING)
def test_missing_gpu_fails_when_required(
    frameworks: Any,
    monkeypatch: pytest.MonkeyPatch,
    value: str,
    framework: str,
    cupy: Any,
    torch: Any,
    why: str,
) -> None:
    frameworks(cupy, torch)
    monkeypatch.setenv(REQUIRE_CUDA_ENV, value)
    with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_CUDA_ENV} is set but .*{why}"):
        require_gpu(framework)


@pytest.mark.parametrize("required", [True, False])
def test_present_gpu_gives_the_framework(
    frameworks: Any, monkeypatch: pytest.MonkeyPatch, required: bool
) -> None:
    cupy, torch = _fake_cupy(1), _fake_torch(True)
    frameworks(cupy, torch)
    monkeypatch.setenv(REQUIRE_CUDA_ENV, "1" if required else "0")
    assert require_gpu("cupy") is cupy
    assert require_gpu("torch") is torch


def test_unknown_framework_is_an_error() -> None:
    with pytest.raises(ValueError, match="jax"):
        gpu_required.gpu_missing("jax")


# Probes of a GPU outside tests/gpu_required.py would skip on their own terms, whatever
# MYTRITON_REQUIRE_CUDA says. (``device_count() < 2`` checks for a second GPU are fine.)
_OWN_PROBES = re.compile(
    r"""importorskip\(\s*["']cupy["']"""
    r"""|getDeviceCount\(\)\s*==\s*0"""
    r"""|cuda\.is_available\(\)"""
    r"""|environ\.get\(\s*["']MYTRITON_REQUIRE_CUDA"""
)


def test_every_gpu_fixture_uses_the_shared_rule() -> None:
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name in ("gpu_required.py", Path(__file__).name):
            continue
        text = path.read_text()
        for match in _OWN_PROBES.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            offenders.append(f"{path.relative_to(TESTS.parent)}:{line}: {match.group(0)[:60]!r}")
    assert not offenders, "probe the GPU with tests/gpu_required.py instead:\n" + "\n".join(
        offenders
    )
