"""Whether a pipelined module fits in shared memory: ``ttg-pipeline`` tries the most stages
first and keeps the first module that does (``async_copies.py``)."""

from __future__ import annotations

from xdsl.dialects import builtin, func
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.types import byte_size
from mytriton.dialects.ttg.shared import LocalAllocOp, MemDescType


def fits_shared_memory(module: builtin.ModuleOp) -> bool:
    """Whether ``module`` lowers within the shared memory a kernel may use."""
    from mytriton.dialects.ttg.layouts import module_num_warps
    from mytriton.errors import MyTritonError
    from mytriton.passes.gpu_lowering.driver import lower_trial

    if _tiles_overflow(module):
        return False
    try:
        num_warps = module_num_warps(module)
        for fn in [op for op in module.ops if isinstance(op, func.FuncOp)]:
            alone = builtin.ModuleOp([fn.clone()])  # the lowering takes one kernel a module
            alone.attributes.update(module.attributes)
            lower_trial(alone, num_warps)  # the real lowering reuses it
    except (MyTritonError, VerifyException):
        return False
    return True


def _tiles_overflow(module: builtin.ModuleOp) -> bool:
    """Whether the shared tiles of ``module`` alone pass the limit, so that its lowering would
    fail: the stages an autotuner's large-tile configs ask for are refused without lowering
    them. Counted where the most tiles are live at once (``shared_alloc.tile_range``, the
    ranges the lowering allocates by): a bound below the lowering's, which adds the other
    buffers and the alignment."""
    from mytriton.passes.gpu_lowering.context import SHARED_ALIGNMENT, SHARED_MEMORY_LIMIT
    from mytriton.passes.gpu_lowering.fp8 import register_type
    from mytriton.passes.gpu_lowering.shared_alloc import Units, tile_range

    for fn in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        units = Units(fn)
        live: dict[int, int] = {}  # the bytes of tiles live at each tile's first op
        tiles = []
        for op in fn.walk():
            if isinstance(op, LocalAllocOp):
                tile = op.result.type
                assert isinstance(tile, MemDescType)
                nbytes = tile.numel * byte_size(register_type(tile.element))
                tiles.append(
                    (tile_range(op, units), -(-nbytes // SHARED_ALIGNMENT) * SHARED_ALIGNMENT)
                )
        for (first, _), _ in tiles:
            live[first] = sum(n for (lo, hi), n in tiles if lo <= first <= hi)
        if max(live.values(), default=0) > SHARED_MEMORY_LIMIT:
            return True
    return False
