"""Turns the lowered kernel's blocks into lists of closures, once per module."""

from __future__ import annotations

from typing import NoReturn

from xdsl.dialects import gpu, scf
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Block, Operation, SSAValue

from mytriton.backends.gpusim.dtypes import vector_shape
from mytriton.backends.gpusim.dynamic_views import DynamicView
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.gpusim.machine import CompiledBlock
from mytriton.backends.gpusim.registry import RULES

_TERMINATORS = (scf.YieldOp, scf.ConditionOp, gpu.ReturnOp)


class Compiler:
    """Compiles blocks of one kernel; rules read kernel-wide facts from it."""

    def __init__(
        self,
        shared_names: set[str],
        check_races: bool,
        dynamic_views: dict[SSAValue, DynamicView] | None = None,
    ):
        self.shared_names = shared_names
        self.check_races = check_races
        #: the buffers cut out of dynamic shared memory, by their ``memref.view`` result
        self.dynamic_views = dynamic_views or {}

    def block(self, block: Block) -> CompiledBlock:
        out = CompiledBlock()
        for op in block.ops:
            if isinstance(op, _TERMINATORS):
                out.results = list(op.operands)
                break
            factory = RULES.get(op)
            if factory is None:
                self.unsupported(op, "the simulator has no rule for this op")
            self._check_vectors(op)
            out.steps.append(factory(op, self))
        return out

    def _check_vectors(self, op: Operation) -> None:
        """Vectors only flow through the ops of the contract that take them, and only of the
        shapes it allows."""
        for value in (*op.operands, *op.results):
            if not isinstance(value.type, VectorType):
                continue
            if not RULES.has_tag(op, "vectors"):
                self.unsupported(
                    op,
                    f"vector values ({value.type}) only flow through llvm.load/store, vector.* "
                    "and scf (docs/gpu-ir.md)",
                )
            try:
                vector_shape(value.type)
            except SimulationError as e:
                self.unsupported(op, e.message)

    def unsupported(self, op: Operation, why: str) -> NoReturn:
        raise SimulationError(f"gpusim cannot execute {op.name}: {why}", op)
