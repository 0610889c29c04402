"""Atomics as inline PTX, the instructions Triton emits: ``llvm.atomicrmw`` is
``atom.<sem>.<scope>.global.<op>.<type>``, ``llvm.cmpxchg`` ``atom...cas.b<N>`` (its
``{old, swapped}`` pair is the old value, taken apart by ``llvm.extractvalue``), ``llvm.fence``
``fence.acq_rel.<scope>``. LLVM's orderings name the PTX ``.sem`` (``monotonic`` is
``.relaxed``), the NVPTX sync scopes the ``.scope`` (``"block"`` ``.cta``, ``"device"``
``.gpu``, none ``.sys``). f16/bf16 values are their bits (``unsigned short``), as everywhere.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type
from xdsl.ir import Attribute, Operation, SSAValue

from mytriton.backends.cuda.c_types import int_width, scalar_type
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.atomic import (
    AtomicBinOp,
    AtomicOrdering,
    AtomicRMWOp,
    CmpXchgOp,
    FenceOp,
)
from mytriton.errors import BackendError

_SEMANTICS = {
    AtomicOrdering.MONOTONIC: "relaxed",
    AtomicOrdering.ACQUIRE: "acquire",
    AtomicOrdering.RELEASE: "release",
    AtomicOrdering.ACQ_REL: "acq_rel",
}
_SCOPES = {"block": "cta", "device": "gpu", "": "sys"}
#: integer ops: PTX op and whether its type is signed (s), unsigned (u) or bits (b)
_INTEGER_OPS = {
    AtomicBinOp.ADD: ("add", "u"),
    AtomicBinOp.AND: ("and", "b"),
    AtomicBinOp.OR: ("or", "b"),
    AtomicBinOp.XOR: ("xor", "b"),
    AtomicBinOp.XCHG: ("exch", "b"),
    AtomicBinOp.MAX: ("max", "s"),
    AtomicBinOp.MIN: ("min", "s"),
    AtomicBinOp.UMAX: ("max", "u"),
    AtomicBinOp.UMIN: ("min", "u"),
}
#: inline-asm register constraint per width
_CONSTRAINTS = {16: "h", 32: "r", 64: "l"}


def _scope(op: AtomicRMWOp | CmpXchgOp | FenceOp) -> str:
    name = op.syncscope.data if op.syncscope is not None else ""
    if name not in _SCOPES:
        raise BackendError(f"unknown sync scope {name!r}")
    return _SCOPES[name]


def _semantic(ordering: AtomicOrdering) -> str:
    if ordering not in _SEMANTICS:
        raise BackendError(f"no PTX atom for the {ordering.name.lower()} ordering")
    return _SEMANTICS[ordering]


def _bits(t: Attribute) -> int:
    if isinstance(t, Float16Type | BFloat16Type):
        return 16
    if isinstance(t, Float32Type):
        return 32
    if isinstance(t, Float64Type):
        return 64
    width = int_width(t)
    if width not in _CONSTRAINTS:
        raise BackendError(f"no PTX atomic on {t}")
    return width


def _constraint(t: Attribute) -> str:
    if isinstance(t, Float32Type):
        return "f"
    if isinstance(t, Float64Type):
        return "d"
    return _CONSTRAINTS[_bits(t)]


def _operation(op: AtomicRMWOp) -> str:
    """``add.u32``, ``max.s64``, ``add.noftz.f16``...: the PTX op and type of ``op``."""
    t, kind = op.val.type, op.operation
    if kind is AtomicBinOp.FADD:
        if isinstance(t, Float16Type):
            return "add.noftz.f16"
        if isinstance(t, BFloat16Type):
            return "add.noftz.bf16"
        return f"add.f{_bits(t)}"
    if kind not in _INTEGER_OPS or int_width(t) not in (32, 64):
        raise BackendError(f"no PTX atom for atomicrmw {kind.name.lower()} on {t}")
    name, view = _INTEGER_OPS[kind]
    return f"{name}.{view}{_bits(t)}"


class AtomicPrinter(Emitter):
    """``atom`` and ``fence`` instructions in ``asm volatile`` statements."""

    _cas_operands: dict[SSAValue, tuple[str, str]]

    def _declare(self, result: SSAValue, t: Attribute, op: Operation) -> str:
        name = self.names.define(result)
        self._stmt(op, f"{scalar_type(t)} {name};")
        return name

    def _operand(self, v: SSAValue) -> str:
        """An asm input of exactly its type's size: a literal (``0``) is an ``int`` in C++,
        which a 16-bit ``"h"`` operand rejects."""
        return f"({scalar_type(v.type)}){self._n(v)}"

    @prints(AtomicRMWOp)
    def _print_atomicrmw(self, op: AtomicRMWOp) -> None:
        instruction = f"atom.{_semantic(op.atomic_ordering)}.{_scope(op)}.global.{_operation(op)}"
        c = _constraint(op.val.type)
        old = self._declare(op.res, op.res.type, op)
        self._stmt(
            op,
            f'asm volatile("{instruction} %0, [%1], %2;" : "={c}"({old}) : '
            f'"l"({self._n(op.ptr)}), "{c}"({self._operand(op.val)}) : "memory");',
        )

    @prints(CmpXchgOp)
    def _print_cmpxchg(self, op: CmpXchgOp) -> None:
        t = op.val.type
        instruction = f"atom.{_semantic(op.atomic_ordering)}.{_scope(op)}.global.cas.b{_bits(t)}"
        c = _constraint(t)
        old = self._declare(op.res, t, op)
        self._stmt(
            op,
            f'asm volatile("{instruction} %0, [%1], %2, %3;" : "={c}"({old}) : '
            f'"l"({self._n(op.ptr)}), "{c}"({self._operand(op.cmp)}), '
            f'"{c}"({self._operand(op.val)}) : '
            '"memory");',
        )
        if not hasattr(self, "_cas_operands"):
            self._cas_operands = {}
        self._cas_operands[op.res] = (old, self._n(op.cmp))

    @prints(llvm.ExtractValueOp)
    def _print_extractvalue(self, op: llvm.ExtractValueOp) -> None:
        position = list(op.position.iter_values())
        fields = self._struct_fields.get(op.container)
        if fields is not None and len(position) == 1:  # a struct's field variables
            self.names.bind(op.res, fields[position[0]])
            return
        pair = getattr(self, "_cas_operands", {}).get(op.container)
        if pair is None or len(position) != 1 or position[0] not in (0, 1):
            raise BackendError("only the fields of a cmpxchg result can be extracted")
        old, cmp = pair
        self._define(op.res, old if position[0] == 0 else f"({old} == {cmp})", op)

    @prints(FenceOp)
    def _print_fence(self, op: FenceOp) -> None:
        ordering = AtomicOrdering(op.ordering.value.data)
        sem = "sc" if ordering is AtomicOrdering.SEQ_CST else "acq_rel"
        self._stmt(op, f'asm volatile("fence.{sem}.{_scope(op)};" ::: "memory");')
