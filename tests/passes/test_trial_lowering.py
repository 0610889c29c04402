"""``ttg-pipeline`` lowers its result to check that it fits in shared memory; the real lowering
of that module reuses the trial's work, and only for a module that prints the same (``same_ir``). Stages whose
shared tiles alone pass the limit are refused without a trial."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from mytriton.backends.stages import LocatedPrinter, print_generic, print_module
from mytriton.passes.gpu_lowering import driver
from mytriton.passes.gpu_lowering.driver import lower_module, lower_trial
from mytriton.passes.gpu_lowering.lower_to_gpu import assign_layouts, lower_laid_out
from mytriton.passes.ttg.pipelining import shared_fit
from tests.kernels import tiled_matmul_runtime_k_kernel, tutorial_matmul_kernel


@pytest.fixture
def laid(monkeypatch: pytest.MonkeyPatch) -> ModuleOp:
    """A laid-out matmul whose K loop is pipelined (so ttg-pipeline made a trial)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    a, c = np.zeros((64, 64), np.float16), np.zeros((64, 64), np.float32)
    kernel = tiled_matmul_runtime_k_kernel.warmup(
        a, a, c, 64, 64, 64, BM=32, BN=32, BK=16, grid=(1,)
    )
    assert kernel.module is not None
    return assign_layouts(kernel.module, 4)


def test_the_lowering_reuses_the_trial_of_the_same_module(laid: ModuleOp) -> None:
    lowered = lower_trial(laid.clone(), 4)
    assert lower_module(laid.clone(), 4) is lowered
    assert lower_module(laid.clone(), 4) is not lowered  # used once


def test_the_trial_leaves_the_module_it_lowered_as_it_was(laid: ModuleOp) -> None:
    # lower_module compares its module with the one the trial lowered, kept since
    tried = laid.clone()
    text = print_module(tried)
    lower_trial(tried, 4)
    assert print_module(tried) == text


def test_the_reuse_prints_no_module(laid: ModuleOp, monkeypatch: pytest.MonkeyPatch) -> None:
    """The trial and the lowering that reuses it compare their modules without printing them
    (two prints of the laid-out kernel were a tenth of an attention kernel's gpu stage)."""
    printed: list[str] = []
    real = LocatedPrinter.print_op

    def counting(self: LocatedPrinter, op: Operation) -> None:
        if isinstance(op, ModuleOp):
            printed.append(op.name)
        real(self, op)

    monkeypatch.setattr(LocatedPrinter, "print_op", counting)
    lowered = lower_trial(laid.clone(), 4)
    assert lower_module(laid.clone(), 4) is lowered
    assert printed == []


def test_another_module_is_lowered_anew(laid: ModuleOp) -> None:
    changed = laid.clone()
    value = next(v for op in changed.walk() for v in op.results if v.name_hint)
    value.name_hint = "renamed"  # the lowering names registers after it
    lowered = lower_trial(laid.clone(), 4)
    assert lower_module(changed, 4) is not lowered
    lower_trial(laid.clone(), 4)
    assert lower_module(laid.clone(), 4, reflect_ftz=False) is not lowered


def test_same_gpu_module_with_or_without_the_trial(
    laid: ModuleOp, monkeypatch: pytest.MonkeyPatch
) -> None:
    lower_trial(laid.clone(), 4)  # as the layout stage leaves it
    with_trial = print_generic(lower_laid_out(laid))
    monkeypatch.setattr(driver._trial, "last", None)
    assert print_generic(lower_laid_out(laid)) == with_trial


def _large_tile_matmul() -> ModuleOp:
    """The tutorial matmul in f16 with 128x256x128 tiles: 96 KiB of operand tiles a stage;
    launched with 4 stages (which the module carries)."""
    a, c = np.zeros((256, 256), np.float16), np.zeros((256, 256), np.float32)
    kernel = tutorial_matmul_kernel.warmup(
        a, a, c, 256, 256, 256, 256, 1, 256, 1, 256, 1,
        BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=128, GROUP_SIZE_M=8, grid=(1,),
        num_stages=4,
    )  # fmt: skip
    assert kernel.module is not None
    return kernel.module


@pytest.mark.usefixtures("laid")  # the gpusim backend
def test_stages_whose_tiles_overflow_are_not_lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _large_tile_matmul()
    trials: list[int] = []
    real = driver.lower_trial

    def counting(m: ModuleOp, num_warps: int) -> ModuleOp:
        trials.append(num_warps)
        return real(m, num_warps)

    monkeypatch.setattr(driver, "lower_trial", counting)
    checked = print_generic(assign_layouts(module, 8))
    assert trials == [8]  # 4 and 3 stages: their tiles alone pass the limit; 2 (192 KiB) fit
    monkeypatch.setattr(shared_fit, "_tiles_overflow", lambda m: False)
    assert print_generic(assign_layouts(module, 8)) == checked  # as the lowering decides
    assert len(trials) == 1 + 3
