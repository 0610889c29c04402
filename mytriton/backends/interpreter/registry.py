"""The rule table: one interpreter rule per op class.

A rule takes the executor and the op, reads operand values from the executor and returns the
op's result values in order (a terminator returns the values it forwards). Rules are found by the
op's class or its nearest registered base class, so one rule serves every ``ElementwiseOp``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from xdsl.ir import Operation

from mytriton.op_rules import OpRules

if TYPE_CHECKING:
    from mytriton.backends.interpreter.engine import Executor
    from mytriton.backends.interpreter.values import Value

Rule = Callable[["Executor", Any], "Sequence[Value]"]

RULES: OpRules[Rule] = OpRules("interpreter")

#: ``@rule(tt.LoadOp)``: the decorated function is the interpreter rule of those ops
rule = RULES.register


def rule_for(op_class: type[Operation]) -> Rule | None:
    """The rule of ``op_class`` (or of its nearest registered base class), if any."""
    return RULES.get(op_class)
