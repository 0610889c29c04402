"""The rule table: for each op name, a factory turning that op into a closure over a Machine.

Compiling every op once into a closure keeps per-op work during simulation to a dict lookup
and the NumPy call itself. Rules registered with ``vectors=True`` also accept vector values
(``(lanes, N)`` arrays); the compiler refuses vectors anywhere else, as the contract does.
The table is an ``OpRules``, the registration idiom of every per-op table.

Why names, where the other tables key by class: not for IR of unknown origin. Every module
gpusim runs is built by the lowering or parsed with ``make_context()``, whose context refuses
unregistered ops, and no two op classes of ``all_dialects()`` share a name, so an op is
always an instance of the class its name registers and a class key would find the same rule.
The names stay because they are the ops' spelling in ``docs/gpu-ir.md`` and in the IR the
rules are read against, and renaming some 140 keys would change nothing that runs. What a
class key would add, that a misspelt name cannot linger as a rule nothing reaches
(``arith.index_castui`` did: xDSL cannot even parse it), ``tests/test_op_contract.py`` checks
instead: every name here is an op ``make_context()`` knows, and every op the lowering emits
has a rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.op_rules import OpRules

if TYPE_CHECKING:
    from mytriton.backends.gpusim.compiler import Compiler

RuleFactory = Callable[[Operation, "Compiler"], Step]
RULES: OpRules[RuleFactory] = OpRules("gpusim")
VECTORS = frozenset({"vectors"})


def rule(*names: str, vectors: bool = False) -> Callable[[RuleFactory], RuleFactory]:
    """``@rule("arith.addf")``: the decorated factory is the gpusim rule of those ops (keyed by
    name, see the module's docstring); ``vectors``: it also takes vector values
    (``(lanes, N)`` arrays)."""
    return RULES.register(*names, tags=VECTORS if vectors else frozenset())


def unary(fn: Callable[[np.ndarray], np.ndarray]) -> RuleFactory:
    """A rule computing the single result from the single operand, lane-wise."""

    def factory(op: Operation, c: Compiler) -> Step:
        (a,) = op.operands
        out = op.results[0]

        def step(m: Machine) -> None:
            m.env[out] = fn(m.env[a])  # type: ignore[arg-type]

        return step

    return factory


def binary(fn: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> RuleFactory:
    """A rule computing the single result from two operands, lane-wise."""

    def factory(op: Operation, c: Compiler) -> Step:
        a, b = op.operands[:2]
        out = op.results[0]

        def step(m: Machine) -> None:
            env = m.env
            env[out] = fn(env[a], env[b])  # type: ignore[arg-type]

        return step

    return factory


def cast(fn: Callable[[np.ndarray, np.dtype], np.ndarray]) -> RuleFactory:
    """A conversion rule: ``fn(operand, result dtype)``."""

    def factory(op: Operation, c: Compiler) -> Step:
        (a,) = op.operands
        out = op.results[0]
        dtype = dtype_of(out.type)

        def step(m: Machine) -> None:
            m.env[out] = fn(m.env[a], dtype)  # type: ignore[arg-type]

        return step

    return factory
