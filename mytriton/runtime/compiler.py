"""The compile driver: named stages, each a function from one IR to the next (``asm[stage]``).

frontend -> ``tt``; tt pass pipeline -> ``tt-opt``; then the backend's own stages.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from mytriton.backends import Backend, LaunchOptions
from mytriton.frontend import ArgSpec, compile_kernel
from mytriton.passes.pipeline import run_pipeline
from mytriton.runtime.compiled import CompiledKernel


def print_ir(module: ModuleOp) -> str:
    return str(module)


def compile_stages(
    fn: Callable[..., Any],
    specs: Mapping[str, ArgSpec],
    backend: Backend,
    options: LaunchOptions,
) -> CompiledKernel:
    """Compile one specialization of ``fn`` for ``backend``."""
    module = compile_kernel(fn, specs)
    kernel = CompiledKernel(name=fn.__name__, backend=backend.name)
    kernel.asm["tt"] = print_ir(module)
    run_pipeline(module)
    kernel.asm["tt-opt"] = print_ir(module)
    kernel.module = module
    backend.compile(kernel, options)
    if os.environ.get("MYTRITON_DUMP", "") not in ("", "0"):
        for stage, text in kernel.asm.items():
            if isinstance(text, str):
                print(f"// ----- {kernel.name}: {stage} -----\n{text}", file=sys.stderr)
    return kernel
