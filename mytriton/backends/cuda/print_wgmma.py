"""Hopper's warpgroup MMAs as the PTX ``wgmma`` instructions in ``asm volatile`` statements (an
H200 ran these with nvcc; ``ptx.wgmma.mma_async``, A in registers, as its ``"r"`` operands),
and the ``llvm.mlir.undef``/``llvm.insertvalue`` ops that build their accumulator structs. The
kernel must be compiled for ``sm_90a`` (``compile.py``).

A struct value is a list of C++ variables, one per field (``Emitter._struct_fields``;
``llvm.extractvalue``'s printer in ``print_atomic`` names them, ``print_scf`` carries them
through loops): ``llvm.mlir.undef`` declares one zero per field type (any value is a valid undef),
``llvm.insertvalue`` replaces one entry by the inserted value's variable.

``nvvm.wgmma.mma_async`` updates its accumulator fields in place (``"+f"``, ``"+r"`` for s32):
they are fresh variables initialised from the operand struct's fields, or the operand's own
when it is the result of an earlier ``wgmma`` used by nothing else (a chain of K steps stays in
the same registers, as the hardware pipelines it). The descriptors are ``"l"`` operands, and
``scaleD`` a predicate set from an ``"r"`` operand::

    asm volatile("{\\n.reg .pred p;\\nsetp.ne.b32 p, %34, 0;\\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, ..., %31}, %32, %33, "
                 "p, 1, 1, 0, 1;\\n}\\n" : "+f"(d0), ... : "l"(descA), "l"(descB), "r"(1));

f16/bf16 end with ``imm-scale-a, imm-scale-b`` (1, 1) and ``imm-trans-a, imm-trans-b`` (0, and
1 for an MN-major B); tf32 with the scales only; s8 with neither. The fence, commit and wait ops
are ``wgmma.fence.sync.aligned;``, ``wgmma.commit_group.sync.aligned;`` and
``wgmma.wait_group.sync.aligned N;``, ``nvvm.fence.proxy`` is
``fence.proxy.async.shared::cta;``: each an ``asm volatile`` with a ``memory`` clobber, so no
shared access moves across them.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from mytriton.backends.cuda.c_types import scalar_type
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.ptx_wgmma import WgmmaRegisterAOp, register_a_ptx
from mytriton.dialects.nvgpu.wgmma import (
    FenceProxyOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaFenceAlignedOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupSyncAlignedOp,
)
from mytriton.errors import BackendError


def _block_of(value: SSAValue) -> Block | None:
    return value.owner if isinstance(value, BlockArgument) else value.owner.parent_block()


def wgmma_asm_text(op: WgmmaMmaAsyncOp) -> str:
    """The PTX of one ``wgmma`` (a C string's contents, ``\\n`` escaped): the accumulator
    registers ``%0`` to ``%(n/2 - 1)``, the descriptors next, then the ``scaleD`` operand."""
    form, n = op.form, op.n
    count = n // 2
    registers = "{" + ", ".join(f"%{i}" for i in range(count)) + "}"
    tail = ["p"]
    if form.operand in ("f16", "bf16"):
        tail += ["1", "1", "0", "1" if op.b_mn_major else "0"]
    elif not form.integer:  # tf32, e4m3, e5m2: the scales of A and B, no transposes
        tail += ["1", "1"]
    operands = f"{registers}, %{count}, %{count + 1}, {', '.join(tail)}"
    instruction = f"{form.ptx(n, op.b_type)} {operands};"
    return f"{{\\n.reg .pred p;\\nsetp.ne.b32 p, %{count + 2}, 0;\\n{instruction}\\n}}\\n"


class WgmmaPrinter(Emitter):
    """Warpgroup MMAs, their fences, and the structs of their accumulators."""

    #: the structs whose variables a wgmma declared (its result): a later wgmma may reuse them
    _wgmma_results: set[SSAValue]

    @prints(WgmmaMmaAsyncOp)
    def _print_wgmma(self, op: WgmmaMmaAsyncOp) -> None:
        scale = 1 if op.adds_accumulator else 0
        operands = f'"l"({self._n(op.descriptorA)}), "l"({self._n(op.descriptorB)}), "r"({scale})'
        self._print_mma_async(op, op.inouts, op.res, op.form.integer, wgmma_asm_text(op), operands)

    @prints(WgmmaRegisterAOp)
    def _print_wgmma_register_a(self, op: WgmmaRegisterAOp) -> None:
        """A in registers: four ``"r"`` operands after the accumulators."""
        a = ", ".join(f'"r"({self._unsigned_word(v)})' for v in op.a)
        operands = f'{a}, "l"({self._n(op.descriptorB)}), "r"({1 if op.adds_accumulator else 0})'
        text = register_a_ptx(op).replace("\n", "\\n")
        self._print_mma_async(op, op.inouts, op.res, False, text, operands)

    def _unsigned_word(self, value: SSAValue) -> str:
        return f"(unsigned){self._n(value)}"

    def _print_mma_async(
        self,
        op: Operation,
        acc: SSAValue,
        res: SSAValue,
        integer: bool,
        text: str,
        operands: str,
    ) -> None:
        """One ``asm volatile`` updating the accumulator fields (``"+f"``/``"+r"``): in place
        where ``acc`` is an earlier wgmma's result (or the loop's variables carrying one) used
        by nothing else in its block, else in fresh copies of its fields."""
        inputs = self._fields_of(acc)
        owned: set[SSAValue] = getattr(self, "_wgmma_results", set())
        chained = isinstance(acc, OpResult) and acc in owned
        carried = isinstance(acc, BlockArgument) and isinstance(acc.owner.parent_op(), scf.ForOp)
        if (chained or carried) and acc.has_one_use() and _block_of(acc) is op.parent_block():
            outs = inputs
        elif (loop_fields := self._yielded_fields(res)) is not None:
            outs = loop_fields  # in flight across the loop's back edge: in its variables
            for o, i in zip(outs, inputs, strict=True):
                if o != i:
                    self._stmt(op, f"{o} = {i};")
        else:
            ctype = "int" if integer else "float"
            outs = [self.names.fresh(res.name_hint or "acc") for _ in inputs]
            init = ", ".join(f"{o} = {i}" for o, i in zip(outs, inputs, strict=True))
            self._stmt(op, f"{ctype} {init};")
        letter = "r" if integer else "f"
        results = ", ".join(f'"+{letter}"({o})' for o in outs)
        self._stmt(op, f'asm volatile("{text}" : {results} : {operands});')
        self._set_fields(res, outs)
        if not hasattr(self, "_wgmma_results"):
            self._wgmma_results = set()
        self._wgmma_results.add(res)
        pending = self._in_flight()
        pending.update((o, letter) for o in outs)

    def _yielded_fields(self, res: SSAValue) -> list[str] | None:
        """The variables of the ``scf.for`` whose body yields ``res`` (directly, or as the
        accumulator of later wgmmas chained onto it, each its only use) as what it carries:
        a wgmma left in flight across the back edge must write those variables themselves
        (C++ cannot copy registers the tensor cores still write)."""
        value = res
        while value.has_one_use():
            use = next(iter(value.uses))
            user = use.operation
            if isinstance(user, WgmmaMmaAsyncOp | WgmmaRegisterAOp) and use.index == 0:
                value = user.res
                continue
            loop = user.parent_op()
            if isinstance(user, scf.YieldOp) and isinstance(loop, scf.ForOp):
                if user.parent_block() is not res.owner.parent_block():  # type: ignore[union-attr]
                    return None
                return list(self._fields_of(loop.body.block.args[1 + use.index]))
            return None
        return None

    def _carried_in_flight(self, fields: Sequence[str], integer: bool) -> None:
        """At the top of a loop's body the struct it carries may still be written by the
        previous iteration's wgmmas: the first wait names its variables too."""
        self._in_flight().update((f, "r" if integer else "f") for f in fields)

    def _exit_wait(self, loop: Operation) -> Operation | None:
        """A wait for every group right after a loop carrying a struct (accumulators the last
        iteration's wgmmas may still write)."""
        wait = loop.next_op
        if not isinstance(wait, WgmmaWaitGroupSyncAlignedOp) or wait.pending != 0:
            return None
        if not any(isinstance(r.type, llvm.LLVMStructType) for r in loop.results):
            return None
        return wait

    def _in_flight_state(self) -> dict[str, str]:
        return dict(self._in_flight())

    def _set_in_flight(self, state: dict[str, str]) -> None:
        pending = self._in_flight()
        pending.clear()
        pending.update(state)

    def _in_flight(self) -> dict[str, str]:
        """The variables wgmmas printed since the last wait write (and their constraint
        letter), in order."""
        if not hasattr(self, "_wgmma_in_flight"):
            self._wgmma_in_flight: dict[str, str] = {}
        return self._wgmma_in_flight

    @prints(WgmmaFenceAlignedOp)
    def _print_wgmma_fence(self, op: WgmmaFenceAlignedOp) -> None:
        self._stmt(op, 'asm volatile("wgmma.fence.sync.aligned;" ::: "memory");')

    @prints(WgmmaCommitGroupSyncAlignedOp)
    def _print_wgmma_commit(self, op: WgmmaCommitGroupSyncAlignedOp) -> None:
        self._stmt(op, 'asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");')

    @prints(WgmmaWaitGroupSyncAlignedOp)
    def _print_wgmma_wait(self, op: WgmmaWaitGroupSyncAlignedOp) -> None:
        """The wait names the accumulators of the wgmmas before it as read and written, so the
        C++ compiler neither reads them earlier nor moves them across it (the registers are
        the tensor cores' until the wait)."""
        pending = self._in_flight()
        text = f"wgmma.wait_group.sync.aligned {op.pending};"
        if not pending:
            self._stmt(op, f'asm volatile("{text}" ::: "memory");')
            return
        registers = ", ".join(f'"+{letter}"({v})' for v, letter in pending.items())
        self._stmt(op, f'asm volatile("{text}" : {registers} :: "memory");')
        if op.pending == 0:  # else the newest groups' registers stay in flight
            pending.clear()

    @prints(FenceProxyOp)
    def _print_fence_proxy(self, op: FenceProxyOp) -> None:
        self._stmt(op, 'asm volatile("fence.proxy.async.shared::cta;" ::: "memory");')

    @prints(llvm.UndefOp)
    def _print_undef(self, op: llvm.UndefOp) -> None:
        t = op.res.type
        if not isinstance(t, llvm.LLVMStructType):
            self._define(op.res, "0", op)  # any value will do: zero
            return
        zeros: dict[str, str] = {}  # one zero variable per C++ field type
        fields = []
        for field in t.types.data:
            ctype = self._scalar_type(op, field)
            if ctype not in zeros:
                zeros[ctype] = self.names.fresh(op.res.name_hint or "undef")
                self._stmt(op, f"{ctype} {zeros[ctype]} = 0;")
            fields.append(zeros[ctype])
        self._set_fields(op.res, fields)

    @prints(llvm.InsertValueOp)
    def _print_insertvalue(self, op: llvm.InsertValueOp) -> None:
        position = list(op.position.iter_values())
        fields = list(self._fields_of(op.container))
        if len(position) != 1 or not 0 <= position[0] < len(fields):
            raise BackendError(f"position {position} is not a field of {op.container.type}")
        t = op.container.type
        assert isinstance(t, llvm.LLVMStructType)
        if scalar_type(t.types.data[position[0]]) != scalar_type(op.value.type):
            raise BackendError(f"a {op.value.type} is not field {position[0]} of {t}")
        fields[position[0]] = self._n(op.value)
        self._set_fields(op.res, fields)
