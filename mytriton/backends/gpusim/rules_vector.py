"""``vector`` ops on the 2- and 4-element values of vectorized global accesses: a vector is a
``(lanes, N)`` array, so a broadcast repeats each lane's scalar N times, and an extract or
insert reads or replaces one column. Positions are static and inside the vector (the contract,
``docs/gpu-ir.md``); anything else is refused when the kernel is compiled."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import vector_shape
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule


def _position(op: vector.ExtractOp | vector.InsertOp, c: Compiler, t: Attribute) -> int:
    """The one static position of an extract/insert on a 1-D vector of type ``t``."""
    assert isinstance(t, VectorType)
    _, n = vector_shape(t)
    position = op.static_position.get_values()
    if op.dynamic_position or len(position) != 1:
        c.unsupported(op, "only one static position into a 1-D vector is modelled")
    (i,) = position
    if not 0 <= i < n:
        c.unsupported(op, f"position {i} is outside {t}")
    return i


@rule("vector.broadcast", vectors=True)
def _broadcast(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, vector.BroadcastOp)
    if isinstance(op.source.type, VectorType):
        c.unsupported(op, "only scalars are broadcast (not vectors)")
    _, n = vector_shape(op.vector.type)
    source, out = op.source, op.vector

    def step(m: Machine) -> None:
        s = m.env[source]
        assert isinstance(s, np.ndarray)
        m.env[out] = np.repeat(s[:, None], n, axis=1)

    return step


@rule("vector.extract", vectors=True)
def _extract(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, vector.ExtractOp)
    i = _position(op, c, op.vector.type)
    source, out = op.vector, op.result

    def step(m: Machine) -> None:
        v = m.env[source]
        assert isinstance(v, np.ndarray)
        m.env[out] = v[:, i].copy()

    return step


@rule("vector.insert", vectors=True)
def _insert(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, vector.InsertOp)
    if isinstance(op.source.type, VectorType):
        c.unsupported(op, "only scalars are inserted (not vectors)")
    i = _position(op, c, op.dest.type)
    source, dest, out = op.source, op.dest, op.result

    def step(m: Machine) -> None:
        s, v = m.env[source], m.env[dest]
        assert isinstance(s, np.ndarray) and isinstance(v, np.ndarray)
        new = v.copy()
        new[:, i] = s
        m.env[out] = new

    return step
