"""`tt` -> layouts -> upstream dialects: the single lowering shared by gpusim and both GPU
emitters, as two named pass pipelines that ``mytriton-opt -p`` replays exactly.

``ttg_pipeline(num_warps)`` lays out optimised `tt` (``asm["ttg"]``; the module carries
``ttg.num-warps``, and ``tt.num_stages`` from the ``tt-opt`` stage on), ``GPU_PIPELINE``
lowers laid-out `tt` to a ``gpu.module`` (``asm["gpu"]``), reading the launch geometry from
the module.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, UnitAttr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.ttg.layouts import DEFAULT_CAPABILITY, REFLECT_FTZ_ATTR, module_num_warps
from mytriton.errors import CompilationError
from mytriton.passes.gpu_lowering.driver import lower_module
from mytriton.passes.module_body import replace_body
from mytriton.passes.pipeline import run_pipeline

# each dot's tensor-core instruction decided (written on it as #ttg.nvidia_mma), fp8 dots
# widened where that instruction reads f16, tf32x3 dots split into tf32 ones where it is a tf32
# MMA, layouts, then the clean-up of the layout conversions it inserted (merged clones,
# hoisting), then the K loops' tensor-core operands copied into shared memory num_stages - 1
# iterations ahead (num_stages: the module's `tt.num_stages`, which the tt-opt stage wrote),
# then descriptor stores as TMA stores on sm_90 where the staging tile still fits
TTG_PIPELINE = (
    "ttg-accelerate-matmul{{num_warps={num_warps} capability={capability}}},"
    "tt-legalize-fp8-dots,tt-legalize-tf32x3-dots,"
    "tt-assign-layouts{{num_warps={num_warps} capability={capability}}},cse,licm,"
    "ttg-pipeline,ttg-tma-stores"
)
# the lowering proper, then CSE and DCE of what it emitted
GPU_PIPELINE = "tt-lower-to-gpu,cse,dce"


def ttg_pipeline(num_warps: int, *, capability: int = DEFAULT_CAPABILITY) -> str:
    return TTG_PIPELINE.format(num_warps=num_warps, capability=capability)


def assign_layouts(
    module: ModuleOp,
    num_warps: int,
    *,
    capability: int = DEFAULT_CAPABILITY,
    verified: bool = False,
) -> ModuleOp:
    """A laid-out (and pipelined) copy of optimised `tt` IR (``asm["ttg"]``) for a chip of
    ``capability``; its loops are pipelined with the module's ``tt.num_stages``
    (``loop_attrs``). ``verified``: ``module`` is known to verify (``run_pipeline``)."""
    laid = module.clone()
    spec = ttg_pipeline(num_warps, capability=capability)
    run_pipeline(laid, spec, each_pass=False, verified=verified, original=module)
    return laid


def lower_laid_out(laid: ModuleOp, *, verified: bool = False) -> ModuleOp:
    """The ``gpu.module`` of laid-out `tt` IR (``asm["gpu"]``), for the module's warps;
    ``verified``: ``laid`` is known to verify (``run_pipeline``)."""
    lowered = laid.clone()
    # verifies the result
    run_pipeline(lowered, GPU_PIPELINE, each_pass=False, verified=verified, original=laid)
    return lowered


def lower_to_gpu(
    module: ModuleOp, num_warps: int, *, capability: int = DEFAULT_CAPABILITY
) -> ModuleOp:
    """Both pipelines: optimised `tt` to a ``gpu.module`` for ``num_warps`` warps."""
    laid = assign_layouts(module, num_warps, capability=capability)
    return lower_laid_out(laid, verified=True)  # as assign_layouts verified it


@dataclass(frozen=True)
class LowerToGpuPass(ModulePass):
    """``tt-lower-to-gpu``: laid-out `tt` (run ``tt-assign-layouts`` first: the module's
    ``ttg.num-warps`` sets the launch geometry) -> a ``gpu.module`` of upstream dialects, in
    place. Compose with ``cse,dce`` as ``GPU_PIPELINE`` does."""

    name = "tt-lower-to-gpu"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            num_warps = module_num_warps(op)
        except VerifyException as e:
            raise CompilationError(str(e)) from None
        ftz = op.attributes.get(REFLECT_FTZ_ATTR)
        reflect_ftz = not (isinstance(ftz, IntegerAttr) and ftz.value.data == 0)
        replace_body(op, lower_module(op, num_warps, reflect_ftz))
        for name in list(op.attributes):
            del op.attributes[name]
        op.attributes["gpu.container_module"] = UnitAttr()
