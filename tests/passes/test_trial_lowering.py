"""``ttg-pipeline`` lowers its result to check that it fits in shared memory; the real lowering
of that module reuses the trial's work, and only for a module that prints the same."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.stages import print_generic
from mytriton.passes.gpu_lowering import driver
from mytriton.passes.gpu_lowering.driver import lower_module, lower_trial
from mytriton.passes.gpu_lowering.lower_to_gpu import assign_layouts, lower_laid_out
from tests.kernels import tiled_matmul_runtime_k_kernel


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
