"""The NVIDIA-level dialect objects, each built once: ``nvvm`` (tensor cores before Hopper,
asynchronous copies, ``wgmma``, TMA, tensor-map fences, special registers) and ``ptx`` (the ops
upstream has no form of: a warpgroup MMA with A in registers, fp8 ``mma.sync``, tensor-map
edits); ``upstream`` extends ``arith``, ``gpu`` and ``llvm`` with the ops xDSL lacks."""

from __future__ import annotations

from xdsl.ir import Dialect

from mytriton.dialects.nvgpu.nvvm import NVVM_ATTRS, NVVM_OPS
from mytriton.dialects.nvgpu.ptx_mma import Fp8MmaSyncOp
from mytriton.dialects.nvgpu.ptx_tensormap import TENSORMAP_OPS
from mytriton.dialects.nvgpu.ptx_wgmma import WgmmaRegisterAOp
from mytriton.dialects.nvgpu.sreg import SREG_OPS
from mytriton.dialects.nvgpu.tensormap import TENSORMAP_FENCE_OPS
from mytriton.dialects.nvgpu.tma import TMA_ATTRS, TMA_OPS
from mytriton.dialects.nvgpu.tma_store import TMA_STORE_ATTRS, TMA_STORE_OPS
from mytriton.dialects.nvgpu.upstream import ARITH, GPU, LLVM
from mytriton.dialects.nvgpu.wgmma import WGMMA_ATTRS, WGMMA_OPS

NVVM = Dialect(
    "nvvm",
    [*NVVM_OPS, *WGMMA_OPS, *TMA_OPS, *TMA_STORE_OPS, *TENSORMAP_FENCE_OPS, *SREG_OPS],
    [*NVVM_ATTRS, *WGMMA_ATTRS, *TMA_ATTRS, *TMA_STORE_ATTRS],
)
PTX = Dialect("ptx", [WgmmaRegisterAOp, Fp8MmaSyncOp, *TENSORMAP_OPS], [])

__all__ = ["ARITH", "GPU", "LLVM", "NVVM", "PTX"]
