"""``vector`` ops on the 2- and 4-lane values of vectorized global accesses, as CUDA's
``float2``/``float4``/``int2``/``int4``: ``make_float4`` broadcasts, ``.x``-``.w`` members.

Only 1-D vectors at static positions are part of the contract (``docs/gpu-ir.md``); vectors
never take part in arithmetic, which stays on the scalars extracted from them.
"""

from __future__ import annotations

from xdsl.dialects import vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute

from mytriton.backends.cuda.c_types import VECTOR_COMPONENTS, vector_lanes, vector_type
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.errors import BackendError


class VectorPrinter(Emitter):
    """Broadcasts, extracts and inserts of CUDA vector values."""

    @prints(vector.BroadcastOp, vectors=True)
    def _print_broadcast(self, op: vector.BroadcastOp) -> None:
        if isinstance(op.source.type, VectorType):
            raise BackendError("only scalars can be broadcast (not vectors)")
        t = op.vector.type
        scalars = ", ".join([self._n(op.source)] * vector_lanes(t))
        self._define(op.vector, f"make_{vector_type(t)}({scalars})", op)

    @prints(vector.ExtractOp, vectors=True)
    def _print_extract(self, op: vector.ExtractOp) -> None:
        member = _member(op.vector.type, op.static_position.get_values(), len(op.dynamic_position))
        self._define(op.result, f"{self._n(op.vector)}.{member}", op)

    @prints(vector.InsertOp, vectors=True)
    def _print_insert(self, op: vector.InsertOp) -> None:
        """A copy of the vector with one member replaced: ``float4 v7 = v6; v7.y = s;``."""
        if isinstance(op.source.type, VectorType):
            raise BackendError("only scalars can be inserted (not vectors)")
        member = _member(op.dest.type, op.static_position.get_values(), len(op.dynamic_position))
        name = self._define(op.result, self._n(op.dest), op)
        self._stmt(op, f"{name}.{member} = {self._n(op.source)};")


def _member(t: Attribute, position: tuple[int, ...], dynamic: int) -> str:
    """The C++ member (``x``, ``y``, ``z``, ``w``) at a static position of a 1-D vector."""
    assert isinstance(t, VectorType)
    lanes = vector_lanes(t)
    if dynamic or len(position) != 1:
        raise BackendError("only one static position into a 1-D vector is supported")
    (i,) = position
    if not 0 <= i < lanes:
        raise BackendError(f"position {i} is outside {t}")
    return VECTOR_COMPONENTS[i]
