"""``gpu`` ops: thread and block ids, barriers, warp shuffles, the kernel's return.

A thread or block id (or size) is followed by ``__builtin_assume`` of its range: CUDA's launch
limits (a grid of at most 2^31 - 1 blocks in x and 65535 in y and z; a block of at most 1024
threads in x and y, 64 in z) and the kernel's ``__launch_bounds__`` (the threads of
``known_block_size``). Every launch that runs at all satisfies them, so they change no result;
they tell NVVM what LLVM's NVPTX backend knows of the same registers on the mlir path (ranges on
``%ctaid``/``%tid``): ``program_id(1) * BLOCK + arange`` is then known non-negative, a division
of it by a power of two becomes a shift, and the eight ``cols // GROUP`` of a thread one address
(the cuda backend had 8 signed divisions and address computations per thread in
``dequant_fp8_per_token_group``: 168 SASS against the mlir path's 96).
"""

from __future__ import annotations

from xdsl.dialects import gpu

from mytriton.backends.cuda.c_types import int_width
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.upstream import ShuffleMode, ShuffleOp
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.abi import block_size

_SHUFFLES = {
    ShuffleMode.XOR: "__shfl_xor_sync",
    ShuffleMode.DOWN: "__shfl_down_sync",
    ShuffleMode.UP: "__shfl_up_sync",
    ShuffleMode.IDX: "__shfl_sync",
}

#: CUDA's launch limits: the most blocks of a grid, threads of a block, along each dimension
GRID_LIMITS = {"x": 2**31 - 1, "y": 65535, "z": 65535}
BLOCK_LIMITS = {"x": 1024, "y": 1024, "z": 64}


class GpuPrinter(Emitter):
    """Thread/block ids (64-bit ``index``), ``__syncthreads``, ``__shfl_*_sync``, ``return``."""

    @prints(gpu.ThreadIdOp)
    def _print_thread_id(self, op: gpu.ThreadIdOp) -> None:
        dim = op.dimension.data.value
        name = self._define(op.result, f"threadIdx.{dim}", op)
        self._stmt(op, f"__builtin_assume({name} < {self._block_limit(dim)});")

    @prints(gpu.BlockIdOp)
    def _print_block_id(self, op: gpu.BlockIdOp) -> None:
        dim = op.dimension.data.value
        name = self._define(op.result, f"blockIdx.{dim}", op)
        self._stmt(op, f"__builtin_assume({name} < {GRID_LIMITS[dim]});")

    @prints(gpu.BlockDimOp)
    def _print_block_dim(self, op: gpu.BlockDimOp) -> None:
        dim = op.dimension.data.value
        name = self._define(op.result, f"blockDim.{dim}", op)
        self._stmt(op, f"__builtin_assume({name} >= 1 && {name} <= {self._block_limit(dim)});")

    @prints(gpu.GridDimOp)
    def _print_grid_dim(self, op: gpu.GridDimOp) -> None:
        dim = op.dimension.data.value
        name = self._define(op.result, f"gridDim.{dim}", op)
        self._stmt(op, f"__builtin_assume({name} >= 1 && {name} <= {GRID_LIMITS[dim]});")

    def _block_limit(self, dim: str) -> int:
        """The most threads of a block along ``dim``: CUDA's limit, or fewer under the kernel's
        ``__launch_bounds__`` (its threads in all, whatever the block's shape)."""
        known = block_size(self.kernel)
        limit = BLOCK_LIMITS[dim]
        return limit if known is None else min(limit, known[0] * known[1] * known[2])

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
