"""Compile a kernel of ``tests/kernels.py`` through the real lowering and run it on gpusim."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.vector import Vector
from xdsl.parser import Parser

from mytriton.backends.gpusim import run_lowered
from mytriton.dialects import make_context
from mytriton.passes.gpu_lowering.lower_to_gpu import lower_to_gpu


def cdiv(a: int, b: int) -> int:
    return (a + b - 1) // b


def lower(
    kernel: Any, *args: Any, num_warps: int = 4, num_stages: int = 3, **constexprs: Any
) -> ModuleOp:
    # gpusim's own compile: it takes dots below the NVIDIA backends' least size, as
    # Triton's interpreter does (the cuda default refuses them)
    previous = os.environ.get("MYTRITON_BACKEND")
    os.environ["MYTRITON_BACKEND"] = "gpusim"
    try:
        compiled = kernel.warmup(*args, grid=(1,), num_stages=num_stages, **constexprs)
    finally:
        if previous is None:
            del os.environ["MYTRITON_BACKEND"]
        else:
            os.environ["MYTRITON_BACKEND"] = previous
    return lower_to_gpu(compiled.module, num_warps)  # the module carries num_stages


def simulate(
    kernel: Any, grid: tuple[int, ...], *args: Any, num_warps: int = 4, **constexprs: Any
) -> ModuleOp:
    """Lower ``kernel`` for these arguments and run it over ``grid``; returns the module."""
    module = lower(kernel, *args, num_warps=num_warps, **constexprs)
    x, y, z = (*grid, 1, 1)[:3]
    run_lowered(module, (x, y, z), kernel.runtime_arguments(*args, **constexprs))
    return module


def nans(*shape: int) -> np.ndarray:
    """An output buffer whose unwritten elements fail any comparison."""
    return np.full(shape, np.nan, np.float32)


def randn(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def parse(text: str) -> ModuleOp:
    ctx = make_context()
    if ctx.get_optional_dialect("vector") is None:  # vectorized accesses (docs/gpu-ir.md)
        ctx.load_dialect(Vector)
    return Parser(ctx, text).parse_module()


def gpu_module(
    params: str, pointees: str, body: str, threads: int = 32, globals_: str = ""
) -> ModuleOp:
    """A hand-written lowered module: one kernel ``k`` with ``params`` and ``body``."""
    types = ", ".join(p.split(":")[1].strip() for p in params.split(","))
    return parse(
        f"""
builtin.module attributes {{gpu.container_module}} {{
  "gpu.module"() <{{sym_name = "kernels"}}> ({{
    {globals_}
    "gpu.func"() <{{function_type = ({types}) -> ()}}> ({{
    ^bb0({params}):
      {body}
      "gpu.return"() : () -> ()
    }}) {{sym_name = "k", gpu.kernel, known_block_size = array<i32: {threads}, 1, 1>,
         mytriton.pointee_types = [{pointees}]}} : () -> ()
  }}) : () -> ()
}}"""
    )
