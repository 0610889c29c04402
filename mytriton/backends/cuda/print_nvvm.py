"""``nvvm.mma.sync`` as the PTX ``mma.sync.aligned`` instruction in an ``asm`` statement (not
``volatile``: the op is pure, so nvcc may schedule and common it like any other value).

The op's ``!llvm.struct<(f32, f32, f32, f32)>`` result is four ``float`` outputs, each its own
C++ variable, which ``llvm.extractvalue``'s printer (``print_atomic``) names, as it does an
inline asm's. Operand registers are 32-bit ``"r"`` words: an ``i32`` (two bf16, or tf32 bits)
as ``unsigned``, a ``vector<2xf16>`` (a packed ``uint1`` here, ``c_types``) as its word
``.x``, whose low half is element 0, the lower k index, as the PTX fragment wants it.

``nvvm.ldmatrix`` is ``ldmatrix.sync.aligned.m8n8.x4[.trans].shared.b16`` on the ``unsigned``
shared address (``print_memory``), in an ``asm volatile`` with a ``memory`` clobber: it reads
shared memory, so it must stay between the barriers around it. An ``llvm.bitcast`` of an
``i32`` register to ``vector<2xf16>`` is ``make_uint1``.

The ``cp.async`` ops are the PTX instructions of the same names, each an ``asm volatile`` with a
``memory`` clobber (they write shared memory behind the compiler's back, so no shared access may
move across them): ``cp.async.cg.shared.global [%0], [%1], 16, %2;`` on the ``unsigned`` shared
address (``"r"``), the global ``T*`` (``"l"``) and, when given, the ``cpSize`` bytes read
(``"r"``); ``cp.async.commit_group;`` and ``cp.async.wait_group N;``.

The special-register reads are Triton's ``mov``s: ``asm volatile("mov.u64 %0, %%globaltimer;"
: "=l"(t));`` (volatile: each read is its own, never merged or moved) and ``asm("mov.u32 %0,
%%smid;" : "=r"(s));`` (pure, as the op).
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float32Type, VectorType, i32
from xdsl.ir import Attribute, SSAValue

from mytriton.backends.cuda.c_types import int_width, packed_vector, vector_lanes
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.dialects.nvgpu.nvvm import (
    ACCUMULATORS,
    CpAsyncCommitGroupOp,
    CpAsyncOp,
    CpAsyncWaitGroupOp,
    LdMatrixOp,
    MmaSyncOp,
    WarpMmaOp,
)
from mytriton.dialects.nvgpu.ptx_mma import Fp8MmaSyncOp
from mytriton.dialects.nvgpu.sreg import ReadGlobaltimerOp, ReadSmidOp
from mytriton.errors import BackendError


class NvvmPrinter(Emitter):
    """Tensor-core multiply-accumulates, their fragment loads, asynchronous copies."""

    def _register(self, value: SSAValue) -> str:
        """A 32-bit multiplicand register as an ``unsigned`` expression for an ``"r"`` operand."""
        t = value.type
        if isinstance(t, VectorType):
            packed = packed_vector(t)
            if packed is None or packed.container != "uint1":
                raise BackendError(f"an mma register must be 32 bits, not {t}")
            return f"{self._n(value)}.x"
        if int_width(t) != 32:
            raise BackendError(f"an mma register must be an i32 or a vector<2xf16>, not {t}")
        return self._unsigned(value)

    @prints(MmaSyncOp, Fp8MmaSyncOp, vectors=True)
    def _print_mma_sync(self, op: WarpMmaOp) -> None:
        integer = op.form.integer  # s32 accumulators: int variables, "r" registers
        for c in op.c_operands:
            if not isinstance(c.type, Float32Type) and not (integer and int_width(c.type) == 32):
                raise BackendError(f"an mma accumulator must be an f32 or i32, not {c.type}")
        outs = [self.names.fresh(op.res.name_hint or "mma") for _ in range(ACCUMULATORS)]
        self._stmt(op, f"{'int' if integer else 'float'} {', '.join(outs)};")
        groups = [ACCUMULATORS, len(op.a_operands), len(op.b_operands), len(op.c_operands)]
        operands, n = [], 0
        for count in groups:  # {%0,%1,%2,%3}, {%4,...}: D, A, B, C in that order
            operands.append("{" + ",".join(f"%{n + i}" for i in range(count)) + "}")
            n += count
        registers = [*op.a_operands, *op.b_operands]
        ins = [f'"r"({self._register(v)})' for v in registers]
        letter = "r" if integer else "f"
        ins += [f'"{letter}"({self._n(v)})' for v in op.c_operands]
        results = ", ".join(f'"={letter}"({o})' for o in outs)
        text = f"{op.instruction} {', '.join(operands)};"
        self._stmt(op, f'asm("{text}" : {results} : {", ".join(ins)});')
        self._set_fields(op.res, outs)

    @prints(ReadGlobaltimerOp)
    def _print_globaltimer(self, op: ReadGlobaltimerOp) -> None:
        name = self.names.define(op.res)
        self._stmt(op, f"long long {name};")
        self._stmt(op, f'asm volatile("mov.u64 %0, %%globaltimer;" : "=l"({name}));')

    @prints(ReadSmidOp)
    def _print_smid(self, op: ReadSmidOp) -> None:
        name = self.names.define(op.res)
        self._stmt(op, f"int {name};")
        self._stmt(op, f'asm("mov.u32 %0, %%smid;" : "=r"({name}));')

    @prints(LdMatrixOp)
    def _print_ldmatrix(self, op: LdMatrixOp) -> None:
        n = op.count
        outs = [self.names.fresh(op.res.name_hint or "frag") for _ in range(n)]
        self._stmt(op, f"unsigned {', '.join(outs)};")
        trans = ".trans" if op.transposed else ""
        regs = "{" + ",".join(f"%{i}" for i in range(n)) + "}"
        text = f"ldmatrix.sync.aligned.m8n8.x{n}{trans}.shared.b16 {regs}, [%{n}];"
        results = ", ".join(f'"=r"({o})' for o in outs)
        address = f'"r"({self._n(op.ptr)})'
        self._stmt(op, f'asm volatile("{text}" : {results} : {address} : "memory");')
        if n == 1:
            self.names.bind(op.res, outs[0])
            return
        self._set_fields(op.res, outs)

    @prints(CpAsyncOp)
    def _print_cp_async(self, op: CpAsyncOp) -> None:
        cache = "cg" if op.cache_global else "ca"
        operands = [f'"r"({self._n(op.dst)})', f'"l"({self._n(op.src)})']
        read = ""
        if op.cpSize is not None:
            operands.append(f'"r"({self._n(op.cpSize)})')
            read = ", %2"
        text = f"cp.async.{cache}.shared.global [%0], [%1], {op.bytes}{read};"
        self._stmt(op, f'asm volatile("{text}" :: {", ".join(operands)} : "memory");')

    @prints(CpAsyncCommitGroupOp)
    def _print_cp_async_commit(self, op: CpAsyncCommitGroupOp) -> None:
        self._stmt(op, 'asm volatile("cp.async.commit_group;" ::: "memory");')

    @prints(CpAsyncWaitGroupOp)
    def _print_cp_async_wait(self, op: CpAsyncWaitGroupOp) -> None:
        self._stmt(op, f'asm volatile("cp.async.wait_group {op.pending};" ::: "memory");')

    @prints(llvm.BitcastOp, vectors=True)
    def _print_bitcast(self, op: llvm.BitcastOp) -> None:
        """An i32 register as the pair of 16-bit floats it packs (``uint1``), or back."""
        source, result = op.operands[0], op.results[0]
        if source.type == i32 and _packed_pair(result.type):
            self._define(result, f"make_uint1({self._unsigned(source)})", op)
            return
        if result.type == i32 and _packed_pair(source.type):
            self._define(result, f"(int){self._n(source)}.x", op)
            return
        raise BackendError(
            "only i32 <-> vector<2xf16> (or vector<2xbf16>) bitcasts are supported, not "
            f"{source.type} -> {result.type}"
        )


def _packed_pair(t: Attribute) -> bool:
    """A vector of two 16-bit elements: one ``uint1`` word."""
    if not isinstance(t, VectorType):
        return False
    packed = packed_vector(t)
    return packed is not None and packed.container == "uint1" and vector_lanes(t) == 2
