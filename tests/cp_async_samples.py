"""Hand-built lowered kernels around ``nvvm.cp.async.shared.global`` (global to shared memory,
asynchronously), ``nvvm.cp.async.commit.group`` and ``nvvm.cp.async.wait.group``, and their NumPy
reference.

Shared by the gpusim, CUDA printer and MLIR tests, so all three see the same IR. The kernel
``cp_async(src: T[], out: T[], n: i32, start: i32)`` stages ``stages`` slots of a shared buffer,
each of one ``size``-byte copy per thread (``V = size / sizeof(T)`` elements): in slot ``s``,
thread ``t`` copies ``src[start + (sT + t)V ...]`` to its ``V`` elements of the slot, reading
nothing (``cpSize`` 0, zeros) where ``(sT + t)V >= n``, and commits each slot as its own group.
Then, slot after slot, it waits until the later slots' groups alone may be pending, synchronizes,
and thread ``t`` copies the elements of thread ``T - 1 - t`` of the slot to ``out[(sT + t)V ...]``
(so each thread reads what another one's copy wrote). ``CpAsyncKernel`` builds other orders of
these steps (the gpusim tests' mistakes).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, gpu, llvm, memref
from xdsl.dialects.builtin import IndexType, ModuleOp, bf16, f16, f32, i8, i32, i64
from xdsl.ir import Attribute, SSAValue

from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.dialects.nvgpu.nvvm import (
    SHARED_POINTER,
    CpAsyncCommitGroupOp,
    CpAsyncOp,
    CpAsyncWaitGroupOp,
)
from tests.gpu_ir_samples import KernelBuilder, Ptr

ELEMENTS: dict[str, Attribute] = {"f16": f16, "bf16": bf16, "f32": f32, "i8": i8}
#: (element, size in bytes, cg) of each sample: every size, cg only at 16 bytes
CASES = [
    ("f16", 16, True),
    ("bf16", 16, False),
    ("f32", 16, True),
    ("i8", 16, True),
    ("f16", 8, False),
    ("f32", 4, False),
    ("i8", 4, False),
]
CASE_IDS = [f"{e}-{size}{'-cg' if cg else ''}" for e, size, cg in CASES]


class CpAsyncKernel:
    """The kernel's steps, appended in the order called (``build`` ends it)."""

    def __init__(self, element: str, size: int, *, slots: int = 1, block: int = 32):
        self.element = ELEMENTS[element]
        self.size, self.block, self.slots = size, block, slots
        self.per_thread = size // dtype_of(self.element).itemsize  # V
        self.b = b = KernelBuilder(
            "cp_async",
            [("src", Ptr(self.element)), ("out", Ptr(self.element)), ("n", i32), ("start", i32)],
            block=block,
            def_line=80,
        )
        with b.at(81):
            self.tid = b.tid()
            self.smem = b.shared(
                "staged", [slots * block * self.per_thread], self.element, alignment=16
            )
            address = b.op(memref.ExtractAlignedPointerAsIndexOp.get(self.smem))
            self.base = b.op(
                llvm.IntToPtrOp.build(
                    operands=[b.op(arith.IndexCastOp(address, i64))],
                    result_types=[SHARED_POINTER],
                )
            )

    def _first(self, slot: int, thread: SSAValue) -> SSAValue:
        """The first element of ``thread``'s part of ``slot``: ``(slot T + thread) V``."""
        b = self.b
        at = b.op(arith.AddiOp(b.const(slot * self.block), thread))
        return b.op(arith.MuliOp(at, b.const(self.per_thread)))

    def issue(
        self,
        slot: int,
        *,
        masked: bool = True,
        cache_global: bool | None = None,
        skew: int = 0,
        bytes_read: int | None = None,
        from_slot: int | None = None,
    ) -> None:
        """This thread's copy into ``slot`` (``masked``: with ``cpSize``, 0 past ``n``, or
        ``bytes_read`` everywhere; ``skew`` elements added to the shared address; ``from_slot``:
        the source elements of that slot instead)."""
        b = self.b
        with b.at(82):
            first = self._first(slot, self.tid)
            origin = first if from_slot is None else self._first(from_slot, self.tid)
            source = b.gep(b["src"], b.op(arith.AddiOp(b["start"], origin)), self.element)
            at = b.op(arith.AddiOp(first, b.const(skew)))
            dst = b.op(
                llvm.GEPOp(self.base, [llvm.GEP_USE_SSA_VAL], self.element, [at], SHARED_POINTER)
            )
            count = None
            if bytes_read is not None:
                count = b.const(bytes_read)
            elif masked:
                inside = b.op(arith.CmpiOp(first, b["n"], "slt"))
                count = b.op(arith.SelectOp(inside, b.const(self.size), b.const(0)), "bytes")
            cg = self.size == 16 if cache_global is None else cache_global
            b.op(CpAsyncOp(dst, source, self.size, cg, count))

    def commit(self) -> None:
        with self.b.at(83):
            self.b.op(CpAsyncCommitGroupOp())

    def wait(self, n: int) -> None:
        with self.b.at(84):
            self.b.op(CpAsyncWaitGroupOp(n))

    def barrier(self) -> None:
        with self.b.at(85):
            self.b.op(gpu.BarrierOp())

    def read(self, slot: int) -> None:
        """``out[(slot T + t) V + e] = staged[(slot T + T - 1 - t) V + e]``."""
        b = self.b
        with b.at(86):
            mirror = b.op(arith.SubiOp(b.const(self.block - 1), self.tid))
            source, target = self._first(slot, mirror), self._first(slot, self.tid)
            for e in range(self.per_thread):
                at = b.op(arith.AddiOp(source, b.const(e)))
                value = b.op(
                    memref.LoadOp.get(self.smem, [b.op(arith.IndexCastOp(at, IndexType()))])
                )
                b.store(
                    value, b.gep(b["out"], b.op(arith.AddiOp(target, b.const(e))), self.element)
                )

    def build(self) -> ModuleOp:
        with self.b.at(87):
            self.b.op(gpu.ReturnOp([]))
        return self.b.build()


def cp_async_module(
    element: str = "f16",
    size: int = 16,
    *,
    stages: int = 2,
    cache_global: bool | None = None,
    masked: bool = True,
    block: int = 32,
) -> ModuleOp:
    """The pipelined kernel of the module doc: every slot issued and committed, then each waited
    for (``wait.group stages - 1 - s``), synchronized and read."""
    k = CpAsyncKernel(element, size, slots=stages, block=block)
    for s in range(stages):
        k.issue(s, masked=masked, cache_global=cache_global)
        k.commit()
    for s in range(stages):
        k.wait(stages - 1 - s)
        k.barrier()
        k.read(s)
    return k.build()


def cp_async_inputs(element: str, total: int, rng: np.random.Generator) -> np.ndarray:
    """``total`` random elements (any bits for i8; finite values for floats)."""
    dtype = dtype_of(ELEMENTS[element])
    if dtype.kind in "iu":
        return rng.integers(-128, 128, total).astype(dtype)
    return rng.standard_normal(total).astype(np.float32).astype(dtype)


def cp_async_reference(
    src: np.ndarray, n: int, start: int, size: int, *, stages: int = 2, block: int = 32
) -> np.ndarray:
    """``out`` of ``cp_async_module``: thread ``t``'s elements of slot ``s`` are those thread
    ``T - 1 - t`` copied, zeros where that thread's ``(sT + T - 1 - t)V >= n``."""
    per = size // src.dtype.itemsize
    staged = np.zeros((stages, block, per), src.dtype)
    for s in range(stages):
        for t in range(block):
            first = (s * block + t) * per
            if first < n:
                staged[s, t] = src[start + first : start + first + per]
    return np.ascontiguousarray(staged[:, ::-1]).reshape(-1)
