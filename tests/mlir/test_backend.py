"""``MlirBackend`` without a GPU: every suite kernel's stages from a NumPy warmup, and the
compile without any provider."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import mytriton
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.mlir.backend import MlirBackend
from mytriton.backends.mlir.providers import OPT_ENV_VAR, PROVIDER_ENV_VAR, PYTHON_ENV_VAR
from mytriton.backends.mlir.toolkit import find_cuda_toolkit
from mytriton.backends.nvidia.cuda_driver import DeviceKernel
from mytriton.backends.stages import parse_module, print_generic
from mytriton.errors import BackendUnavailableError
from mytriton.passes.gpu_lowering.abi import kernel_signature
from mytriton.runtime.launch import require_binary
from tests import kernels
from tests.mlir import samples
from tests.mlir.conftest import any_provider, requires_provider
from tests.mlir.suite import CASES, Case

HAS_PTXAS = (tk := find_cuda_toolkit()) is not None and tk.ptxas is not None


def _warmup(case: Case) -> CompiledKernel:
    args, constexprs = case.make(np.random.default_rng(0))
    case.kernel.clear_cache()
    return case.kernel.warmup(*args, grid=case.grid, **constexprs)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_suite_kernel_compiles_to_ptx(case: Case, mlir_backend: MlirBackend) -> None:
    """CI's codegen check: a NumPy warmup yields every stage the machine's tools allow."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = _warmup(case)
    assert kernel.backend == "mlir"
    assert '"gpu.func"' in kernel.asm["gpu"]
    assert "gpu.container_module" in kernel.asm["mlir"] and "gpu.kernel" in kernel.asm["mlir"]
    if not any_provider():
        assert "ptx" not in kernel.asm and "unavailable" in kernel.metadata
        pytest.skip("no MLIR provider here: only asm['mlir'] was produced")
    signature = kernel_signature(parse_module(kernel.asm["gpu"]))
    name = signature.name
    assert f".visible .entry {name}(" in kernel.asm["ptx"]
    assert ".extern" not in kernel.asm["ptx"]
    assert signature.block == (128, 1, 1)  # num_warps=4
    if HAS_PTXAS:
        assert kernel.asm["cubin"][:4] == b"\x7fELF"
    launcher = kernel.binary
    assert isinstance(launcher, DeviceKernel) and launcher.signature == signature
    assert launcher.image == kernel.asm.get("cubin", kernel.asm["ptx"].encode() + b"\0")


@requires_provider
def test_seed_unpacking(mlir_backend: MlirBackend) -> None:
    x = np.ones(100, np.float32)
    kernels.add_kernel.clear_cache()
    ir_before, ir_after, src = kernels.add_kernel[(1,)](x, x, x, 100, BLOCK=128)
    assert "tt." in ir_before and "tt." in ir_after
    assert src.startswith('"builtin.module"()') and "gpu.container_module" in src


@requires_provider
def test_num_warps_sets_the_block(mlir_backend: MlirBackend) -> None:
    x = np.ones(100, np.float32)
    kernels.add_kernel.clear_cache()
    kernel = kernels.add_kernel.warmup(x, x, x, 100, BLOCK=256, grid=(1,), num_warps=8)
    assert kernel_signature(parse_module(kernel.asm["gpu"])).block == (256, 1, 1)
    assert ".reqntid 256, 1, 1" in kernel.asm["ptx"]


def test_compile_of_a_hand_built_lowering(mlir_backend: MlirBackend) -> None:
    """Compiling from the text of the `gpu` stage: the backend adds nothing to the lowering's
    module but its printing."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = mytriton.compile(print_generic(samples.memory()), stage="gpu", backend="mlir")
    assert kernel.name == "memory" and list(kernel.asm)[:2] == ["gpu", "mlir"]
    assert kernel_signature(parse_module(kernel.asm["gpu"])).params == ("ptr", "ptr")
    assert '"memref.global"' in kernel.asm["gpu"]
    assert 'loc("samples.py":' in kernel.asm["mlir"]
    if any_provider():
        assert ".shared" in kernel.asm["ptx"]


def test_without_any_provider(mlir_backend: MlirBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiling still gives asm['gpu'] and asm['mlir'] (and one warning); launching says why."""
    monkeypatch.setenv(PYTHON_ENV_VAR, "mytriton_no_such_mlir_package")
    monkeypatch.setenv(OPT_ENV_VAR, "/nonexistent/bin/mlir-opt")
    monkeypatch.delenv(PROVIDER_ENV_VAR, raising=False)
    x = np.ones(100, np.float32)
    kernels.copy_kernel.clear_cache()
    with pytest.warns(UserWarning, match="no upstream MLIR provider"):
        kernel = kernels.copy_kernel.warmup(x, x, 100, BLOCK=128, grid=(1,))
    assert {"gpu", "mlir"} <= set(kernel.asm) and "ptx" not in kernel.asm
    with pytest.raises(BackendUnavailableError, match="no upstream MLIR provider"):
        require_binary(kernel)
    kernels.copy_kernel.clear_cache()
