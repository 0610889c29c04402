"""``run_lowered``: bind a lowered module's parameters and run its grid, a batch of programs
at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects import gpu, llvm, memref
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Attribute

from mytriton.backends.arrays import host_memory
from mytriton.backends.cooperative import InOrder, run_cooperatively
from mytriton.backends.gpusim import rules_arith, rules_control, rules_gpu, rules_math
from mytriton.backends.gpusim import rules_atomic as _rules_atomic
from mytriton.backends.gpusim import rules_debug as _rules_debug
from mytriton.backends.gpusim import rules_intrinsics as _rules_intrinsics
from mytriton.backends.gpusim import rules_libdevice as _rules_libdevice
from mytriton.backends.gpusim import rules_memory as _rules_memory
from mytriton.backends.gpusim import rules_nvvm as _rules_nvvm
from mytriton.backends.gpusim import rules_sreg as _rules_sreg
from mytriton.backends.gpusim import rules_tensormap as _rules_tensormap
from mytriton.backends.gpusim import rules_tma as _rules_tma
from mytriton.backends.gpusim import rules_tma_store as _rules_tma_store
from mytriton.backends.gpusim import rules_vector as _rules_vector
from mytriton.backends.gpusim import rules_wgmma as _rules_wgmma
from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.dynamic_views import dynamic_views
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.gpusim.global_memory import GlobalMemory, Region
from mytriton.backends.gpusim.machine import Machine
from mytriton.backends.gpusim.shared_memory import SharedBuffer, SharedMemory
from mytriton.backends.gpusim.values import Ptr, Value

# registered on import
_RULES = (
    _rules_atomic,
    _rules_debug,
    _rules_intrinsics,
    rules_arith,
    rules_control,
    rules_gpu,
    rules_math,
    _rules_libdevice,
    _rules_memory,
    _rules_nvvm,
    _rules_sreg,
    _rules_tensormap,
    _rules_tma,
    _rules_tma_store,
    _rules_vector,
    _rules_wgmma,
)

#: ops that make a kernel run one program at a time (``rules_atomic``)
_ATOMIC_OPS = frozenset({"llvm.atomicrmw", "llvm.cmpxchg"})
#: words of the ops whose copies progress outside memory: no stall watch (``Machine``)
_IN_FLIGHT_WORDS = ("mbarrier", "cp.async", "cp_async", "wgmma", "tma", "bulk")
#: lanes (threads of all programs) simulated at once; 0 runs one program at a time
BATCH_LANES = 16384
SHARED_SPACE = 3


def _kernel(module: ModuleOp) -> tuple[gpu.FuncOp, dict[str, MemRefType]]:
    """The module's one kernel ``gpu.func`` and its shared-memory globals."""
    kernels: list[gpu.FuncOp] = []
    shared: dict[str, MemRefType] = {}
    for op in module.walk():
        if isinstance(op, gpu.FuncOp):
            kernels.append(op)
        elif isinstance(op, memref.GlobalOp):
            t = op.type
            space = t.memory_space
            if not (isinstance(space, IntegerAttr) and space.value.data == SHARED_SPACE):
                raise SimulationError(
                    f"memref.global @{op.sym_name.data} is not in address space 3", op
                )
            shared[op.sym_name.data] = t
    if len(kernels) != 1:
        raise SimulationError(f"expected one gpu.func in the module, found {len(kernels)}")
    return kernels[0], shared


def _shared_alignments(module: ModuleOp) -> dict[str, int]:
    """The ``alignment`` each shared ``memref.global`` asks for, where it has one."""
    return {
        op.sym_name.data: op.alignment.value.data
        for op in module.walk()
        if isinstance(op, memref.GlobalOp) and op.alignment is not None
    }


def _block_size(fn: gpu.FuncOp) -> tuple[int, int, int]:
    attr = fn.attributes.get("known_block_size") or fn.known_block_size
    if not isinstance(attr, DenseArrayBase):
        raise SimulationError("the kernel has no known_block_size: cannot size the block", fn)
    dims = [int(x) for x in attr.iter_values()]
    x, y, z = (*dims, 1, 1)[:3]
    return x, y, z


def _scalar(value: Any, t: Attribute, name: str) -> np.generic:
    """A scalar argument as the parameter's type (bools travel as i32: docs/gpu-ir.md)."""
    dtype = dtype_of(t)
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if dtype.kind in "iu":
        v = int(value)
        info = np.iinfo(dtype)
        if info.min <= v <= info.max:
            return dtype.type(v)
        if info.max < v < 1 << info.bits:  # an unsigned argument: its bits (signless)
            return dtype.type(v - (1 << info.bits))
        raise SimulationError(f"argument `{name}` = {v} does not fit in {dtype.name}")
    if dtype == np.bool_:
        return np.bool_(value)
    return dtype.type(float(value))


class SimKernel:
    """A lowered module, compiled once into closures, runnable on any grid and arguments."""

    def __init__(self, module: ModuleOp, check_races: bool = True):
        self.fn, self.shared_types = _kernel(module)
        self.shared_alignments = _shared_alignments(module)
        self.block_size = _block_size(self.fn)
        self.params = list(self.fn.body.block.args)
        self.check_races = check_races
        self.names = [p.name_hint or f"arg{i}" for i, p in enumerate(self.params)]
        pointees = self.fn.attributes.get("mytriton.pointee_types")
        self.pointees = list(pointees.data) if isinstance(pointees, ArrayAttr) else []
        # buffers past 48 KiB: views of dynamic shared memory, beside any static ones
        self.dynamic = dynamic_views(self.fn, set(self.shared_types))
        self.body = Compiler(set(self.shared_types), check_races, self.dynamic).block(
            self.fn.body.block
        )
        # a program spinning on a lock must not run in lockstep with the one holding it
        self.one_program_at_a_time = any(op.name in _ATOMIC_OPS for op in self.fn.walk())
        self.watch_stalls = not any(
            word in op.name for op in self.fn.walk() for word in _IN_FLIGHT_WORDS
        )

    def _regions(self, args: Sequence[Any]) -> dict[int, Region]:
        regions: dict[int, Region] = {}
        for i, (p, a) in enumerate(zip(self.params, args, strict=True)):
            if not isinstance(p.type, llvm.LLVMPointerType):
                continue
            if not isinstance(a, np.ndarray):
                raise SimulationError(f"argument `{self.names[i]}` must be a NumPy array")
            if not a.dtype.isnative:
                raise SimulationError(
                    f"argument `{self.names[i]}` is in non-native byte order ({a.dtype.str}): "
                    "pass a native array (the kernel launcher converts them)"
                )
            memory = host_memory(a)  # any strides: a view addresses its whole base array
            regions[i] = Region(self.names[i], memory.raw, memory.origin)
        return regions

    def run(
        self, grid: tuple[int, int, int], args: Sequence[Any], cooperative: bool = False
    ) -> None:
        """Run the grid, a batch of programs at a time or, ``cooperative``, every program at
        once (``launch_cooperative_grid``: they may wait for one another)."""
        if len(args) != len(self.params):
            raise SimulationError(f"the kernel takes {len(self.params)} arguments, got {len(args)}")
        memory = GlobalMemory(self._regions(args), self.check_races)
        scalars = {
            i: _scalar(a, p.type, self.names[i])
            for i, (p, a) in enumerate(zip(self.params, args, strict=True))
            if i not in memory.regions
        }
        total = grid[0] * grid[1] * grid[2]
        if cooperative:
            self._run_cooperatively(grid, total, memory.regions, scalars)
            return
        threads = self.block_size[0] * self.block_size[1] * self.block_size[2]
        per_batch = 1 if self.one_program_at_a_time else max(1, BATCH_LANES // threads)
        with np.errstate(all="ignore"):
            if per_batch == 1:  # a program waiting for a later one has the rest join it
                self._in_order(grid, total, memory, scalars)
                return
            for start in range(0, total, per_batch):
                programs = range(start, min(total, start + per_batch))
                self._run_batch(grid, programs, memory, scalars)

    def _in_order(
        self,
        grid: tuple[int, int, int],
        total: int,
        memory: GlobalMemory,
        scalars: dict[int, np.generic],
    ) -> None:
        """One program after another; those started when one stalls (``InOrder``) run with
        race logs of their own, as in a cooperative launch."""

        def program(p: int) -> None:
            self._run_batch(grid, range(p, p + 1), memory, scalars)

        def spawned(p: int) -> None:
            with np.errstate(all="ignore"):
                own = GlobalMemory(memory.regions, self.check_races)
                self._run_batch(grid, range(p, p + 1), own, scalars)

        InOrder(total, program, spawned).run(0, total)

    def _run_cooperatively(
        self,
        grid: tuple[int, int, int],
        total: int,
        regions: dict[int, Region],
        scalars: dict[int, np.generic],
    ) -> None:
        """Every program at once, taking turns (``backends/cooperative.py``); each has its own
        race log, as programs never race with each other here."""

        def program(p: int) -> None:
            with np.errstate(all="ignore"):
                memory = GlobalMemory(regions, self.check_races)
                self._run_batch(grid, range(p, p + 1), memory, scalars)

        run_cooperatively(total, program)

    def _run_batch(
        self,
        grid: tuple[int, int, int],
        programs: range,
        memory: GlobalMemory,
        scalars: dict[int, np.generic],
    ) -> None:
        buffers = {
            name: SharedBuffer(name, dtype_of(t.element_type), tuple(t.get_shape()), len(programs))
            for name, t in self.shared_types.items()
        }
        for view in self.dynamic.values():
            buffers[view.name] = SharedBuffer(
                view.name, view.dtype, tuple(view.type.get_shape()), len(programs)
            )
        shared = SharedMemory(
            buffers,
            {v.name: v.offset for v in self.dynamic.values()},
            self.shared_alignments,
        )
        if memory.log is not None:
            memory.log.next_interval()
        m = Machine(grid, self.block_size, programs, memory, shared)
        m.watch_stalls = self.watch_stalls
        for i, p in enumerate(self.params):
            value: Value
            if i in memory.regions:
                origin = memory.regions[i].origin  # the array's first element
                value = Ptr(np.full(m.lanes, i, np.int64), np.full(m.lanes, origin, np.int64))
            else:
                value = np.full(m.lanes, scalars[i])
            m.env[p] = value
        m.run_block(self.body, m.mask)
        m.async_copies.check_finished(m)  # no cp.async may land after the kernel
        m.wgmma.check_finished(m)  # nor a wgmma read shared memory
        m.mbarriers.check_finished(m)  # nor a TMA copy write it
        m.bulk_stores.check_finished(m)  # nor a TMA store read it


def run_lowered(
    module: ModuleOp, grid: tuple[int, int, int], args: Sequence[Any], check_races: bool = True
) -> None:
    """Run the lowered kernel of ``module`` over ``grid``: NumPy arrays with any strides for
    pointer parameters (written in place), Python/NumPy numbers for the others."""
    SimKernel(module, check_races).run(grid, args)
