"""The cuda backend without a GPU: compile-only stages, a missing CuPy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mytriton.backends.cuda import CudaBackend
from mytriton.backends.nvidia.cuda_driver import current_device
from mytriton.backends.stages import parse_module, print_generic
from mytriton.errors import BackendUnavailableError
from mytriton.passes.gpu_lowering.abi import KernelSignature, kernel_signature
from mytriton.runtime.launch import require_binary
from tests.gpu_ir_samples import row_sum_module
from tests.kernels import add_kernel

X = np.zeros(100, np.float32)


@pytest.fixture(autouse=True)
def fresh_cache() -> Any:
    add_kernel.clear_cache()
    yield
    add_kernel.clear_cache()


def test_numpy_arguments_compile_only(cuda_backend: CudaBackend) -> None:
    """NumPy arguments compile and do not run. Without CuPy and a GPU the stages stop after
    the C++ (`ptx` needs NVRTC and a device's architecture) and the kernel says why it cannot
    run; with them it also has its PTX and cubin."""
    kernel = add_kernel[(1,)](X, X, X.copy(), 100, BLOCK=128)
    _, _, src = kernel
    assert src == kernel.asm["cuda"]
    assert 'extern "C" __global__ void __launch_bounds__(128) add_kernel(' in src
    if current_device() is None:
        assert list(kernel.asm) == ["tt", "tt-opt", "ttg", "gpu", "cuda"]
        assert kernel.binary is None
        assert "no ptx stage" in kernel.metadata["unavailable"]
    else:
        assert list(kernel.asm) == ["tt", "tt-opt", "ttg", "gpu", "cuda", "ptx", "cubin"]
        assert ".visible .entry add_kernel(" in kernel.asm["ptx"]
        assert kernel.asm["cubin"][:4] == b"\x7fELF"
        assert kernel.n_regs > 0 and kernel.n_spills >= 0 and kernel.metadata.shared >= 0
    assert kernel_signature(parse_module(kernel.asm["gpu"])) == KernelSignature(
        "add_kernel", ("ptr", "ptr", "ptr", "i32"), (128, 1, 1)
    )


def test_num_warps_sets_the_block(cuda_backend: CudaBackend) -> None:
    kernel = add_kernel.warmup(X, X, X, 100, BLOCK=256, grid=(1,), num_warps=8)
    assert "__launch_bounds__(256)" in kernel.asm["cuda"]
    assert '"ttg.num-warps" = 8 : i32' in kernel.asm["ttg"]
    assert kernel_signature(parse_module(kernel.asm["gpu"])).block == (256, 1, 1)
    assert kernel.metadata.num_warps == 8 and kernel.metadata.name == "add_kernel"


def test_gpu_stage_is_generic_mlir_with_locations(cuda_backend: CudaBackend) -> None:
    kernel = add_kernel.warmup(X, X, X, 100, BLOCK=128, grid=(1,))
    gpu_ir = kernel.asm["gpu"]
    assert gpu_ir.startswith('"builtin.module"()')
    assert '"gpu.func"()' in gpu_ir
    assert "kernels.py" in gpu_ir  # loc(...) of the Python lines


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 not installed")
def test_gpu_stage_parses_with_mlir_opt(tmp_path: Path) -> None:
    path = tmp_path / "k.mlir"
    path.write_text(print_generic(row_sum_module()))
    result = subprocess.run(["mlir-opt-22", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_launch_without_cupy_says_how_to_install(
    cuda_backend: CudaBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy -> ImportError
    kernel = add_kernel.warmup(X, X, X, 100, BLOCK=128, grid=(1,))
    with pytest.raises(BackendUnavailableError, match=r"mytriton\[cuda12\]"):
        require_binary(kernel)
