"""Session-wide settings.

The on-disk compile cache lives in a temporary folder, never in the user's ``~/.cache`` (set
before any test, inherited by pytest-xdist workers and subprocesses).

Tests that would only skip here are not collected: those needing a CUDA device (a GPU fixture,
or an execution test's CuPy/torch backend) where there is none, those needing nvcc where it is
missing, and those a ``skip``/``skipif(True)`` mark skips. The run ends with one line saying
how many were left out and why. ``--keep-skips`` collects them (each skip reported as usual),
and ``MYTRITON_REQUIRE_CUDA=1`` (a GPU run, where a missing GPU is a failure) keeps them all.
"""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
from collections import Counter

import pytest

from tests.gpu_required import NVCC_MISSING, cuda_required, find_nvcc, gpu_missing

_OWNER = "_MYTRITON_TEST_CACHE_OWNER"

# fixtures that skip without a CUDA device (tests/cuda/conftest.py, tests/mlir/test_gpu.py),
# by the framework whose GPU they need
GPU_FIXTURES = {"cupy": "cupy", "torch_cuda": "torch"}

_NOT_COLLECTED = pytest.StashKey[dict[str, int]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--keep-skips",
        action="store_true",
        help="collect the tests that would skip here (no GPU, no nvcc, a skip mark), "
        "and report each skip, instead of leaving them out with a one-line summary",
    )


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get(_OWNER):  # an xdist worker: share the controller's folder
        return
    folder = tempfile.mkdtemp(prefix="mytriton-test-cache-")
    os.environ[_OWNER] = str(os.getpid())
    os.environ["MYTRITON_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    if os.environ.get(_OWNER) == str(os.getpid()):
        shutil.rmtree(os.environ.get("MYTRITON_CACHE_DIR", ""), ignore_errors=True)
        del os.environ[_OWNER]


@functools.cache
def _gpu_missing(framework: str) -> str | None:
    return gpu_missing(framework)


@functools.cache
def _nvcc_missing() -> str | None:
    return NVCC_MISSING if find_nvcc() is None else None


def _marked_skip(item: pytest.Item) -> str | None:
    """The reason of a ``skip`` mark, or of a ``skipif`` whose condition is a true value
    (string conditions are left to pytest)."""
    for mark in item.iter_markers(name="skipif"):
        conditions = mark.args or (
            (mark.kwargs["condition"],) if "condition" in mark.kwargs else ()
        )
        reason = mark.kwargs.get("reason")
        static = conditions and not any(isinstance(c, str) for c in conditions)
        if static and reason and any(bool(c) for c in conditions):
            return str(reason)
    for mark in item.iter_markers(name="skip"):
        return str(mark.kwargs.get("reason", mark.args[0] if mark.args else "unconditional skip"))
    return None


def will_skip(item: pytest.Item) -> str | None:
    """Why ``item`` would skip here whatever it does, known before it runs; None if it runs."""
    fixtures = getattr(item, "fixturenames", ())
    frameworks = {GPU_FIXTURES[name] for name in fixtures if name in GPU_FIXTURES}
    callspec = getattr(item, "callspec", None)
    backend = callspec.params.get("run") if callspec is not None else None
    if isinstance(backend, tuple) and backend[1] in ("cupy", "torch"):  # tests/execution
        frameworks.add(backend[1])
    for framework in sorted(frameworks):
        why = _gpu_missing(framework)
        if why is not None:
            return why
    if "nvcc" in fixtures and _nvcc_missing():
        return _nvcc_missing()
    return _marked_skip(item)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("keep_skips") or cuda_required():
        return
    kept: list[pytest.Item] = []
    left_out: list[pytest.Item] = []
    reasons: Counter[str] = Counter()
    for item in items:
        why = will_skip(item)
        if why is None:
            kept.append(item)
        else:
            left_out.append(item)
            reasons[why] += 1
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    config.stash[_NOT_COLLECTED] = dict(reasons)
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller prints the summary
        workeroutput["not_collected"] = dict(reasons)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """xdist: each worker collected the same tests; keep the first one's summary."""
    reasons = getattr(node, "workeroutput", {}).get("not_collected")
    config = getattr(node, "config", None)
    if reasons is not None and config is not None:
        config.stash.setdefault(_NOT_COLLECTED, reasons)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    reasons = terminalreporter.config.stash.get(_NOT_COLLECTED, None)
    if not reasons:
        return
    total = sum(reasons.values())
    parts = [f"{why} ({count})" for why, count in sorted(reasons.items(), key=lambda r: -r[1])]
    terminalreporter.write_line(
        f"not collected, as they would skip here (--keep-skips runs them): {total} tests: "
        + "; ".join(parts)
    )
