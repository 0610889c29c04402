"""Session-wide settings: the on-disk compile cache lives in a temporary folder, never in the
user's ``~/.cache`` (set before any test, inherited by pytest-xdist workers and subprocesses)."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

_OWNER = "_MYTRITON_TEST_CACHE_OWNER"


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
