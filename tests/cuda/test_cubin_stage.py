"""The cuda backend's ``cubin`` stage: the CUDA toolkit's ptxas where one is found, for the
PTX's own ``.target``; the driver's JIT where there is no ptxas or it rejects the PTX (one older
than NVRTC). On the H200 the driver's JIT made the attention benchmark's kernel with 18 more
registers and every warpgroup MMA waited for before the next, where ptxas did neither."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from mytriton.backends.cuda import backend
from mytriton.backends.mlir import toolkit
from mytriton.backends.nvidia.ptxas import ptx_target, run_ptxas
from mytriton.errors import BackendError

PTX = """//
.version 9.0
.target sm_90a
.address_size 64
.visible .entry k()
{
  ret;
}
"""


def _fake_ptxas(tmp_path: Path, body: str) -> Path:
    """An executable standing in for ptxas: ``body`` runs with ptxas's arguments."""
    script = tmp_path / "ptxas"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return script


# writes its arguments as the cubin: `-arch=... src -o out`
ECHO_ARGS = 'out=""; prev=""; for a in "$@"; do [ "$prev" = "-o" ] && out="$a"; prev="$a"; done\n'
ECHO_ARGS += 'echo "$1" > "$out"\n'


@pytest.fixture
def stage(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, Any]:
    """The stage with no GPU needed: device 0, and a driver JIT that records its calls."""
    calls: dict[str, Any] = {"driver": []}
    monkeypatch.setattr(backend, "_device", lambda: 0)
    monkeypatch.setattr(
        backend, "link_cubin", lambda ptx, device, name: calls["driver"].append(ptx) or b"JIT"
    )
    return calls


def _toolkit(monkeypatch: pytest.MonkeyPatch, root: Path, ptxas: Path | None) -> None:
    found = toolkit.CudaToolkit(root=root, libdevice=None, ptxas=ptxas, source="test")
    monkeypatch.setattr(toolkit, "find_cuda_toolkit", lambda: found)


def test_ptxas_makes_the_cubin_for_the_ptx_target(
    stage: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _toolkit(monkeypatch, tmp_path, _fake_ptxas(tmp_path, ECHO_ARGS))
    assert backend._cubin(PTX, None) == b"-arch=sm_90a\n"
    assert stage["driver"] == []


def test_the_driver_compiles_what_ptxas_rejects(
    stage: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _toolkit(
        monkeypatch,
        tmp_path,
        _fake_ptxas(tmp_path, "echo 'Unsupported .version 9.0' >&2\nexit 1\n"),
    )
    assert backend._cubin(PTX, None) == b"JIT"
    assert stage["driver"] == [PTX]


def test_the_driver_compiles_without_ptxas(
    stage: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _toolkit(monkeypatch, tmp_path, None)
    assert backend._cubin(PTX, None) == b"JIT"
    monkeypatch.setattr(toolkit, "find_cuda_toolkit", lambda: None)
    assert backend._cubin(PTX, None) == b"JIT"
    assert stage["driver"] == [PTX, PTX]


def test_ptx_without_a_target_goes_to_the_driver(
    stage: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _toolkit(monkeypatch, tmp_path, _fake_ptxas(tmp_path, ECHO_ARGS))
    no_target = PTX.replace(".target sm_90a\n", "")
    assert backend._cubin(no_target, None) == b"JIT"


def test_ptx_target() -> None:
    assert ptx_target(PTX) == "sm_90a"
    assert ptx_target(PTX.replace("sm_90a", "sm_80")) == "sm_80"
    assert ptx_target("// .target sm_90 in a comment only\n.version 9.0\n") is None


def test_run_ptxas_reports_the_log(tmp_path: Path) -> None:
    ptxas = _fake_ptxas(tmp_path, "echo 'ptxas fatal: bad thing' >&2\nexit 2\n")
    with pytest.raises(BackendError, match="ptxas failed on kernel `k` for sm_90a:\nptxas fatal"):
        run_ptxas(ptxas, PTX, "sm_90a", "k")


@pytest.mark.skipif(
    (found := toolkit.find_cuda_toolkit()) is None
    or found.ptxas is None
    or not os.access(found.ptxas, os.X_OK),
    reason="no CUDA toolkit with ptxas here",
)
def test_real_ptxas_accepts_the_ptx(tmp_path: Path) -> None:
    found = toolkit.find_cuda_toolkit()
    assert found is not None and found.ptxas is not None
    assert run_ptxas(found.ptxas, PTX, "sm_90a", "k").startswith(b"\x7fELF")
