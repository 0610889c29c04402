"""The rule table: one interpreter rule per op class.

A rule takes the executor and the op, reads operand values from the executor and returns the
op's result values in order (a terminator returns the values it forwards). Rules are found by the
op's class or its nearest registered base class, so one rule serves every ``ElementwiseOp``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from xdsl.ir import Operation

if TYPE_CHECKING:
    from mytriton.backends.interpreter.engine import Executor
    from mytriton.backends.interpreter.values import Value

Rule = Callable[["Executor", Any], "Sequence[Value]"]

RULES: dict[type[Operation], Rule] = {}


def rule(*op_classes: type[Operation]) -> Callable[[Rule], Rule]:
    """Register the decorated function as the rule of ``op_classes``."""

    def register(fn: Rule) -> Rule:
        for cls in op_classes:
            if cls in RULES:
                raise ValueError(f"two interpreter rules for {cls.__name__}")
            RULES[cls] = fn
        return fn

    return register


def rule_for(op_class: type[Operation]) -> Rule | None:
    """The rule of ``op_class`` (or of its nearest registered base class), if any."""
    for cls in op_class.__mro__:
        fn = RULES.get(cls)
        if fn is not None:
            return fn
    return None
