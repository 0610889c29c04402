"""Finding the CUDA toolkit (libdevice, ptxas) and choosing the chip."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from mytriton.backends.mlir import toolkit
from mytriton.backends.mlir.toolkit import (
    CHIP_ENV_VAR,
    find_cuda_toolkit,
    invalid_toolkit_env,
    select_chip,
    tool_env,
)
from mytriton.errors import BackendError


def make_toolkit(root: Path, *, libdevice: bool = True, ptxas: bool = True) -> Path:
    if libdevice:
        (root / "nvvm" / "libdevice").mkdir(parents=True)
        (root / "nvvm" / "libdevice" / "libdevice.10.bc").write_bytes(b"BC")
    if ptxas:
        (root / "bin").mkdir(parents=True)
        exe = root / "bin" / "ptxas"
        exe.write_text("#!/bin/sh\n")
        exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return root


@pytest.fixture
def bare(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A machine with no toolkit anywhere: no CUDA_* variables, no ptxas on PATH."""
    for var in toolkit.TOOLKIT_ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(toolkit, "SYSTEM_ROOTS", ())
    monkeypatch.setattr(toolkit, "_site_packages", lambda: [])
    return tmp_path


def test_nothing_found(bare: Path) -> None:
    assert find_cuda_toolkit() is None


@pytest.mark.parametrize("var", ["CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"])
def test_from_environment(bare: Path, monkeypatch: pytest.MonkeyPatch, var: str) -> None:
    root = make_toolkit(bare / "cuda")
    monkeypatch.setenv(var, str(root))
    found = find_cuda_toolkit()
    assert found is not None and found.root == root and found.source == f"${var}"
    assert found.libdevice == root / "nvvm/libdevice/libdevice.10.bc"
    assert found.ptxas == root / "bin/ptxas"


def test_around_ptxas_on_path(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_toolkit(bare / "cuda-13.0")
    monkeypatch.setenv("PATH", str(root / "bin"))
    found = find_cuda_toolkit()
    assert found is not None and found.root == root and found.source == "ptxas on PATH"


def test_ptxas_wrapper_elsewhere(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``ptxas`` wrapper script outside any toolkit: still used for cubins."""
    root = make_toolkit(bare / "cuda", ptxas=False)
    wrapper_dir = make_toolkit(bare / "local", libdevice=False) / "bin"
    monkeypatch.setenv("PATH", str(wrapper_dir))
    monkeypatch.setenv("CUDA_HOME", str(root))
    found = find_cuda_toolkit()
    assert found is not None and found.root == root
    assert found.libdevice is not None and found.ptxas == wrapper_dir / "ptxas"


@pytest.mark.parametrize("layout", ["cu13", "cu12", "cuda_nvcc"])
def test_pip_nvidia_packages(bare: Path, monkeypatch: pytest.MonkeyPatch, layout: str) -> None:
    site = bare / "site-packages"
    root = make_toolkit(site / "nvidia" / layout)
    monkeypatch.setattr(toolkit, "_site_packages", lambda: [site])
    found = find_cuda_toolkit()
    assert found is not None and found.root == root and found.source == f"pip nvidia/{layout}"


def test_a_toolkit_with_libdevice_wins(bare: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no_libdevice = make_toolkit(bare / "a", libdevice=False)
    full = make_toolkit(bare / "b")
    monkeypatch.setenv("CUDA_HOME", str(no_libdevice))
    monkeypatch.setattr(toolkit, "SYSTEM_ROOTS", (full,))
    found = find_cuda_toolkit()
    assert found is not None and found.root == full


def test_a_variable_naming_a_missing_folder_is_dropped(
    bare: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MLIR would print ``error: CUDA path ... does not exist`` for it (and exit 0)."""
    monkeypatch.setenv("CUDA_ROOT", "/nonexistent/cuda")
    root = make_toolkit(bare / "cuda")
    monkeypatch.setenv("CUDA_HOME", str(root))
    assert invalid_toolkit_env() == ["CUDA_ROOT"]
    found = find_cuda_toolkit()
    assert found is not None and found.root == root
    env = tool_env(found)
    assert "CUDA_ROOT" not in env and env["CUDA_HOME"] == str(root)
    assert env["PATH"].split(os.pathsep)[0] == str(root / "bin")


def test_chip_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(toolkit, "device_chip", lambda device=None: None)
    monkeypatch.delenv(CHIP_ENV_VAR, raising=False)
    assert select_chip() == ("sm_90a", "default")
    monkeypatch.setenv(CHIP_ENV_VAR, "sm_80")
    assert select_chip() == ("sm_80", f"${CHIP_ENV_VAR}")
    assert select_chip("sm_90a") == ("sm_90a", "explicit")
    monkeypatch.setattr(toolkit, "device_chip", lambda device=None: "sm_86")
    assert select_chip() == ("sm_86", "CUDA device")


@pytest.mark.parametrize("bad", ["90", "sm90", "compute_90", "sm_90; rm"])
def test_invalid_chip(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setattr(toolkit, "device_chip", lambda device=None: None)
    monkeypatch.setenv(CHIP_ENV_VAR, bad)
    with pytest.raises(BackendError, match="invalid CUDA chip"):
        select_chip()
