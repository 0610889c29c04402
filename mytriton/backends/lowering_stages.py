"""The stages every backend that runs the lowered IR shares: ``ttg`` (layouts) and ``gpu``
(the ``gpu.module`` of upstream dialects). gpusim, cuda and mlir list them first, so
``asm["ttg"]`` and ``asm["gpu"]`` are the same text under each of them."""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import ModuleOp

from mytriton.backends.stages import Stage, parse_module, print_generic, print_module
from mytriton.dialects.ttg.aliases import with_layout_aliases


def _lay_out(module: ModuleOp, options: Any, verified: bool = False) -> ModuleOp:
    from xdsl.dialects.builtin import BoolAttr, i1

    from mytriton.dialects.ttg.layouts import REFLECT_FTZ_ATTR
    from mytriton.passes.gpu_lowering.lower_to_gpu import (
        assign_layouts,  # the lowering imports much
    )

    # its loops are pipelined with the module's `tt.num_stages`, which the tt-opt stage wrote
    capability = options.capability
    laid = assign_layouts(module, options.num_warps, capability=capability, verified=verified)
    if not getattr(options, "enable_reflect_ftz", True):
        laid.attributes[REFLECT_FTZ_ATTR] = BoolAttr(False, i1)  # the lowering reads it
    return laid


def _lower(laid: ModuleOp, options: Any, verified: bool = False) -> ModuleOp:
    from mytriton.passes.gpu_lowering.lower_to_gpu import lower_laid_out

    # the launch geometry is the module's (`ttg.num-warps`)
    return lower_laid_out(laid, verified=verified)


def _lay_out_made(module: ModuleOp, options: Any) -> ModuleOp:
    return _lay_out(module, options, verified=True)  # the tt-opt stage verified it


def _lower_made(laid: ModuleOp, options: Any) -> ModuleOp:
    return _lower(laid, options, verified=True)  # the ttg stage verified it


def _print_laid_out(module: ModuleOp) -> str:
    return with_layout_aliases(print_module(module))


TTG = Stage("ttg", ".ttg.mlir", _lay_out, _print_laid_out, parse_module, _lay_out_made)
GPU = Stage("gpu", ".gpu.mlir", _lower, print_generic, parse_module, _lower_made)
LOWERING_STAGES = (TTG, GPU)
