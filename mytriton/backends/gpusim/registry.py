"""The rule table: for each op name, a factory turning that op into a closure over a Machine.

Compiling every op once into a closure keeps per-op work during simulation to a dict lookup
and the NumPy call itself. Rules registered with ``vectors=True`` also accept vector values
(``(lanes, N)`` arrays); the compiler refuses vectors anywhere else, as the contract does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from xdsl.ir import Operation

from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.machine import Machine, Step

if TYPE_CHECKING:
    from mytriton.backends.gpusim.compiler import Compiler

RuleFactory = Callable[[Operation, "Compiler"], Step]
RULES: dict[str, RuleFactory] = {}
#: names of the ops whose rules handle vector operands and results (docs/gpu-ir.md)
VECTOR_RULES: set[str] = set()


def rule(*names: str, vectors: bool = False) -> Callable[[RuleFactory], RuleFactory]:
    def register(factory: RuleFactory) -> RuleFactory:
        for n in names:
            RULES[n] = factory
            if vectors:
                VECTOR_RULES.add(n)
        return factory

    return register


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
