"""The ``cuda`` backend: lowered IR -> CUDA C++ -> NVRTC -> launch through CuPy.

Compiling records ``asm["gpu"]`` (the lowered IR, generic form) and ``asm["cuda"]`` (the C++);
it needs neither CuPy nor a GPU, so NumPy arguments still give the source (compile-only mode).
NVRTC runs at the first launch on a device, which adds ``asm["cubin"]``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.cuda.compile import CudaImage
from mytriton.backends.cuda.launch import CudaLauncher
from mytriton.backends.cuda.printer import print_cuda
from mytriton.backends.cuda.signature import kernel_signature
from mytriton.runtime.arrays import ArrayInfo
from mytriton.runtime.compiled import CompiledKernel


def print_generic(module: ModuleOp) -> str:
    """Generic-form MLIR with locations: what ``mlir-opt`` parses and FileCheck tests read."""
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue() + "\n"


class CudaBackend(Backend):
    name = "cuda"
    runs_on = "gpu"

    def compile(self, kernel: CompiledKernel, options: LaunchOptions) -> None:
        from mytriton.passes.lower_to_gpu import lower_to_gpu

        assert kernel.module is not None
        lowered = lower_to_gpu(kernel.module, options, stages=kernel.asm)
        kernel.asm["gpu"] = print_generic(lowered)
        source = print_cuda(lowered)
        kernel.asm["cuda"] = source
        signature = kernel_signature(lowered, default_block=options.num_warps * 32)
        kernel.metadata["signature"] = signature

        def record(image: CudaImage) -> None:
            kernel.metadata["arch"] = image.arch
            if image.cubin is not None:
                kernel.asm["cubin"] = image.cubin
            else:
                kernel.asm["ptx"] = image.image.rstrip(b"\0").decode()

        kernel.binary = CudaLauncher(source, signature, record)

    def launch(
        self,
        kernel: CompiledKernel,
        grid: tuple[int, int, int],
        args: Sequence[Any],
        arrays: Sequence[ArrayInfo | None],
        options: LaunchOptions,
    ) -> None:
        kernel.binary(grid, args, arrays)
