"""LLVM's atomic ops, which xDSL 0.74 lacks: ``llvm.atomicrmw``, ``llvm.cmpxchg``, ``llvm.fence``.

Names, operands, properties and types match upstream MLIR's generic form exactly (integer
``bin_op``/``ordering`` codes, an optional ``syncscope`` string), so ``mlir-opt`` parses what we
print: ``"llvm.atomicrmw"(%p, %v) <{bin_op = 1 : i64, ordering = 6 : i64, syncscope = "device"}>
: (!llvm.ptr<1>, i32) -> i32``. NVPTX reads the sync scopes ``"block"`` (PTX ``.cta``),
``"device"`` (``.gpu``) and the default, absent one (``.sys``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I64,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i1,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException


class AtomicBinOp(IntEnum):
    """``bin_op`` of ``llvm.atomicrmw`` (upstream's ``AtomicBinOp`` codes)."""

    XCHG = 0
    ADD = 1
    SUB = 2
    AND = 3
    NAND = 4
    OR = 5
    XOR = 6
    MAX = 7
    MIN = 8
    UMAX = 9
    UMIN = 10
    FADD = 11
    FSUB = 12
    FMAX = 13
    FMIN = 14


class AtomicOrdering(IntEnum):
    """LLVM's ``AtomicOrdering`` codes (``monotonic`` is C++'s relaxed)."""

    NOT_ATOMIC = 0
    UNORDERED = 1
    MONOTONIC = 2
    ACQUIRE = 4
    RELEASE = 5
    ACQ_REL = 6
    SEQ_CST = 7


#: the orderings an atomic may carry, and those a failed compare-exchange may
_RMW_ORDERINGS = frozenset(AtomicOrdering) - {AtomicOrdering.NOT_ATOMIC}
_FAILURE_ORDERINGS = frozenset(
    {AtomicOrdering.MONOTONIC, AtomicOrdering.ACQUIRE, AtomicOrdering.SEQ_CST}
)
_FLOAT_OPS = frozenset({AtomicBinOp.FADD, AtomicBinOp.FSUB, AtomicBinOp.FMAX, AtomicBinOp.FMIN})
FLOATS = (Float16Type, BFloat16Type, Float32Type, Float64Type)


def failure_ordering(success: AtomicOrdering) -> AtomicOrdering:
    """The strongest ordering LLVM lets a failed ``cmpxchg`` have (no release side)."""
    if success in (AtomicOrdering.ACQ_REL, AtomicOrdering.ACQUIRE):
        return AtomicOrdering.ACQUIRE
    if success is AtomicOrdering.SEQ_CST:
        return AtomicOrdering.SEQ_CST
    return AtomicOrdering.MONOTONIC


def _code(attr: IntegerAttr, cls: type[IntEnum], what: str, op: IRDLOperation) -> IntEnum:
    try:
        return cls(attr.value.data)
    except ValueError:
        raise VerifyException(f"{op.name}: unknown {what} {attr.value.data}") from None


def _scope(syncscope: str | None) -> dict[str, Attribute]:
    return {} if not syncscope else {"syncscope": StringAttr(syncscope)}


@irdl_op_definition
class AtomicRMWOp(IRDLOperation):
    """``llvm.atomicrmw``: atomically ``*ptr = bin_op(*ptr, val)``; the result is the old value."""

    name = "llvm.atomicrmw"
    ptr = operand_def(llvm.LLVMPointerType)
    val = operand_def()
    res = result_def()
    bin_op = prop_def(IntegerAttr[I64])
    ordering = prop_def(IntegerAttr[I64])
    syncscope = opt_prop_def(StringAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        bin_op: AtomicBinOp,
        ptr: SSAValue,
        val: SSAValue,
        ordering: AtomicOrdering,
        syncscope: str | None = None,
    ):
        super().__init__(
            operands=[ptr, val],
            result_types=[val.type],
            properties={
                "bin_op": IntegerAttr(int(bin_op), i64),
                "ordering": IntegerAttr(int(ordering), i64),
                **_scope(syncscope),
            },
        )

    @property
    def operation(self) -> AtomicBinOp:
        return AtomicBinOp(self.bin_op.value.data)

    @property
    def atomic_ordering(self) -> AtomicOrdering:
        return AtomicOrdering(self.ordering.value.data)

    def verify_(self) -> None:
        kind = _code(self.bin_op, AtomicBinOp, "bin_op", self)
        ordering = _code(self.ordering, AtomicOrdering, "ordering", self)
        if ordering not in _RMW_ORDERINGS:
            raise VerifyException(f"{self.name}: an atomic needs an atomic ordering")
        if self.res.type != self.val.type:
            raise VerifyException(f"{self.name}: the result type must be the value type")
        t = self.val.type
        if kind in _FLOAT_OPS:
            if not isinstance(t, FLOATS):
                raise VerifyException(f"{self.name}: {kind.name.lower()} needs a float, got {t}")
        elif kind is AtomicBinOp.XCHG:
            if not isinstance(t, (IntegerType, *FLOATS)):
                raise VerifyException(f"{self.name}: xchg needs an integer or float, got {t}")
        elif not isinstance(t, IntegerType):
            raise VerifyException(f"{self.name}: {kind.name.lower()} needs an integer, got {t}")


def cmpxchg_result_type(t: Attribute) -> llvm.LLVMStructType:
    """``!llvm.struct<(T, i1)>``: the old value and whether it was swapped."""
    return llvm.LLVMStructType.from_type_list([t, i1])


@irdl_op_definition
class CmpXchgOp(IRDLOperation):
    """``llvm.cmpxchg``: atomically ``old = *ptr; if old == cmp: *ptr = val``; the result is
    ``{old, old == cmp}`` (``llvm.extractvalue`` takes it apart)."""

    name = "llvm.cmpxchg"
    ptr = operand_def(llvm.LLVMPointerType)
    cmp = operand_def()
    val = operand_def()
    res = result_def(llvm.LLVMStructType)
    success_ordering = prop_def(IntegerAttr[I64])
    failure_ordering = prop_def(IntegerAttr[I64])
    syncscope = opt_prop_def(StringAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        ptr: SSAValue,
        cmp: SSAValue,
        val: SSAValue,
        ordering: AtomicOrdering,
        syncscope: str | None = None,
    ):
        super().__init__(
            operands=[ptr, cmp, val],
            result_types=[cmpxchg_result_type(val.type)],
            properties={
                "success_ordering": IntegerAttr(int(ordering), i64),
                "failure_ordering": IntegerAttr(int(failure_ordering(ordering)), i64),
                **_scope(syncscope),
            },
        )

    @property
    def atomic_ordering(self) -> AtomicOrdering:
        return AtomicOrdering(self.success_ordering.value.data)

    def verify_(self) -> None:
        success = _code(self.success_ordering, AtomicOrdering, "success ordering", self)
        failure = _code(self.failure_ordering, AtomicOrdering, "failure ordering", self)
        if success not in _RMW_ORDERINGS or failure not in _FAILURE_ORDERINGS:
            raise VerifyException(f"{self.name}: invalid orderings {success.name}/{failure.name}")
        t = self.val.type
        if not isinstance(t, IntegerType) or self.cmp.type != t:
            raise VerifyException(
                f"{self.name}: compares integers of one type, got {self.cmp.type} and {t}"
            )
        if self.res.type != cmpxchg_result_type(t):
            raise VerifyException(f"{self.name}: the result must be !llvm.struct<({t}, i1)>")


@irdl_op_definition
class FenceOp(IRDLOperation):
    """``llvm.fence``: orders the thread's memory accesses (PTX ``fence.acq_rel.gpu``)."""

    name = "llvm.fence"
    ordering = prop_def(IntegerAttr[I64])
    syncscope = opt_prop_def(StringAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, ordering: AtomicOrdering, syncscope: str | None = None):
        super().__init__(
            properties={"ordering": IntegerAttr(int(ordering), i64), **_scope(syncscope)}
        )

    def verify_(self) -> None:
        ordering = _code(self.ordering, AtomicOrdering, "ordering", self)
        if ordering not in (
            AtomicOrdering.ACQUIRE,
            AtomicOrdering.RELEASE,
            AtomicOrdering.ACQ_REL,
            AtomicOrdering.SEQ_CST,
        ):
            raise VerifyException(
                f"{self.name}: a fence needs acquire, release, acq_rel or seq_cst"
            )


LLVM_ATOMIC_OPS: Sequence[type[IRDLOperation]] = (AtomicRMWOp, CmpXchgOp, FenceOp)
