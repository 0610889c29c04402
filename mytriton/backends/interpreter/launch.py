"""``run_kernel``: bind arguments, walk the grid in batches of programs, fall back when needed.

Programs run in grid order, x fastest (as CUDA numbers blocks); those of a cooperative launch
run all at once, taking turns (``backends/cooperative.py``). Up to ``BATCH_ELEMENTS``
block elements' worth of programs run together in one batch (see ``batching``); a batch that
diverges, conflicts or fails is rolled back and rerun one program at a time, so results and
error messages are exactly those of running the programs one after another.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import BFloat16Type, ModuleOp
from xdsl.ir import Attribute, SSAValue

from mytriton.backends.cooperative import InOrder, run_cooperatively
from mytriton.backends.interpreter.batching import BatchDiverged, BatchLog, stored_arguments
from mytriton.backends.interpreter.engine import Executor, LaunchState, PreparedKernel
from mytriton.backends.interpreter.errors import InterpreterError
from mytriton.backends.interpreter.memory import Memory
from mytriton.backends.interpreter.values import Pointers, Value, dtype_of
from mytriton.dialects.tt.pointer_casts import IntToPtrOp
from mytriton.dialects.tt.types import PointerType, type_str

# Work per batch: programs x largest block. Big enough to amortise Python's per-op cost,
# small enough to stay in cache-friendly array sizes.
BATCH_ELEMENTS = 1 << 18


def run_kernel(
    module: ModuleOp,
    kernel_name: str,
    grid: tuple[int, ...],
    args: Sequence[object],
    *,
    debug: bool = False,
    cooperative: bool = False,
) -> None:
    """Run ``kernel_name`` of ``module`` on the CPU for every program of ``grid``.

    ``args`` holds, per kernel parameter, a NumPy array with any strides for a pointer (the
    pointer is its first element and may address the whole memory block it views; stores write
    in place) or a scalar. ``debug`` turns on uninitialised-value (poison) tracking.
    ``cooperative``: every program runs at once (``launch_cooperative_grid``), so that they
    may wait for one another.
    """
    kernel = _find_kernel(module, kernel_name)
    prepared = PreparedKernel(kernel)
    memory, arguments = _bind_arguments(kernel, args)
    if any(isinstance(op, IntToPtrOp) for op in kernel.walk()):
        # its pointers get buffers while running, which the batch conflict check cannot see
        memory.batchable = False
    stored = stored_arguments(kernel)
    watched = None
    if stored is not None:
        bases = (arguments[arg] for arg in stored)
        watched = {memory.buffers[p.base].region for p in bases if isinstance(p, Pointers)}
    launch = LaunchState(
        prepared, kernel_name, memory, _normalise_grid(grid), debug, arguments, watched
    )
    if cooperative:
        _run_cooperative_grid(launch)
    else:
        _run_grid(launch)


def _find_kernel(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            if not op.body.blocks:
                raise InterpreterError(f"kernel '{name}' is only declared, it has no body", op)
            return op
    raise InterpreterError(f"no kernel named '{name}' in the module")


def _normalise_grid(grid: tuple[int, ...]) -> tuple[int, int, int]:
    dims = tuple(int(g) for g in grid)
    if not 1 <= len(dims) <= 3 or any(g < 0 for g in dims):
        raise InterpreterError(f"the grid must be 1 to 3 non-negative sizes, got {grid}")
    padded = dims + (1,) * (3 - len(dims))
    return (padded[0], padded[1], padded[2])


def _bind_arguments(
    kernel: func.FuncOp, args: Sequence[object]
) -> tuple[Memory, dict[SSAValue, Value]]:
    params = kernel.body.block.args
    if len(args) != len(params):
        raise InterpreterError(
            f"kernel '{kernel.sym_name.data}' takes {len(params)} arguments, got {len(args)}"
        )
    names: list[str] = []
    arrays: list[np.ndarray] = []
    pointers: list[SSAValue] = []
    values: dict[SSAValue, Value] = {}
    for i, (param, arg) in enumerate(zip(params, args, strict=True)):
        name = param.name_hint or f"#{i}"
        if isinstance(param.type, PointerType):
            arrays.append(_check_array(name, param.type, arg))
            names.append(name)
            pointers.append(param)
        else:
            values[param] = _scalar(name, param.type, arg)
    memory = Memory.from_arrays(names, arrays)
    for k, (pointer, buf) in enumerate(zip(pointers, memory.buffers, strict=True)):
        # the pointer is the array's first element, which a view has inside its base's memory
        values[pointer] = Pointers(k, np.full(1, buf.origin, dtype=np.int64))
    return memory, values


def _check_array(name: str, t: PointerType, arg: object) -> np.ndarray:
    if not isinstance(arg, np.ndarray):
        raise InterpreterError(
            f"argument '{name}' ({type_str(t)}) needs a NumPy array, got {type(arg).__name__}"
        )
    expected = dtype_of(t.pointee)
    if arg.dtype != expected:
        raise InterpreterError(
            f"argument '{name}' ({type_str(t)}) needs an array of {expected}, got {arg.dtype}"
        )
    return arg


def _scalar(name: str, t: Attribute, arg: object) -> np.ndarray:
    dtype = dtype_of(t)
    if isinstance(arg, np.ndarray) and arg.ndim > 0:
        raise InterpreterError(f"argument '{name}' ({type_str(t)}) is a scalar, got an array")
    value = np.asarray(arg)
    if dtype.kind in "iu" and value.dtype.kind in "iub":
        info = np.iinfo(dtype)
        if not info.min <= int(value) <= info.max:
            raise InterpreterError(f"argument '{name}' = {int(value)} does not fit {dtype}")
    elif dtype.kind in "iub" and value.dtype.kind not in "iub":
        raise InterpreterError(f"argument '{name}' ({type_str(t)}) needs an integer, got {arg!r}")
    elif value.dtype.kind not in "iubf":
        raise InterpreterError(f"argument '{name}' ({type_str(t)}) needs a number, got {arg!r}")
    if isinstance(t, BFloat16Type):  # as the GPU launch: the f32's upper half (Triton's)
        bits = value.astype(np.float32).reshape(1).view(np.uint32) >> np.uint32(16)
        return bits.astype(np.uint16).view(dtype)
    return value.astype(dtype).reshape(1)


def _run_grid(launch: LaunchState) -> None:
    gx, gy, gz = launch.grid
    total = gx * gy * gz
    batch = max(1, min(total, BATCH_ELEMENTS // max(launch.kernel.largest_block, 1)))
    batched = batch > 1 and launch.memory.batchable
    chunk_size = batch if batched else 4096  # program ids are made a chunk at a time
    running: list[tuple[int, np.ndarray]] = []  # the first program and ids of the chunk

    def one(p: int) -> None:
        first, ids = running[0]
        Executor(launch, ids[p - first : p - first + 1], None).run()

    def spawned(p: int) -> None:  # a program started when another stalled
        Executor(launch, _program_ids(launch.grid, p, p + 1), None).run()

    in_order = InOrder(total, one, spawned)
    for start in range(0, total, chunk_size):
        stop = min(start + chunk_size, total)
        chunk = _program_ids(launch.grid, start, stop)
        if batched and _run_batch(launch, chunk):
            continue
        batched = False  # this kernel does not batch: run the rest one program at a time
        running[:] = [(start, chunk)]
        if in_order.run(start, stop):  # a program waited for later ones, which ran
            return


def _run_cooperative_grid(launch: LaunchState) -> None:
    """Every program at once, each on its own (no batch: they wait for one another)."""
    gx, gy, gz = launch.grid

    def program(p: int) -> None:
        Executor(launch, _program_ids(launch.grid, p, p + 1), None).run()

    run_cooperatively(gx * gy * gz, program)


def _program_ids(grid: tuple[int, int, int], start: int, stop: int) -> np.ndarray:
    """The (x, y, z) ids of programs ``start..stop-1`` in grid order (x fastest), shape (n, 3)."""
    gx, gy, _ = grid
    linear = np.arange(start, stop, dtype=np.int64)
    return np.stack([linear % gx, (linear // gx) % gy, linear // (gx * gy)], axis=1)


def _run_batch(launch: LaunchState, pids: np.ndarray) -> bool:
    """Run ``pids`` together; False (with memory restored) when they must run one by one."""
    log = BatchLog(launch.memory, pids.shape[0], launch.watched_regions)
    try:
        Executor(launch, pids, log).run()
    except (BatchDiverged, InterpreterError):
        # errors are reported for the first failing program in grid order, after the
        # programs before it ran, so rerun one by one
        log.rollback()
        return False
    if log.has_conflict():
        log.rollback()
        return False
    log.flush_output()
    return True
