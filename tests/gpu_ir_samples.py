"""Hand-built lowered-IR modules (``docs/gpu-ir.md``) for testing the GPU emitters on their own.

Each sample is what ``lower_to_gpu`` could produce for a small kernel: a ``gpu.module`` with one
``gpu.func`` over scalar upstream ops (and the ``vector<N x T>`` values of vectorized global
accesses). ``KernelBuilder`` keeps the construction short; the samples cover every op of the
contract, and ``OP_CASES`` pairs each op with a NumPy reference so GPU tests can check the
printed C++ computes what the op means.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, gpu, llvm, math, memref, scf, vector
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    VectorType,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mytriton.dialects.nvgpu.nvvm_intrinsics import (
    DIV_FULL,
    EX2_APPROX,
    EX2_APPROX_FTZ,
    RSQRT_APPROX_FTZ,
    SQRT_APPROX_FTZ,
    SQRT_RN,
    flush_subnormals,
)
from mytriton.dialects.nvgpu.upstream import RemFOp, ShuffleMode, ShuffleOp

PTR = llvm.LLVMPointerType(IntAttr(1))
index = IndexType()
SAMPLE_FILE = "/samples/kernels.py"


@dataclass(frozen=True)
class Ptr:
    """A pointer parameter to elements of ``element``."""

    element: Attribute


class KernelBuilder:
    """Appends located ops to a kernel body; ``line`` is the Python line they come from."""

    def __init__(
        self,
        name: str,
        params: Sequence[tuple[str, Attribute | Ptr]],
        *,
        block: int = 128,
        file: str = SAMPLE_FILE,
        def_line: int = 1,
    ):
        self.name, self.file, self.block_size = name, file, block
        types = [PTR if isinstance(t, Ptr) else t for _, t in params]
        self.body = Block(arg_types=types)
        self.args: dict[str, SSAValue] = {}
        for (pname, _), arg in zip(params, self.body.args, strict=True):
            arg.name_hint = pname
            self.args[pname] = arg
        self.pointees = [t.element for _, t in params if isinstance(t, Ptr)]
        self.globals: list[Operation] = []
        self.line = def_line
        self.def_line = def_line
        self._block = self.body

    def __getitem__(self, name: str) -> SSAValue:
        return self.args[name]

    def op(self, op: Operation, hint: str | None = None) -> Any:
        """Insert ``op``; returns its only result (or the op when it has none or several)."""
        op.location = FileLineColLoc(StringAttr(self.file), IntAttr(self.line), IntAttr(1))
        self._block.add_op(op)
        if hint is not None:
            op.results[0].name_hint = hint
        return op.results[0] if len(op.results) == 1 else op

    @contextmanager
    def inside(self, block: Block) -> Iterator[None]:
        saved, self._block = self._block, block
        try:
            yield
        finally:
            self._block = saved

    @contextmanager
    def at(self, line: int) -> Iterator[None]:
        saved, self.line = self.line, line
        try:
            yield
        finally:
            self.line = saved

    # ---- shorthands ----

    def const(self, value: float | int | bool, t: Attribute = i32) -> SSAValue:
        if isinstance(t, IntegerType | IndexType):
            attr: Attribute = IntegerAttr(int(value), t)
        else:
            attr = FloatAttr(float(value), t)  # type: ignore[arg-type]
        return self.op(arith.ConstantOp(attr, t))

    def tid(self) -> SSAValue:
        t = self.op(gpu.ThreadIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))
        return self.op(arith.IndexCastOp(t, i32), "tid")

    def program_id(self, dim: str = "x") -> SSAValue:
        b = self.op(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum(dim))))
        return self.op(arith.IndexCastOp(b, i32), "pid")

    def gep(self, ptr: SSAValue, offset: SSAValue | int, element: Attribute = f32) -> SSAValue:
        if isinstance(offset, int):
            return self.op(llvm.GEPOp(ptr, [offset], element, result_type=PTR))
        return self.op(llvm.GEPOp(ptr, [llvm.GEP_USE_SSA_VAL], element, [offset], PTR))

    def load(self, ptr: SSAValue, t: Attribute = f32, alignment: int | None = None) -> SSAValue:
        return self.op(llvm.LoadOp(ptr, t, alignment))

    def store(self, value: SSAValue, ptr: SSAValue, alignment: int | None = None) -> None:
        self.op(llvm.StoreOp(value, ptr, alignment))

    def broadcast(self, scalar: SSAValue, lanes: int) -> SSAValue:
        """``vector.broadcast``: a ``vector<lanes x T>`` of copies of ``scalar``."""
        return self.op(vector.BroadcastOp(scalar, VectorType(scalar.type, [lanes])))

    def extract(self, v: SSAValue, position: int) -> SSAValue:
        assert isinstance(v.type, VectorType)
        return self.op(vector.ExtractOp(v, [position], v.type.element_type))

    def insert(self, scalar: SSAValue, v: SSAValue, position: int) -> SSAValue:
        return self.op(vector.InsertOp(scalar, v, [position]))

    def if_(
        self, cond: SSAValue, result_types: Sequence[Attribute] = ()
    ) -> tuple[Any, Block, Block]:
        """An ``scf.if``; without results it has no else region (its else block is unused)."""
        then, other = Block(), Block()
        else_region = Region(other) if result_types else Region()
        op = self.op(scf.IfOp(cond, result_types, Region(then), else_region))
        return op, then, other

    def yield_(self, *values: SSAValue) -> None:
        self.op(scf.YieldOp(*values))

    def masked_load(
        self,
        mask: SSAValue,
        ptr: SSAValue,
        other: SSAValue,
        hint: str,
        alignment: int | None = None,
    ) -> SSAValue:
        """``scf.if`` yielding the loaded value or ``other`` (of the loaded type: a vector
        ``other`` makes a vector load)."""
        res, then, els = self.if_(mask, [other.type])
        res.name_hint = hint
        with self.inside(then):
            self.yield_(self.load(ptr, other.type, alignment))
        with self.inside(els):
            self.yield_(other)
        return res

    def masked_store(
        self, mask: SSAValue, value: SSAValue, ptr: SSAValue, alignment: int | None = None
    ) -> None:
        _, then, _ = self.if_(mask)
        with self.inside(then):
            self.store(value, ptr, alignment)
            self.yield_()

    def for_(
        self, lb: SSAValue, ub: SSAValue, step: SSAValue, inits: Sequence[SSAValue]
    ) -> tuple[scf.ForOp, Block]:
        body = Block(arg_types=[lb.type, *(v.type for v in inits)])
        op = self.op(scf.ForOp(lb, ub, step, inits, Region(body)))
        if not isinstance(op, scf.ForOp):
            op = op.owner  # a single result was returned
        return op, body

    def shared(
        self,
        name: str,
        shape: Sequence[int],
        element: Attribute = f32,
        alignment: int | None = None,
    ) -> SSAValue:
        t = MemRefType(element, list(shape), memory_space=IntegerAttr(3, 64))
        glob = memref.GlobalOp.get(
            StringAttr(name),
            t,
            initial_value=UnitAttr(),
            sym_visibility=StringAttr("private"),
            alignment=alignment,
        )
        glob.location = FileLineColLoc(StringAttr(self.file), IntAttr(self.line), IntAttr(1))
        self.globals.append(glob)
        return self.op(memref.GetGlobalOp(name, t))

    def build(self) -> ModuleOp:
        func = gpu.FuncOp(self.name, (list(self.body.arg_types), []), Region(self.body))
        func.attributes["gpu.kernel"] = UnitAttr()
        func.attributes["known_block_size"] = DenseArrayBase.from_list(i32, [self.block_size, 1, 1])
        func.attributes["mytriton.pointee_types"] = ArrayAttr(self.pointees)
        func.location = FileLineColLoc(StringAttr(self.file), IntAttr(self.def_line), IntAttr(1))
        gmod = gpu.ModuleOp(StringAttr("kernels"), Region(Block([*self.globals, func])))
        module = ModuleOp([gmod])
        module.attributes["gpu.container_module"] = UnitAttr()
        module.verify()
        return module


# ---------------------------------------------------------------------------------------------
# Whole kernels


def add_2d_grid_module(block: int = 128) -> ModuleOp:
    """out[i] = x[i] + y[i] over a 2-D grid: program = pid_y * grid_x + pid_x."""
    b = KernelBuilder(
        "add_kernel",
        [("x", Ptr(f32)), ("y", Ptr(f32)), ("out", Ptr(f32)), ("n", i32)],
        block=block,
        def_line=10,
    )
    with b.at(11):
        pid_x = b.program_id("x")
        pid_y = b.program_id("y")
        gx = b.op(
            arith.IndexCastOp(b.op(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum.X))), i32)
        )
        program = b.op(arith.AddiOp(b.op(arith.MuliOp(pid_y, gx)), pid_x), "program")
    with b.at(12):
        offsets = b.op(
            arith.AddiOp(b.op(arith.MuliOp(program, b.const(block))), b.tid()), "offsets"
        )
    with b.at(13):
        mask = b.op(arith.CmpiOp(offsets, b["n"], "slt"), "mask")
    with b.at(14):
        zero = b.const(0.0, f32)
        xv = b.masked_load(mask, b.gep(b["x"], offsets), zero, "x_values")
    with b.at(15):
        yv = b.masked_load(mask, b.gep(b["y"], offsets), zero, "y_values")
    with b.at(16):
        b.masked_store(mask, b.op(arith.AddfOp(xv, yv)), b.gep(b["out"], offsets))
        b.op(gpu.ReturnOp([]))
    return b.build()


def row_sum_module(block: int = 128) -> ModuleOp:
    """out[row] = sum(x[row, :n]): a strided loop, warp shuffles, then shared memory."""
    warps = block // 32
    b = KernelBuilder(
        "row_sum",
        [("x", Ptr(f32)), ("out", Ptr(f32)), ("n", i32), ("stride", i32)],
        block=block,
        def_line=20,
    )
    with b.at(21):
        row = b.program_id()
        tid = b.tid()
        base = b.gep(b["x"], b.op(arith.MuliOp(row, b["stride"])))
    with b.at(22):
        loop, body = b.for_(b.const(0), b["n"], b.const(block), [b.const(0.0, f32)])
        loop.res[0].name_hint = "acc"
        with b.inside(body):
            k, acc = body.args
            k.name_hint = "k"
            with b.at(23):
                idx = b.op(arith.AddiOp(k, tid), "cols")
                mask = b.op(arith.CmpiOp(idx, b["n"], "slt"))
                v = b.masked_load(mask, b.gep(base, idx), b.const(0.0, f32), "v")
            with b.at(24):
                b.yield_(b.op(arith.AddfOp(acc, v)))
    with b.at(25):
        total = loop.res[0]
        width = b.const(32)
        for off in (16, 8, 4, 2, 1):
            other = b.op(ShuffleOp(total, b.const(off), width, ShuffleMode.XOR)).results[0]
            total = b.op(arith.AddfOp(total, other))
        lane = b.op(arith.AndIOp(tid, b.const(31)), "lane")
        warp = b.op(arith.ShRSIOp(tid, b.const(5)), "warp")
        smem = b.shared("smem_0", [warps])
        first_lane = b.op(arith.CmpiOp(lane, b.const(0), "eq"))
        _, then, _ = b.if_(first_lane)
        with b.inside(then):
            b.op(memref.StoreOp.get(total, smem, [b.op(arith.IndexCastOp(warp, index))]))
            b.yield_()
        b.op(gpu.BarrierOp())
        first_warp = b.op(arith.CmpiOp(tid, b.const(32), "slt"))
        _, then, _ = b.if_(first_warp)
        with b.inside(then):
            has = b.op(arith.CmpiOp(lane, b.const(warps), "slt"))
            part, t2, e2 = b.if_(has, [f32])
            with b.inside(t2):
                b.yield_(b.op(memref.LoadOp.get(smem, [b.op(arith.IndexCastOp(lane, index))])))
            with b.inside(e2):
                b.yield_(b.const(0.0, f32))
            s = part
            for off in (2, 1):
                other = b.op(ShuffleOp(s, b.const(off), width, ShuffleMode.XOR)).results[0]
                s = b.op(arith.AddfOp(s, other))
            b.masked_store(b.op(arith.CmpiOp(lane, b.const(0), "eq")), s, b.gep(b["out"], row))
            b.yield_()
        b.op(gpu.ReturnOp([]))
    return b.build()


def pointer_walk_module(block: int = 64) -> ModuleOp:
    """out[t] = sum_i x[i*block + t] * w_i + w_iters with (w, w') swapped every iteration.

    Carries a pointer (advanced by a constant-index getelementptr) and two values that the
    loop swaps, which the printer must assign in parallel.
    """
    b = KernelBuilder(
        "pointer_walk",
        [("x", Ptr(f32)), ("out", Ptr(f32)), ("iters", i32)],
        block=block,
        def_line=30,
    )
    with b.at(31):
        tid = b.tid()
        p0 = b.gep(b["x"], tid)
        loop, body = b.for_(
            b.const(0),
            b["iters"],
            b.const(1),
            [b.const(0.0, f32), p0, b.const(1.0, f32), b.const(2.0, f32)],
        )
        for r, hint in zip(loop.res, ["acc", "p", "a", "b"], strict=True):
            r.name_hint = hint
        with b.inside(body), b.at(32):
            _, acc, p, wa, wb = body.args
            v = b.load(p)
            acc2 = b.op(arith.AddfOp(acc, b.op(arith.MulfOp(v, wa))))
            b.yield_(acc2, b.gep(p, block), wb, wa)
    with b.at(33):
        b.store(b.op(arith.AddfOp(loop.res[0], loop.res[2])), b.gep(b["out"], tid))
        b.op(gpu.ReturnOp([]))
    return b.build()


# ---------------------------------------------------------------------------------------------
# Vectorized global accesses: each thread moves ``lanes`` consecutive elements at once


def vector_copy_module(
    lanes: int = 4, element: Attribute = f32, alignment: int | None = None, block: int = 64
) -> ModuleOp:
    """out[start + k] = x[start + k] for k < n, ``lanes`` elements per thread and access.

    Thread g of the grid handles elements ``lanes * g`` to ``lanes * g + lanes - 1`` with one
    masked ``vector<lanes x element>`` load (``other`` a broadcast -1) and one masked vector
    store; the mask is ``lanes * g < n``, so the lowering this mimics vectorizes only when ``n``
    is a multiple of ``lanes``. ``start`` shifts both pointers: it must keep them aligned to
    ``alignment`` (by default the vector's size).
    """
    align = alignment if alignment is not None else lanes * _element_bytes(element)
    b = KernelBuilder(
        "vector_copy",
        [("x", Ptr(element)), ("out", Ptr(element)), ("n", i32), ("start", i32)],
        block=block,
        def_line=50,
    )
    with b.at(51):
        g = b.op(arith.AddiOp(b.op(arith.MuliOp(b.program_id(), b.const(block))), b.tid()), "g")
        offsets = b.op(arith.MuliOp(g, b.const(lanes)), "offsets")
    with b.at(52):
        mask = b.op(arith.CmpiOp(offsets, b["n"], "slt"), "mask")
        at = b.op(arith.AddiOp(b["start"], offsets))
        other = b.broadcast(b.const(-1, element), lanes)
        values = b.masked_load(mask, b.gep(b["x"], at, element), other, "values", align)
    with b.at(53):
        b.masked_store(mask, values, b.gep(b["out"], at, element), align)
        b.op(gpu.ReturnOp([]))
    return b.build()


def _element_bytes(element: Attribute) -> int:
    width = getattr(element, "bitwidth", None)
    assert isinstance(width, int), element
    return width // 8


def vector_reverse_module(lanes: int = 8, element: Attribute = f16, block: int = 32) -> ModuleOp:
    """``out[lanes*g : lanes*g + lanes] = x[lanes*g : lanes*g + lanes]`` reversed, for thread g
    of the grid: one aligned ``vector<lanes x element>`` load, every element extracted, a
    broadcast of the last one and an insert of each other one, one vector store. It reads and
    writes every slot of a packed vector of 8- or 16-bit elements (``c_types``)."""
    size = lanes * _element_bytes(element)
    vt = VectorType(element, [lanes])
    b = KernelBuilder(
        "vector_reverse", [("x", Ptr(element)), ("out", Ptr(element))], block=block, def_line=70
    )
    with b.at(71):
        g = b.op(arith.AddiOp(b.op(arith.MuliOp(b.program_id(), b.const(block))), b.tid()), "g")
        at = b.op(arith.MuliOp(g, b.const(lanes)), "at")
        v = b.load(b.gep(b["x"], at, element), vt, size)
    with b.at(72):
        parts = [b.extract(v, k) for k in range(lanes)]
        reversed_ = b.broadcast(parts[-1], lanes)
        for k in range(1, lanes):
            reversed_ = b.insert(parts[lanes - 1 - k], reversed_, k)
    with b.at(73):
        b.store(reversed_, b.gep(b["out"], at, element), size)
        b.op(gpu.ReturnOp([]))
    return b.build()


def vector_ops_module(block: int = 32) -> ModuleOp:
    """Every vector op on float4 and int2 values, through scf.if and scf.for.

    Thread t, for the float4 ``x[4t:4t+4]`` = (a, b, c, d):
    ``out[4t:4t+4] = (a*s, b*s, c*s, d*s) + iters * (d, c, b, a)``, built by a broadcast and
    inserts, the reversed vector carried through an ``scf.for`` of ``iters`` iterations; and
    for the int2 ``idx[2t:2t+2]`` = (i, j): ``out_i[2t:2t+2] = (j, i + j)``.
    """
    b = KernelBuilder(
        "vector_ops",
        [
            ("x", Ptr(f32)),
            ("idx", Ptr(i32)),
            ("out", Ptr(f32)),
            ("out_i", Ptr(i32)),
            ("s", f32),
            ("iters", i32),
        ],
        block=block,
        def_line=60,
    )
    with b.at(61):
        tid = b.tid()
        four = b.op(arith.MuliOp(tid, b.const(4)), "at4")
        v = b.load(b.gep(b["x"], four), VectorType(f32, [4]), 16)
        v.name_hint = "xv"
    with b.at(62):
        parts = [b.extract(v, k) for k in range(4)]
        scaled = b.broadcast(b.op(arith.MulfOp(parts[0], b["s"])), 4)
        for k in range(1, 4):
            scaled = b.insert(b.op(arith.MulfOp(parts[k], b["s"])), scaled, k)
        scaled.name_hint = "scaled"
        reversed_ = b.broadcast(parts[3], 4)
        for k in range(1, 4):
            reversed_ = b.insert(parts[3 - k], reversed_, k)
    with b.at(63):
        loop, body = b.for_(b.const(0), b["iters"], b.const(1), [scaled])
        loop.res[0].name_hint = "acc"
        with b.inside(body):
            _, acc = body.args
            summed = [
                b.op(arith.AddfOp(b.extract(acc, k), b.extract(reversed_, k))) for k in range(4)
            ]
            new = b.broadcast(summed[0], 4)
            for k in range(1, 4):
                new = b.insert(summed[k], new, k)
            b.yield_(new)
    with b.at(64):
        b.store(loop.res[0], b.gep(b["out"], four), 16)
    with b.at(65):
        two = b.op(arith.MuliOp(tid, b.const(2)), "at2")
        pair = b.load(b.gep(b["idx"], two, i32), VectorType(i32, [2]), 8)
        i, j = b.extract(pair, 0), b.extract(pair, 1)
        swapped = b.insert(b.op(arith.AddiOp(i, j)), b.insert(j, pair, 0), 1)
        b.store(swapped, b.gep(b["out_i"], two, i32), 8)
        b.op(gpu.ReturnOp([]))
    return b.build()


def vector_ops_reference(
    x: np.ndarray, idx: np.ndarray, s: float, iters: int
) -> tuple[np.ndarray, np.ndarray]:
    """What ``vector_ops_module`` stores to ``out`` and ``out_i``."""
    quads = x.reshape(-1, 4)
    out = quads * np.float32(s)
    for _ in range(iters):
        out = out + quads[:, ::-1]
    pairs = idx.reshape(-1, 2)
    out_i = np.stack([pairs[:, 1], (pairs[:, 0].astype(np.int64) + pairs[:, 1])], axis=1)
    return out.astype(np.float32).reshape(-1), out_i.astype(np.int32).reshape(-1)


# ---------------------------------------------------------------------------------------------
# One case per op: built inside a kernel over input arrays, checked against NumPy


Build = Callable[[KernelBuilder, SSAValue, SSAValue, SSAValue, SSAValue], SSAValue]


@dataclass(frozen=True)
class OpCase:
    """``build(b, a, c, i, j)`` makes one value from f32 inputs a, c and i32 inputs i, j;
    ``reference(a, c, i, j)`` computes it with NumPy. ``rtol`` None: exact, and for floats the
    sign of a zero result too unless ``signed_zero`` is False (where C leaves it open)."""

    name: str
    build: Build
    reference: Callable[..., np.ndarray]
    rtol: float | None = None
    signed_zero: bool = True

    def expected(self, a: np.ndarray, c: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            return np.asarray(self.reference(a, c, i, j))

    def result_is_float(self) -> bool:
        return self.expected(*sample_inputs(16)).dtype == np.float32


def _fbin(cls: type[Operation]) -> Build:
    return lambda b, a, c, i, j: b.op(cls(a, c))


def _funary(cls: type[Operation]) -> Build:
    return lambda b, a, c, i, j: b.op(cls(a))


def _ibin(
    cls: type[Operation], rhs: Callable[[KernelBuilder, SSAValue], SSAValue] | None = None
) -> Build:
    return lambda b, a, c, i, j: b.op(cls(i, rhs(b, j) if rhs else j))


def _as_i32(b: KernelBuilder, v: SSAValue) -> SSAValue:
    return b.op(arith.ExtUIOp(v, i32)) if v.type == i1 else v


def _cmpi(pred: str) -> Build:
    return lambda b, a, c, i, j: _as_i32(b, b.op(arith.CmpiOp(i, j, pred)))


def _cmpf(pred: str) -> Build:
    return lambda b, a, c, i, j: _as_i32(b, b.op(arith.CmpfOp(a, c, pred)))


def _shift_amount(b: KernelBuilder, j: SSAValue) -> SSAValue:
    return b.op(arith.AndIOp(j, b.const(31)))


def _wrap32(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.int64).astype(np.int32)


def _u32(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint32).astype(np.int64)


def _tdiv(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    i64, j64 = i.astype(np.int64), j.astype(np.int64)
    q = np.abs(i64) // np.abs(j64)
    return np.where((i64 < 0) != (j64 < 0), -q, q)


def _f(x: Any) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.asarray(x, dtype=np.float32)


def _bits(x: np.ndarray) -> np.ndarray:
    return x.astype(np.int64) & 1


def _ieee_maximum(a: np.ndarray, c: np.ndarray, propagate_nan: bool = True) -> np.ndarray:
    """IEEE 754-2019 maximum (MLIR maximumf): NaN if either is NaN, and -0.0 < +0.0; without
    ``propagate_nan`` maxNum (maxnumf), whose signed zeros follow PTX ``max.f32`` (+0.0 wins)."""
    out = np.maximum(a, c) if propagate_nan else np.fmax(a, c)
    both_zero = (a == 0) & (c == 0)
    return _f(np.where(both_zero, np.where(np.signbit(a) & np.signbit(c), -0.0, 0.0), out))


def _round_half_away(a: np.ndarray) -> np.ndarray:
    return np.copysign(np.floor(np.abs(a).astype(np.float64) + 0.5), a)


def _i1_pair(b: KernelBuilder, i: SSAValue, j: SSAValue) -> tuple[SSAValue, SSAValue]:
    return b.op(arith.CmpiOp(i, j, "slt")), b.op(arith.CmpiOp(i, b.const(0), "sgt"))


def _i1_case(cls: type[Operation]) -> Build:
    def build(b: KernelBuilder, a: SSAValue, c: SSAValue, i: SSAValue, j: SSAValue) -> SSAValue:
        p, q = _i1_pair(b, i, j)
        return b.op(arith.ExtUIOp(b.op(cls(p, q)), i32))

    return build


def _p(i: np.ndarray, j: np.ndarray) -> np.ndarray:
    return (i < j).astype(np.int64)


def _q(i: np.ndarray) -> np.ndarray:
    return (i > 0).astype(np.int64)


MATH_UNARY = {
    "exp": (math.ExpOp, np.exp),
    "exp2": (math.Exp2Op, np.exp2),
    "log": (math.LogOp, np.log),
    "log2": (math.Log2Op, np.log2),
    "sqrt": (math.SqrtOp, np.sqrt),
    "rsqrt": (math.RsqrtOp, lambda a: 1 / np.sqrt(a)),
    "sin": (math.SinOp, np.sin),
    "cos": (math.CosOp, np.cos),
    "floor": (math.FloorOp, np.floor),
    "ceil": (math.CeilOp, np.ceil),
    "absf": (math.AbsFOp, np.abs),
    "tanh": (math.TanhOp, np.tanh),
    "erf": (math.ErfOp, np.vectorize(pymath.erf, otypes=[np.float64])),
    "log1p": (math.Log1pOp, np.log1p),
    "expm1": (math.ExpM1Op, np.expm1),
    "round": (math.RoundOp, _round_half_away),
    "roundeven": (math.RoundEvenOp, np.rint),
    "trunc": (math.TruncOp, np.trunc),
}

MATH_EXACT = {"floor", "ceil", "absf", "round", "roundeven", "trunc"}

OP_CASES: list[OpCase] = [
    # float arithmetic
    OpCase("addf", _fbin(arith.AddfOp), lambda a, c, i, j: _f(a + c)),
    OpCase("subf", _fbin(arith.SubfOp), lambda a, c, i, j: _f(a - c)),
    OpCase("mulf", _fbin(arith.MulfOp), lambda a, c, i, j: _f(a * c)),
    OpCase("divf", _fbin(arith.DivfOp), lambda a, c, i, j: _f(a / c)),
    OpCase("negf", _funary(arith.NegfOp), lambda a, c, i, j: _f(-a)),
    OpCase("remf", _fbin(RemFOp), lambda a, c, i, j: _f(np.fmod(a, c))),
    OpCase("maximumf", _fbin(arith.MaximumfOp), lambda a, c, i, j: _ieee_maximum(a, c)),
    OpCase("minimumf", _fbin(arith.MinimumfOp), lambda a, c, i, j: -_ieee_maximum(-a, -c)),
    # MLIR lets maxnum/minnum return either of two zeros; both backends give PTX's (+0.0 > -0.0)
    OpCase("maxnumf", _fbin(arith.MaxnumfOp), lambda a, c, i, j: _ieee_maximum(a, c, False)),
    OpCase("minnumf", _fbin(arith.MinnumfOp), lambda a, c, i, j: -_ieee_maximum(-a, -c, False)),
    OpCase(
        "select",
        lambda b, a, c, i, j: b.op(arith.SelectOp(b.op(arith.CmpfOp(a, c, "olt")), a, c)),
        lambda a, c, i, j: _f(np.where(a < c, a, c)),
    ),
    *(
        OpCase(
            name,
            _funary(cls),
            lambda a, c, i, j, f=ref: _f(f(a)),
            None if name in MATH_EXACT else 2e-6,
        )
        for name, (cls, ref) in MATH_UNARY.items()
    ),
    OpCase(
        "ex2_approx_ftz",
        lambda b, a, c, i, j: b.op(llvm.CallIntrinsicOp(EX2_APPROX_FTZ.name, [a], [f32])),
        lambda a, c, i, j: _f(flush_subnormals(np.exp2(a))),
        2e-6,
    ),
    OpCase(  # PTX's approximate f32 division: within 2 ulp of the IEEE quotient
        "div_full",
        lambda b, a, c, i, j: b.op(llvm.CallIntrinsicOp(DIV_FULL.name, [a, c], [f32])),
        lambda a, c, i, j: _f(a / c),
        3e-7,
    ),
    OpCase(  # tl.exp's ex2.approx.f32: within 2 ulp of 2**a, subnormal results kept
        "ex2_approx",
        lambda b, a, c, i, j: b.op(llvm.CallIntrinsicOp(EX2_APPROX.name, [a], [f32])),
        lambda a, c, i, j: _f(np.exp2(a)),
        3e-7,
    ),
    OpCase(  # tl.sqrt's sqrt.approx.ftz.f32: within 1 ulp of the IEEE root
        "sqrt_approx_ftz",
        lambda b, a, c, i, j: b.op(llvm.CallIntrinsicOp(SQRT_APPROX_FTZ.name, [a], [f32])),
        lambda a, c, i, j: _f(np.sqrt(flush_subnormals(a))),
        2e-7,
    ),
    OpCase(  # tl.rsqrt's rsqrt.approx.ftz.f32: within 2 ulp of 1 / sqrt(a)
        "rsqrt_approx_ftz",
        lambda b, a, c, i, j: b.op(llvm.CallIntrinsicOp(RSQRT_APPROX_FTZ.name, [a], [f32])),
        lambda a, c, i, j: _f(1.0 / np.sqrt(flush_subnormals(a).astype(np.float64))),
        3e-7,
    ),
    OpCase(  # tl.sqrt_rn's sqrt.rn.f32: the IEEE root, exactly
        "sqrt_rn",
        lambda b, a, c, i, j: b.op(llvm.CallIntrinsicOp(SQRT_RN.name, [a], [f32])),
        lambda a, c, i, j: _f(np.sqrt(a)),
    ),
    OpCase("pow", _fbin(math.PowFOp), lambda a, c, i, j: _f(np.power(a, c)), 1e-5),
    OpCase("atan2", _fbin(math.Atan2Op), lambda a, c, i, j: _f(np.arctan2(a, c)), 2e-6),
    OpCase("copysign", _fbin(math.CopySignOp), lambda a, c, i, j: _f(np.copysign(a, c))),
    OpCase(
        "fma",
        lambda b, a, c, i, j: b.op(math.FmaOp(a, c, a)),
        lambda a, c, i, j: _f(a.astype(np.float64) * c + a),
    ),
    # f64 round trip
    OpCase(
        "extf_truncf",
        lambda b, a, c, i, j: b.op(
            arith.TruncFOp(b.op(arith.MulfOp(*(2 * [b.op(arith.ExtFOp(a, f64))]))), f32)
        ),
        lambda a, c, i, j: _f(a.astype(np.float64) ** 2),
    ),
    # conversions
    OpCase("sitofp", lambda b, a, c, i, j: b.op(arith.SIToFPOp(i, f32)), lambda a, c, i, j: _f(i)),
    OpCase(
        "uitofp", lambda b, a, c, i, j: b.op(arith.UIToFPOp(i, f32)), lambda a, c, i, j: _f(_u32(i))
    ),
    OpCase(
        "fptosi",
        lambda b, a, c, i, j: b.op(
            arith.FPToSIOp(b.op(arith.SIToFPOp(b.op(arith.ShRSIOp(i, b.const(8))), f32)), i32)
        ),
        lambda a, c, i, j: i >> 8,
    ),
    OpCase(
        "fptoui",
        lambda b, a, c, i, j: b.op(
            arith.FPToUIOp(b.op(arith.UIToFPOp(b.op(arith.ShRUIOp(i, b.const(8))), f32)), i32)
        ),
        lambda a, c, i, j: _wrap32(_u32(i) >> 8),
    ),
    OpCase(
        "bitcast",
        lambda b, a, c, i, j: b.op(arith.BitcastOp(b.op(arith.BitcastOp(a, i32)), f32)),
        lambda a, c, i, j: a,
    ),
    # constants (printed as literals)
    *(
        OpCase(
            f"const_{label}",
            lambda b, a, c, i, j, v=v: b.const(v, f32),
            lambda a, c, i, j, v=v: _f(np.full_like(a, v)),
        )
        for label, v in [
            ("inf", float("inf")),
            ("neg_inf", float("-inf")),
            ("nan", float("nan")),
            ("neg_zero", -0.0),
            ("tenth", 0.1),
            ("max", 3.4028234663852886e38),
            ("denormal", 1e-45),
            ("third", 1 / 3),
        ]
    ),
    *(
        OpCase(
            f"const_i32_{v}",
            lambda b, a, c, i, j, v=v: b.const(v),
            lambda a, c, i, j, v=v: np.full_like(i, v),
        )
        for v in [0, -1, 2**31 - 1, -(2**31), 12345]
    ),
    OpCase(
        "const_i64",
        lambda b, a, c, i, j: b.op(
            arith.TruncIOp(b.op(arith.ShRSIOp(b.const(-(2**62) - 3, i64), b.const(31, i64))), i32)
        ),
        lambda a, c, i, j: _wrap32(np.full(i.shape, (-(2**62) - 3) >> 31)),
    ),
    # integer arithmetic (i32 wraps)
    OpCase("addi", _ibin(arith.AddiOp), lambda a, c, i, j: _wrap32(i.astype(np.int64) + j)),
    OpCase("subi", _ibin(arith.SubiOp), lambda a, c, i, j: _wrap32(i.astype(np.int64) - j)),
    OpCase("muli", _ibin(arith.MuliOp), lambda a, c, i, j: _wrap32(i.astype(np.int64) * j)),
    OpCase("divsi", _ibin(arith.DivSIOp), lambda a, c, i, j: _wrap32(_tdiv(i, j))),
    OpCase("remsi", _ibin(arith.RemSIOp), lambda a, c, i, j: _wrap32(i - _tdiv(i, j) * j)),
    OpCase("divui", _ibin(arith.DivUIOp), lambda a, c, i, j: _wrap32(_u32(i) // _u32(j))),
    OpCase("remui", _ibin(arith.RemUIOp), lambda a, c, i, j: _wrap32(_u32(i) % _u32(j))),
    OpCase("andi", _ibin(arith.AndIOp), lambda a, c, i, j: i & j),
    OpCase("ori", _ibin(arith.OrIOp), lambda a, c, i, j: i | j),
    OpCase("xori", _ibin(arith.XOrIOp), lambda a, c, i, j: i ^ j),
    OpCase(
        "shli", _ibin(arith.ShLIOp, _shift_amount), lambda a, c, i, j: _wrap32(_u32(i) << (j & 31))
    ),
    OpCase("shrsi", _ibin(arith.ShRSIOp, _shift_amount), lambda a, c, i, j: i >> (j & 31)),
    OpCase(
        "shrui",
        _ibin(arith.ShRUIOp, _shift_amount),
        lambda a, c, i, j: _wrap32(_u32(i) >> (j & 31)),
    ),
    OpCase("maxsi", _ibin(arith.MaxSIOp), lambda a, c, i, j: np.maximum(i, j)),
    OpCase("minsi", _ibin(arith.MinSIOp), lambda a, c, i, j: np.minimum(i, j)),
    OpCase("maxui", _ibin(arith.MaxUIOp), lambda a, c, i, j: _wrap32(np.maximum(_u32(i), _u32(j)))),
    OpCase("minui", _ibin(arith.MinUIOp), lambda a, c, i, j: _wrap32(np.minimum(_u32(i), _u32(j)))),
    OpCase("absi", lambda b, a, c, i, j: b.op(math.AbsIOp(j)), lambda a, c, i, j: np.abs(j)),
    OpCase(
        "ctpop",
        lambda b, a, c, i, j: b.op(math.CtPopOp(i)),
        lambda a, c, i, j: np.array([bin(int(x) & 0xFFFFFFFF).count("1") for x in i], np.int32),
    ),
    OpCase(
        "ctlz",
        lambda b, a, c, i, j: b.op(math.CountLeadingZerosOp(i)),
        lambda a, c, i, j: np.array([32 - (int(x) & 0xFFFFFFFF).bit_length() for x in i], np.int32),
    ),
    OpCase(
        "select_i32",
        lambda b, a, c, i, j: b.op(arith.SelectOp(b.op(arith.CmpiOp(i, j, "sgt")), i, j)),
        lambda a, c, i, j: np.where(i > j, i, j),
    ),
    # width changes
    OpCase(
        "index_cast",
        lambda b, a, c, i, j: b.op(
            arith.IndexCastOp(b.op(arith.AddiOp(*(2 * [b.op(arith.IndexCastOp(i, index))]))), i32)
        ),
        lambda a, c, i, j: _wrap32(2 * i.astype(np.int64)),
    ),
    OpCase(
        "extsi_muli_i64",
        lambda b, a, c, i, j: b.op(
            arith.TruncIOp(
                b.op(
                    arith.ShRSIOp(
                        b.op(
                            arith.MuliOp(b.op(arith.ExtSIOp(i, i64)), b.op(arith.ExtSIOp(j, i64)))
                        ),
                        b.const(32, i64),
                    )
                ),
                i32,
            )
        ),
        lambda a, c, i, j: _wrap32((i.astype(np.int64) * j) >> 32),
    ),
    OpCase(
        "extui_i64",
        lambda b, a, c, i, j: b.op(
            arith.TruncIOp(
                b.op(
                    arith.ShRUIOp(
                        b.op(
                            arith.MuliOp(b.op(arith.ExtUIOp(i, i64)), b.op(arith.ExtUIOp(j, i64)))
                        ),
                        b.const(32, i64),
                    )
                ),
                i32,
            )
        ),
        lambda a, c, i, j: _wrap32((_u32(i) * _u32(j)) >> 32),
    ),
    OpCase(
        "trunci_i1_extsi",
        lambda b, a, c, i, j: b.op(arith.ExtSIOp(b.op(arith.TruncIOp(i, i1)), i32)),
        lambda a, c, i, j: -(i & 1),
    ),
    # i1 arithmetic: true is -1 when read as signed
    OpCase("i1_addi", _i1_case(arith.AddiOp), lambda a, c, i, j: _p(i, j) ^ _q(i)),
    OpCase("i1_muli", _i1_case(arith.MuliOp), lambda a, c, i, j: _p(i, j) & _q(i)),
    OpCase("i1_subi", _i1_case(arith.SubiOp), lambda a, c, i, j: _p(i, j) ^ _q(i)),
    OpCase(
        "i1_maxsi", _i1_case(arith.MaxSIOp), lambda a, c, i, j: _bits(np.maximum(-_p(i, j), -_q(i)))
    ),
    OpCase(
        "i1_minsi", _i1_case(arith.MinSIOp), lambda a, c, i, j: _bits(np.minimum(-_p(i, j), -_q(i)))
    ),
    OpCase("i1_andi", _i1_case(arith.AndIOp), lambda a, c, i, j: _p(i, j) & _q(i)),
    OpCase("i1_ori", _i1_case(arith.OrIOp), lambda a, c, i, j: _p(i, j) | _q(i)),
    OpCase("i1_xori", _i1_case(arith.XOrIOp), lambda a, c, i, j: _p(i, j) ^ _q(i)),
    OpCase(
        "i1_cmpi_slt",
        _i1_case(lambda p, q: arith.CmpiOp(p, q, "slt")),
        lambda a, c, i, j: (-_p(i, j) < -_q(i)).astype(np.int64),
    ),
    OpCase(
        "i1_sitofp",
        lambda b, a, c, i, j: b.op(arith.SIToFPOp(_i1_pair(b, i, j)[0], f32)),
        lambda a, c, i, j: _f(-_p(i, j)),
    ),
    OpCase(
        "i1_uitofp",
        lambda b, a, c, i, j: b.op(arith.UIToFPOp(_i1_pair(b, i, j)[0], f32)),
        lambda a, c, i, j: _f(_p(i, j)),
    ),
    # comparisons
    *(
        OpCase(f"cmpi_{p}", _cmpi(p), lambda a, c, i, j, r=ref: r(i, j).astype(np.int32))
        for p, ref in [
            ("eq", lambda i, j: i == j),
            ("ne", lambda i, j: i != j),
            ("slt", lambda i, j: i < j),
            ("sle", lambda i, j: i <= j),
            ("sgt", lambda i, j: i > j),
            ("sge", lambda i, j: i >= j),
            ("ult", lambda i, j: _u32(i) < _u32(j)),
            ("ule", lambda i, j: _u32(i) <= _u32(j)),
            ("ugt", lambda i, j: _u32(i) > _u32(j)),
            ("uge", lambda i, j: _u32(i) >= _u32(j)),
        ]
    ),
    *(
        OpCase(f"cmpf_{p}", _cmpf(p), lambda a, c, i, j, r=ref: r(a, c).astype(np.int32))
        for p, ref in [
            ("false", lambda a, c: np.zeros(a.shape, bool)),
            ("oeq", lambda a, c: a == c),
            ("ogt", lambda a, c: a > c),
            ("oge", lambda a, c: a >= c),
            ("olt", lambda a, c: a < c),
            ("ole", lambda a, c: a <= c),
            ("one", lambda a, c: (a < c) | (a > c)),
            ("ord", lambda a, c: ~(np.isnan(a) | np.isnan(c))),
            ("ueq", lambda a, c: (a == c) | np.isnan(a) | np.isnan(c)),
            ("ugt", lambda a, c: (a > c) | np.isnan(a) | np.isnan(c)),
            ("uge", lambda a, c: (a >= c) | np.isnan(a) | np.isnan(c)),
            ("ult", lambda a, c: (a < c) | np.isnan(a) | np.isnan(c)),
            ("ule", lambda a, c: (a <= c) | np.isnan(a) | np.isnan(c)),
            ("une", lambda a, c: a != c),
            ("uno", lambda a, c: np.isnan(a) | np.isnan(c)),
            ("true", lambda a, c: np.ones(a.shape, bool)),
        ]
    ),
]


def sample_inputs(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inputs with the awkward values first (NaN, infinities, signed zeros, INT_MIN...)."""
    rng = np.random.default_rng(seed)
    special_f = np.array(
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.25, 3.0, 1e30, -1e-30, 0.5, 7.0], np.float32
    )
    special_c = np.array(
        [1.0, np.inf, 2.0, -0.0, 0.0, np.nan, -2.25, -3.0, 1e-30, 4.0, 0.5, -7.0], np.float32
    )
    a = np.concatenate([special_f, rng.normal(0, 3, n).astype(np.float32)])[:n]
    c = np.concatenate([special_c, rng.normal(0, 3, n).astype(np.float32)])[:n]
    special_i = np.array([0, 1, -1, 2**31 - 1, -(2**31), 31, 32, -33, 7, 100], np.int64).astype(
        np.int32
    )
    special_j = np.array([3, -1, 1, 2, 7, 31, -32, 33, -7, 100], np.int64).astype(np.int32)
    i = np.concatenate([special_i, rng.integers(-(2**31), 2**31, n).astype(np.int32)])[:n]
    j = np.concatenate([special_j, rng.integers(-1000, 1000, n).astype(np.int32)])[:n]
    j = np.where(j == 0, 5, j).astype(np.int32)
    j = np.where((i == -(2**31)) & (j == -1), 3, j).astype(np.int32)  # INT_MIN / -1 is UB
    return a, c, i, j


def op_case_slots(cases: Sequence[OpCase] = OP_CASES) -> list[tuple[OpCase, bool, int]]:
    """(case, result is f32, k): where ``op_cases_module`` stores each case's result."""
    slots = {True: 0, False: 0}
    out = []
    for case in cases:
        is_float = case.result_is_float()
        out.append((case, is_float, slots[is_float]))
        slots[is_float] += 1
    return out


def op_cases_module(cases: Sequence[OpCase] = OP_CASES, block: int = 128) -> ModuleOp:
    """Thread g computes every case on input element g and stores it to out_f / out_i.

    Float results go to ``out_f[k * n + g]`` and integer results to ``out_i[k * n + g]``, where
    ``k`` counts the cases of that result type in order.
    """
    b = KernelBuilder(
        "op_cases",
        [
            ("a", Ptr(f32)),
            ("c", Ptr(f32)),
            ("i", Ptr(i32)),
            ("j", Ptr(i32)),
            ("out_f", Ptr(f32)),
            ("out_i", Ptr(i32)),
            ("n", i32),
        ],
        block=block,
        def_line=40,
    )
    with b.at(41):
        g = b.op(arith.AddiOp(b.op(arith.MuliOp(b.program_id(), b.const(block))), b.tid()), "g")
        _, then, _ = b.if_(b.op(arith.CmpiOp(g, b["n"], "slt"), "mask"))
    with b.inside(then):
        with b.at(42):
            a, c = b.load(b.gep(b["a"], g)), b.load(b.gep(b["c"], g))
            i, j = b.load(b.gep(b["i"], g, i32), i32), b.load(b.gep(b["j"], g, i32), i32)
        for line, (case, is_float, k) in enumerate(op_case_slots(cases), start=100):
            with b.at(line):
                value = case.build(b, a, c, i, j)
                assert (value.type == f32) == is_float, case.name
                at = b.op(arith.AddiOp(b.op(arith.MuliOp(b.const(k), b["n"])), g))
                out = b["out_f"] if is_float else b["out_i"]
                b.store(value, b.gep(out, at, f32 if is_float else i32))
        b.yield_()
    with b.at(43):
        b.op(gpu.ReturnOp([]))
    return b.build()


def all_samples() -> dict[str, ModuleOp]:
    """Every sample module, by name (the nvcc check compiles each)."""
    return {
        "add_2d_grid": add_2d_grid_module(),
        "row_sum": row_sum_module(),
        "pointer_walk": pointer_walk_module(),
        "op_cases": op_cases_module(),
        "vector_copy_f32x4": vector_copy_module(),
        "vector_copy_i32x2": vector_copy_module(2, i32),
        "vector_copy_f16x8": vector_copy_module(8, f16),
        "vector_copy_i8x2": vector_copy_module(2, i8),
        "vector_reverse_f16x8": vector_reverse_module(8, f16),
        "vector_reverse_bf16x4": vector_reverse_module(4, bf16),
        "vector_reverse_i8x16": vector_reverse_module(16, i8),
        "vector_reverse_i16x2": vector_reverse_module(2, i16),
        "vector_reverse_i8x2": vector_reverse_module(2, i8),
        "vector_ops": vector_ops_module(),
    }
