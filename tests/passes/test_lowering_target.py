"""The lowering reads the chip from the module's ``ttg.target`` (``"cuda:90"``, written by
``tt-assign-layouts``): what exists there decides some instructions (fp8 conversions, sm_89+).
A module without one is lowered for ``DEFAULT_CAPABILITY``; a malformed one is a typed error."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.utils.exceptions import VerifyException

import mytriton.language as tl
from mytriton.dialects.printing import print_module
from mytriton.dialects.ttg.layouts import DEFAULT_CAPABILITY, TARGET_ATTR, module_capability
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.driver import Lowering
from mytriton.passes.gpu_lowering.lower_to_gpu import assign_layouts
from tests.execution.test_fp8 import encode_kernel


@pytest.fixture
def laid(monkeypatch: pytest.MonkeyPatch) -> ModuleOp:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x, out = np.zeros(64, np.float32), np.zeros(64, np.int8)
    kernel = encode_kernel.warmup(x, out, 64, DT=tl.float8e4nv, BLOCK=64, grid=(1,))
    assert kernel.module is not None
    return assign_layouts(kernel.module, 1, capability=89)


def test_the_capability_is_the_targets(laid: ModuleOp) -> None:
    assert module_capability(laid) == 89
    assert "ff.to.e4m3x2" in print_module(Lowering(1).run(laid.clone()))
    del laid.attributes[TARGET_ATTR]
    assert module_capability(laid) == DEFAULT_CAPABILITY


@pytest.mark.parametrize("target", ["hip:gfx942", "cuda:", "cuda:9x", "90"])
def test_a_malformed_target_is_a_typed_error(laid: ModuleOp, target: str) -> None:
    laid.attributes[TARGET_ATTR] = StringAttr(target)
    with pytest.raises(VerifyException, match=r"`ttg.target` must be \"cuda:N\""):
        module_capability(laid)
    with pytest.raises(BackendError, match=r"`ttg.target` must be \"cuda:N\""):
        Lowering(1).run(laid)
