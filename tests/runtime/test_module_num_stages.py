"""The launch's ``num_stages`` reaches the passes one way: the ``tt-opt`` stage writes it on the
module (``tt.num_stages``), and ``tt-pipeline`` and ``ttg-pipeline`` read it from there
(``loop_attrs.module_num_stages``); a module without it is pipelined with the default."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton
from mytriton.dialects.tt.loop_attrs import DEFAULT_NUM_STAGES
from mytriton.errors import MyTritonError
from mytriton.passes.gpu_lowering.lower_to_gpu import ttg_pipeline
from tests.kernels import tiled_matmul_runtime_k_kernel

ATTR = re.compile(r"tt\.num_stages = (\d+) : i32")


@pytest.fixture(autouse=True)
def gpusim(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("MYTRITON_INTERPRET", "TRITON_INTERPRET", "MYTRITON_KERNEL_OVERRIDE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")


def _matmul(num_stages: int) -> Any:
    """A 64x64x64 f16 matmul whose K loop ttg-pipeline copies ahead (not launched)."""
    a, c = np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float32)
    return tiled_matmul_runtime_k_kernel.warmup(
        a, a, c, 64, 64, 64, BM=32, BN=32, BK=16, grid=(1,), num_stages=num_stages
    )


def _header(text: str) -> str:
    """The module's line (after the layout aliases of laid-out IR)."""
    return next(line for line in text.splitlines() if line.startswith("builtin.module"))


def _tiles(ttg: str) -> set[int]:
    """The stage counts of the stacked operand tiles in laid-out IR."""
    return {int(n) for n in re.findall(r"ttg\.local_alloc : \(\) -> !ttg\.memdesc<(\d+)x", ttg)}


@pytest.mark.parametrize("stages", [2, 4])
def test_the_launch_num_stages_is_on_the_module_from_tt_opt_on(stages: int) -> None:
    kernel = _matmul(stages)
    assert "tt.num_stages" not in kernel.asm["tt"]  # the frontend's IR: no launch option
    for stage in ("tt-opt", "ttg"):
        assert f"tt.num_stages = {stages} : i32" in _header(kernel.asm[stage]), stage
    assert _tiles(kernel.asm["ttg"]) == {stages}
    assert "tt.num_stages" not in kernel.asm["gpu"]  # the lowering keeps no `tt` attribute


def test_a_module_without_it_gets_the_default() -> None:
    tt_opt = _matmul(2).asm["tt-opt"]
    kept = mytriton.compile(tt_opt, stage="tt-opt")
    assert _tiles(kept.asm["ttg"]) == {2}  # the module's, not compile()'s default options
    bare = tt_opt.replace("attributes {tt.num_stages = 2 : i32} ", "", 1)
    assert "tt.num_stages" not in _header(bare)
    compiled = mytriton.compile(bare, stage="tt-opt")
    assert "tt.num_stages" not in _header(compiled.asm["ttg"])
    assert _tiles(compiled.asm["ttg"]) == {DEFAULT_NUM_STAGES}


def test_the_tt_opt_stage_keeps_a_num_stages_the_module_names() -> None:
    """A `tt` file that says its stages (an edited dump) keeps them; one that does not gets
    the launch's (here compile()'s, the default)."""
    tt = _matmul(4).asm["tt"]
    named = tt.replace("builtin.module {", "builtin.module attributes {tt.num_stages = 2 : i32} {")
    assert _tiles(mytriton.compile(named, stage="tt").asm["ttg"]) == {2}
    assert _tiles(mytriton.compile(tt, stage="tt").asm["ttg"]) == {DEFAULT_NUM_STAGES}


def test_a_module_num_stages_that_is_not_an_integer_is_an_error() -> None:
    tt_opt = ATTR.sub('tt.num_stages = "2"', _matmul(2).asm["tt-opt"], count=1)
    with pytest.raises(MyTritonError, match=r"`tt.num_stages` must be an integer, got \"2\""):
        mytriton.compile(tt_opt, stage="tt-opt")


def test_mytriton_opt_replays_the_ttg_stage_with_the_module_num_stages(tmp_path: Path) -> None:
    """The pipeline string carries no num_stages: the tt-opt text does."""
    kernel = _matmul(2)
    path = tmp_path / "matmul.tt-opt.mlir"
    path.write_text(kernel.asm["tt-opt"])
    done = subprocess.run(
        [sys.executable, "-m", "mytriton.tools.opt", str(path), "-p", ttg_pipeline(4)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert _tiles(done.stdout) == {2}
    assert _header(done.stdout) == _header(kernel.asm["ttg"])
