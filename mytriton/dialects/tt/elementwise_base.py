"""The base of the elementwise `tt` ops (``ElementwiseOp``): result element i depends on operand
elements i only. Each op names its NumPy semantics (``semantics``); ``evaluate`` is both the
constant folder's and the interpreter's rule, so what folds at compile time is exactly what
runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation

from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt import semantics as sem
from mytriton.dialects.tt.constants import constant_attr, scalar_constant
from mytriton.dialects.tt.types import is_bool, is_float, is_int

Array = np.ndarray


def is_numeric(t: Attribute) -> bool:
    """Whether ``t`` (or its element type) is an integer or a float, not a boolean."""
    return (is_float(t) or is_int(t)) and not is_bool(t)


class ElementwiseOp(IRDLOperation, HasFolderInterface):
    """Base of every elementwise op: result element i depends on operand elements i only."""

    SEMANTICS: ClassVar[Callable[..., Array]]

    def evaluate(self, *args: Array) -> Array:
        """This op's result for NumPy operands of the operands' dtypes."""
        return sem.evaluate(type(self).SEMANTICS, *args)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        consts = [scalar_constant(v) for v in self.operands]
        if all(c is not None for c in consts) and tt_fp8.has_constants(self.results[0].type):
            value = self.evaluate(*consts)  # type: ignore[arg-type]
            return (constant_attr(value, self.results[0].type),)
        return self.fold_identity()

    def fold_identity(self) -> Sequence[SSAValue] | None:
        """Algebraic identities (``x + 0 -> x``); overridden per op."""
        return None

    def rebuild(self, operands: Sequence[SSAValue]) -> ElementwiseOp:
        """The same op (same attributes) over other operands, e.g. their scalar sources."""
        return type(self)(*operands)
