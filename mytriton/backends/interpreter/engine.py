"""Executing a kernel's IR for a batch of programs.

``PreparedKernel`` is built once per launch: it looks up every op's rule up front (so an op
without one fails before anything runs) and finds the *launch-invariant* ops, those whose results
cannot depend on the program id or on memory (constants, ``arange``, splats of arguments...).
Their results are computed by the first program and reused by all others.

``Executor`` runs the IR for one batch of programs, holding the value (and, in debug mode, the
poison) of every SSA value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator, Pure

# imported for their side effect: they fill the rule table
from mytriton.backends.interpreter import (  # noqa: F401
    rules_atomic,
    rules_control,
    rules_debug,
    rules_memory,
    rules_pointer_casts,
    rules_reduce,
    rules_shape,
    rules_tt,
)
from mytriton.backends.interpreter.batching import BatchLog
from mytriton.backends.interpreter.errors import InterpreterError
from mytriton.backends.interpreter.memory import Memory
from mytriton.backends.interpreter.poison import Poison
from mytriton.backends.interpreter.registry import Rule, rule_for
from mytriton.backends.interpreter.values import Value, dtype_of
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import PointerType, element_type, shape_of

Array = np.ndarray
T = TypeVar("T")

# Pure ops whose result still differs between programs.
PROGRAM_DEPENDENT: tuple[type[Operation], ...] = (tt.GetProgramIdOp,)


@dataclass(frozen=True)
class Step:
    op: Operation
    rule: Rule
    invariant: bool
    terminator: bool


class PreparedKernel:
    """A kernel function with each block's ops resolved to rules."""

    def __init__(self, kernel: func.FuncOp):
        self.func = kernel
        self.plans: dict[Block, list[Step]] = {}
        invariant: set[SSAValue] = set(kernel.body.block.args)
        for block in _blocks(kernel):
            plan = []
            for op in block.ops:
                fn = rule_for(type(op))
                if fn is None:
                    raise InterpreterError(
                        f"the interpreter has no rule for operation '{op.name}'", op
                    )
                _check_types(op)
                is_invariant = (
                    op.has_trait(Pure)
                    and not op.regions
                    and not isinstance(op, PROGRAM_DEPENDENT)
                    and all(v in invariant for v in op.operands)
                )
                if is_invariant:
                    invariant.update(op.results)
                plan.append(Step(op, fn, is_invariant, op.has_trait(IsTerminator)))
            self.plans[block] = plan
        self._memo: dict[Operation, Any] = {}
        self.largest_block = max(
            (int(np.prod(shape_of(r.type))) for op in kernel.walk() for r in op.results),
            default=1,
        )

    def memo(self, op: Operation, compute: Callable[[], T]) -> T:
        """``compute()``, once per op: what a rule derives from the op alone (its operand roles,
        its result dtype). xDSL's field accessors and type hashing cost microseconds per call,
        which adds up when thousands of programs run one at a time."""
        try:
            return self._memo[op]
        except KeyError:
            value = self._memo[op] = compute()
            return value


def _check_types(op: Operation) -> None:
    """Fail before running when an op produces values of a type NumPy cannot hold for us."""
    for t in [r.type for r in op.results] + [a.type for r in op.regions for a in r.block.args]:
        elem = element_type(t)
        try:
            dtype_of(elem.pointee if isinstance(elem, PointerType) else elem)
        except InterpreterError as e:
            raise InterpreterError(e.message, op) from None


def _blocks(op: Operation) -> list[Block]:
    """Every block nested in ``op``, outer before inner (so definitions precede uses)."""
    out = []
    for region in op.regions:
        for block in region.blocks:
            out.append(block)
            for inner in block.ops:
                out.extend(_blocks(inner))
    return out


@dataclass
class LaunchState:
    """What all programs of one launch share."""

    kernel: PreparedKernel
    kernel_name: str
    memory: Memory
    grid: tuple[int, int, int]
    debug: bool
    arguments: dict[SSAValue, Value]
    # regions the kernel may store to (None: unknown, all); see ``BatchLog``
    watched_regions: set[int] | None
    # results (and poison) of launch-invariant ops, filled by the first program
    invariants: dict[Operation, tuple[Sequence[Value], list[Poison | None]]] = field(
        default_factory=dict
    )


class Executor:
    """Runs the kernel for the programs ``pids`` (shape ``(P, 3)``) together."""

    def __init__(self, launch: LaunchState, pids: Array, log: BatchLog | None):
        self.launch = launch
        self.memory = launch.memory
        self.debug = launch.debug
        self.pids = pids
        self.log = log
        self.values: dict[SSAValue, Value] = dict(launch.arguments)
        self.poisons: dict[SSAValue, Poison] = {}

    @property
    def programs(self) -> int:
        return int(self.pids.shape[0])

    def run(self) -> None:
        self.run_block(self.launch.kernel.func.body.block)

    def get(self, v: SSAValue) -> Value:
        try:
            return self.values[v]
        except KeyError:
            op = v.owner if isinstance(v.owner, Operation) else None
            raise InterpreterError(
                f"value %{v.name_hint} is used before it is defined", op
            ) from None

    def poison(self, v: SSAValue) -> Poison | None:
        return self.poisons.get(v)

    def set_poison(self, v: SSAValue, p: Poison | None) -> None:
        if p is None:
            self.poisons.pop(v, None)
        else:
            self.poisons[v] = p

    def pid_of_lane(self, program: int) -> tuple[int, int, int]:
        """The program id of row ``program`` of a value's program axis."""
        row = self.pids[program if self.programs > 1 else 0]
        return (int(row[0]), int(row[1]), int(row[2]))

    def emit_output(self, program: int, lines: Sequence[str]) -> None:
        """Print ``lines`` of the batch's ``program`` (``tt.print``): at once when programs run
        one by one, else when the batch commits (``BatchLog.flush_output``)."""
        if self.log is not None:
            self.log.output.append((program, list(lines)))
        else:
            for line in lines:
                print(line)

    def run_block(self, block: Block) -> Sequence[Value]:
        """Run the ops of ``block``; return the values its terminator forwards."""
        values = self.values
        invariants = self.launch.invariants
        for step in self.launch.kernel.plans[block]:
            op = step.op
            cached = invariants.get(op) if step.invariant else None
            if cached is not None:
                results, poisons = cached
                if self.debug:
                    for r, p in zip(op.results, poisons, strict=True):
                        self.set_poison(r, p)
            else:
                results = step.rule(self, op)
                if step.terminator:
                    return results
                if step.invariant:
                    invariants[op] = (results, [self.poison(r) for r in op.results])
            for r, v in zip(op.results, results, strict=True):
                values[r] = v
        return ()
