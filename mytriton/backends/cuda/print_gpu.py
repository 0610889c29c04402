"""``gpu`` ops: thread and block ids, barriers, warp shuffles, the kernel's return."""

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


class GpuPrinter(Emitter):
    """Thread/block ids (64-bit ``index``), ``__syncthreads``, ``__shfl_*_sync``, ``return``."""

    @prints(gpu.ThreadIdOp)
    def _print_thread_id(self, op: gpu.ThreadIdOp) -> None:
        self._define(op.result, f"threadIdx.{op.dimension.data.value}", op)

    @prints(gpu.BlockIdOp)
    def _print_block_id(self, op: gpu.BlockIdOp) -> None:
        self._define(op.result, f"blockIdx.{op.dimension.data.value}", op)

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
