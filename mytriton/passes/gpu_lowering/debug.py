"""Lowering of the debugging ops and inline assembly.

``tt.print``: one ``gpu.printf`` per element a thread owns, in Triton's line format
(``dialects/tt_print_format``); an element several threads replicate (and a scalar) is printed
by its owner only, so every element of a program is printed exactly once. ``tt.assert``: a
thread holding a false element prints the assertion (file:line, program, thread, message)
and executes ``llvm.intr.trap``, which fails the launch. ``tt.assume`` becomes
``llvm.intr.assume``; ``gpu.barrier`` stays. ``tt.elementwise_inline_asm``: one
``llvm.inline_asm`` per ``pack`` registers, operands of less than 32 bits packed into 32-bit
registers as Triton does.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, gpu, llvm, scf
from xdsl.dialects.builtin import DenseArrayBase, Float64Type, IntegerType, f32, f64, i1, i32, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.nvgpu.upstream import AssumeOp, PrintfOp, TrapOp
from mytriton.dialects.tt import debug as tt_debug
from mytriton.dialects.tt.print_format import line_format, message_format
from mytriton.dialects.tt.types import (
    PointerType,
    byte_size,
    element_type,
    is_block,
    is_bool,
    is_float,
    is_unsigned,
    shape_of,
)
from mytriton.dialects.ttg.layouts import WARP_SIZE
from mytriton.dialects.verify import source_location
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.context import LoweringContext
from mytriton.passes.gpu_lowering.rules import lowers

_DIMS = (gpu.DimensionEnum.X, gpu.DimensionEnum.Y, gpu.DimensionEnum.Z)


def program_ids(ctx: LoweringContext) -> list[SSAValue]:
    """The program id along x, y and z (i32, computed once at the kernel entry)."""
    out = []
    for d in _DIMS:
        key = ("program_id", d)
        if key not in ctx._derived:
            block_id = ctx._prologue(gpu.BlockIdOp(gpu.DimensionAttr(d)))
            ctx._derived[key] = ctx._prologue(arith.IndexCastOp(block_id, i32))
        out.append(ctx._derived[key])
    return out


def guarded(ctx: LoweringContext, condition: SSAValue | None, body: Block) -> None:
    """Emit ``body``'s ops under ``scf.if condition`` (directly when None)."""
    if condition is None:
        for op in list(body.ops):
            op.detach()
            ctx.emit(op)
        return
    with ctx.inside(body):
        ctx.emit(scf.YieldOp())
    ctx.emit(scf.IfOp(condition, [], [body]))


def _bits(t: Attribute) -> int:
    if isinstance(t, PointerType):
        return 64
    return 1 if is_bool(t) else byte_size(t) * 8


def _printf_argument(ctx: LoweringContext, v: SSAValue, elem: Attribute, hex: bool) -> SSAValue:
    """A register as ``printf`` takes it: floats as double (hex: their bits), integers of less
    than 32 bits widened (sign-extended when signed and printed in decimal)."""
    bits = _bits(elem)
    if is_float(elem):
        if not hex:
            return v if isinstance(elem, Float64Type) else ctx.value(arith.ExtFOp(v, f64))
        v = ctx.value(arith.BitcastOp(v, IntegerType(bits)))
    if bits >= 32:
        return v
    if hex or is_bool(elem) or is_unsigned(elem) or is_float(elem):
        return ctx.value(arith.ExtUIOp(v, i32))
    return ctx.value(arith.ExtSIOp(v, i32))


@lowers(tt_debug.PrintOp)
class LowerPrint:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_debug.PrintOp)
        prefix, as_hex = op.prefix.data, op.hex is not None
        pids = program_ids(ctx)
        everyone_but_0 = ctx.num_warps * WARP_SIZE - 1
        if not op.args:
            body = Block()
            with ctx.inside(body):
                ctx.emit(PrintfOp(message_format(prefix) + "\n", pids))
            guarded(ctx, ctx.is_owner(everyone_but_0), body)
            return
        for n, v in enumerate(op.args):
            elem = element_type(v.type)
            fmt = line_format(prefix, shape_of(v.type), elem, as_hex, n, len(op.args)) + "\n"
            body = Block()
            if is_block(v.type):
                g = ctx.geometry(v.type)
                owner = ctx.is_owner(g.replica_bits)
                regs = ctx.get(v)
                coords = [[ctx.coordinate(g, d, reg[d]) for d in g.kept] for reg in g.registers]
            else:
                owner = ctx.is_owner(everyone_but_0)
                regs, coords = [ctx.scalar(v)], [[]]
            with ctx.inside(body):
                for reg, index in zip(regs, coords, strict=True):
                    value = _printf_argument(ctx, reg, elem, as_hex)
                    ctx.emit(PrintfOp(fmt, [*pids, *index, value]))
            guarded(ctx, owner, body)


@lowers(tt_debug.AssertOp)
class LowerAssert:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_debug.AssertOp)
        regs = ctx.get(op.condition)
        ok = regs[0]
        for r in regs[1:]:
            ok = ctx.value(arith.AndIOp(ok, r))
        failed = ctx.value(arith.XOrIOp(ok, ctx.const(1, i1)))
        loc = source_location(op)
        where = f"{loc.file}:{loc.line}: " if loc is not None else ""
        message = op.message.data.replace("%", "%%")
        fmt = (
            f"{where.replace('%', '%%')}block: [%u, %u, %u], thread: [%u, 0, 0] "
            f"Assertion `{message}` failed.\n"
        )
        body = Block()
        with ctx.inside(body):
            pids = program_ids(ctx)
            ctx.emit(PrintfOp(fmt, [*pids, ctx.thread_id]))
            ctx.emit(TrapOp())
        guarded(ctx, failed, body)


@lowers(tt_debug.AssumeOp)
class LowerAssume:
    """``llvm.intr.assume`` per register, as Triton hands the assumption to LLVM."""

    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_debug.AssumeOp)
        for reg in dict.fromkeys(ctx.get(op.condition)):  # each distinct register once
            ctx.emit(AssumeOp(reg))


@lowers(gpu.BarrierOp)
class LowerBarrier:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        ctx.emit(gpu.BarrierOp())


# ---- inline assembly ----------------------------------------------------------------------

#: the register type of each LLVM/PTX constraint letter
_CONSTRAINT_TYPES: dict[str, Attribute] = {
    "h": IntegerType(16),
    "r": IntegerType(32),
    "l": IntegerType(64),
    "f": f32,
    "d": f64,
}


def _constraint_type(code: str) -> Attribute:
    t = _CONSTRAINT_TYPES.get(code.lstrip("=&"))
    if t is None:
        raise BackendError(f"inline asm constraint {code!r} is not supported (use r, l, h, f or d)")
    return t


def _per_register(elem: Attribute, pack: int) -> int:
    """How many elements one asm operand carries: elements under 32 bits share a 32-bit
    register when packing (Triton's rule)."""
    bits = _bits(elem)
    return min(pack, 32 // bits) if bits < 32 and pack > 1 else 1


def _to_register(
    ctx: LoweringContext, values: Sequence[SSAValue], elem: Attribute, t: Attribute
) -> SSAValue:
    """``values`` (one, or up to 32 bits' worth packed low element first) as one asm operand
    of the constraint's type ``t``."""
    bits, width = _bits(elem), _bits_of_register(t)
    if isinstance(elem, PointerType):  # an address: passed as is ("l", as Triton's tests do)
        if width != 64 or len(values) != 1:
            raise BackendError("tl.inline_asm_elementwise: a pointer operand needs an 'l' register")
        return values[0]
    if bits * len(values) > width:
        raise BackendError(
            f"tl.inline_asm_elementwise: {len(values)} x {bits}-bit elements do not fit a "
            f"{width}-bit register"
        )
    if len(values) == 1 and bits == width:
        v = values[0]
        return v if is_float(elem) == is_float(t) else ctx.value(arith.BitcastOp(v, t))
    acc: SSAValue | None = None
    for k, v in enumerate(values):
        if is_float(elem):
            v = ctx.value(arith.BitcastOp(v, IntegerType(bits)))
        if bits < width:
            v = ctx.value(arith.ExtUIOp(v, IntegerType(width)))
        if k:
            v = ctx.value(arith.ShLIOp(v, ctx.const(k * bits, IntegerType(width))))
        acc = v if acc is None else ctx.value(arith.OrIOp(acc, v))
    assert acc is not None
    return ctx.value(arith.BitcastOp(acc, t)) if is_float(t) else acc


def _from_register(
    ctx: LoweringContext, reg: SSAValue, elem: Attribute, count: int
) -> list[SSAValue]:
    """The ``count`` elements an asm output register carries (low element first)."""
    bits, width = _bits(elem), _bits_of_register(reg.type)
    if bits * count > width:
        raise BackendError(
            f"tl.inline_asm_elementwise: {count} x {bits}-bit results do not fit a "
            f"{width}-bit register"
        )
    if count == 1 and bits == width:
        same = is_float(elem) == is_float(reg.type)
        return [reg if same else ctx.value(arith.BitcastOp(reg, elem))]
    if is_float(reg.type):
        reg = ctx.value(arith.BitcastOp(reg, IntegerType(width)))
    out = []
    for k in range(count):
        v = reg
        if k:
            v = ctx.value(arith.ShRUIOp(v, ctx.const(k * bits, IntegerType(width))))
        if bits < width:
            v = ctx.value(arith.TruncIOp(v, IntegerType(bits)))
        if is_float(elem):
            v = ctx.value(arith.BitcastOp(v, elem))
        out.append(v)
    return out


def _bits_of_register(t: Attribute) -> int:
    return byte_size(t) * 8


@lowers(tt_debug.ElementwiseInlineAsmOp)
class LowerInlineAsm:
    def lower(self, ctx: LoweringContext, op: Operation) -> None:
        assert isinstance(op, tt_debug.ElementwiseInlineAsmOp)
        pack = op.pack
        codes = [c.strip() for c in op.constraints.data.split(",") if c.strip()]
        clobbers = [c for c in codes if c.startswith("~")]
        codes = [c for c in codes if not c.startswith("~")]
        outputs = [c for c in codes if c.startswith("=")]
        inputs = [c for c in codes if not c.startswith("=")]
        args = [ctx.get(a) for a in op.args]
        count = max((len(a) for a in args), default=1)
        args = [a if len(a) == count else a * count for a in args]
        out_elems = [element_type(r.type) for r in op.results]
        in_elems = [element_type(a.type) for a in op.args]
        padded = -(-count // pack) * pack  # as Triton: fill the last pack with zeros
        if padded > count:
            args = [
                a + [a[0] if isinstance(e, PointerType) else ctx.const(0, e)] * (padded - count)  # type: ignore[arg-type]
                for a, e in zip(args, in_elems, strict=True)
            ]
        out_regs = [pack // _per_register(e, pack) for e in out_elems]
        in_regs = [pack // _per_register(e, pack) for e in in_elems]
        if len(outputs) != sum(out_regs) or len(inputs) != sum(in_regs):
            raise BackendError(
                f"tl.inline_asm_elementwise: the constraints name {len(outputs)} output and "
                f"{len(inputs)} input registers; with pack={pack} the asm needs "
                f"{sum(out_regs)} and {sum(in_regs)}"
            )
        out_types = [_constraint_type(c) for c in outputs]
        in_types = [_constraint_type(c) for c in inputs]
        results: list[list[SSAValue]] = [[] for _ in op.results]
        for start in range(0, padded, pack):
            operands: list[SSAValue] = []
            k = 0
            for values, elem, n in zip(args, in_elems, in_regs, strict=True):
                per = pack // n
                for j in range(n):
                    chunk = values[start + j * per : start + (j + 1) * per]
                    operands.append(_to_register(ctx, chunk, elem, in_types[k]))
                    k += 1
            struct = len(out_types) > 1
            result_type = llvm.LLVMStructType.from_type_list(out_types) if struct else out_types[0]
            asm = llvm.InlineAsmOp(
                op.asm_string.data,
                ",".join([*outputs, *inputs, *clobbers]),
                operands,
                [result_type],
                has_side_effects=op.pure is None,
            )
            value = ctx.value(asm)
            regs = (
                [
                    ctx.value(llvm.ExtractValueOp(_position(i), value, t))
                    for i, t in enumerate(out_types)
                ]
                if struct
                else [value]
            )
            k = 0
            for i, (elem, n) in enumerate(zip(out_elems, out_regs, strict=True)):
                per = pack // n
                for _ in range(n):
                    results[i] += _from_register(ctx, regs[k], elem, per)
                    k += 1
        for result, values in zip(op.results, results, strict=True):
            ctx.set(result, values[:count])


def _position(i: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [i])
