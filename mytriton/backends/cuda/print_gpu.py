"""``gpu`` ops: thread and block ids, barriers, warp shuffles, the kernel's return.

A y or z block id is followed by ``__builtin_assume`` of its range, CUDA's launch limit (at most
65535 blocks along y and z): every launch that runs at all keeps it, so it changes no result. It
tells NVVM what LLVM's NVPTX backend knows of ``%ctaid.y`` on the mlir path: that
``program_id(1) * BLOCK + arange`` is non-negative, so its ``// GROUP`` is a shift and a
thread's eight ``cols // GROUP`` one address (``dequant_fp8_per_token_group``: 168 SASS, one
signed division and scale load per element, against the mlir path's 96; 80 with it). The other
ranges NVPTX knows are not stated: measured on the patterns rows (``static_compare.py``), the
thread ids' (the ``__launch_bounds__``) moved NVVM to more registers and SASS in some row kernels
(``kl_div_rows`` lost a program per SM), x's (2^31 - 1 blocks) to more registers in one, and the
block and grid sizes' changed nothing.
"""

from __future__ import annotations

from xdsl.dialects import gpu

from mytriton.backends.cuda.c_types import int_width
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.upstream import ShuffleMode, ShuffleOp
from mytriton.errors import BackendError

_SHUFFLES = {
    ShuffleMode.XOR: "__shfl_xor_sync",
    ShuffleMode.DOWN: "__shfl_down_sync",
    ShuffleMode.UP: "__shfl_up_sync",
    ShuffleMode.IDX: "__shfl_sync",
}

#: CUDA's launch limits on the blocks of a grid along y and z (``print_gpu``'s docstring)
GRID_LIMITS = {"y": 65535, "z": 65535}


class GpuPrinter(Emitter):
    """Thread/block ids (64-bit ``index``), ``__syncthreads``, ``__shfl_*_sync``, ``return``."""

    @prints(gpu.ThreadIdOp)
    def _print_thread_id(self, op: gpu.ThreadIdOp) -> None:
        self._define(op.result, f"threadIdx.{op.dimension.data.value}", op)

    @prints(gpu.BlockIdOp)
    def _print_block_id(self, op: gpu.BlockIdOp) -> None:
        dim = op.dimension.data.value
        name = self._define(op.result, f"blockIdx.{dim}", op)
        if dim in GRID_LIMITS:
            self._stmt(op, f"__builtin_assume({name} < {GRID_LIMITS[dim]});")

    @prints(gpu.BlockDimOp)
    def _print_block_dim(self, op: gpu.BlockDimOp) -> None:
        self._define(op.result, f"blockDim.{op.dimension.data.value}", op)

    @prints(gpu.GridDimOp)
    def _print_grid_dim(self, op: gpu.GridDimOp) -> None:
        self._define(op.result, f"gridDim.{op.dimension.data.value}", op)

    @prints(gpu.LaneIdOp)
    def _print_lane_id(self, op: gpu.LaneIdOp) -> None:
        # blocks are 1-D (the ABI), so the lane is the low 5 bits of threadIdx.x
        self._define(op.result, "threadIdx.x & 31", op)

    @prints(gpu.BarrierOp)
    def _print_barrier(self, op: gpu.BarrierOp) -> None:
        self._stmt(op, "__syncthreads();")

    @prints(ShuffleOp)
    def _print_shuffle(self, op: ShuffleOp) -> None:
        if op.valid.uses:
            raise BackendError("the `valid` result of gpu.shuffle is not supported")
        value = self._n(op.value)
        call = (
            f"{_SHUFFLES[op.mode.data]}(0xffffffffu, {value}, {self._n(op.offset)}, "
            f"{self._n(op.width)})"
        )
        if int_width(op.value.type) == 1:  # no bool overload: shuffle it as an int
            call = call.replace(f", {value},", f", (int){value},", 1)
            call = f"(bool){call}"
        self._define(op.shuffle_result, call, op)

    @prints(gpu.ReturnOp)
    def _print_return(self, op: gpu.ReturnOp) -> None:
        if op.operands:
            raise BackendError("a kernel returns no values")
        self._stmt(op, "return;")
