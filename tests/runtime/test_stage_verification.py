"""Each module is verified once per stage boundary: a stage whose input is the verified result
of the stage before does not verify it again, while a module parsed from a text (an override
file, a file to compile) is verified before a stage runs on it, as it always was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

import mytriton.dialects.verify as verify
import mytriton.frontend as frontend
from mytriton.errors import IRVerificationError
from tests.runtime.test_stages import axpy_kernel, clean_environment, run_axpy

__all__ = ["clean_environment"]  # the autouse fixture, in force here too


def test_each_module_is_verified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frontend's module and the tt-opt, ttg and gpu stages' results, once each (the
    stages used to verify their input again, and tt-opt each pass's result: 9, then 6 times;
    a failing stage replays its passes one by one to name the pass)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    verified: list[ModuleOp] = []
    real = verify.verify_module

    def recording(module: ModuleOp) -> None:
        verified.append(module)
        real(module)

    monkeypatch.setattr(verify, "verify_module", recording)
    monkeypatch.setattr(frontend, "verify_module", recording)
    run_axpy()
    assert len(verified) == 4  # frontend, tt-opt, ttg, gpu


@pytest.mark.parametrize("edited", [".tt.mlir", ".tt-opt.mlir", ".ttg.mlir"])
def test_an_overridden_module_is_still_verified(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, edited: str
) -> None:
    """A hand-edited stage that parses but breaks an op's rules is reported by the next
    stage, not taken as verified because the compiler made the stage before it."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.setenv("MYTRITON_KERNEL_DUMP", "1")
    monkeypatch.setenv("MYTRITON_DUMP_DIR", str(tmp_path))
    kernel, _ = run_axpy()
    path = tmp_path / kernel.hash / f"axpy_kernel{edited}"
    text, count = re.subn(r"end = 128 : i32", "end = 100 : i32", path.read_text())
    assert count == 1
    path.write_text(text)
    monkeypatch.delenv("MYTRITON_KERNEL_DUMP")
    monkeypatch.setenv("MYTRITON_KERNEL_OVERRIDE", "1")
    monkeypatch.setenv("MYTRITON_OVERRIDE_DIR", str(tmp_path))
    axpy_kernel.clear_cache()
    with pytest.raises(IRVerificationError, match="make_range"):
        run_axpy()
