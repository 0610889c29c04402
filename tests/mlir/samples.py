"""Hand-built lowered modules (``docs/gpu-ir.md``), one per group of ops, for the MLIR tests.

Each sample is a complete kernel module built with xDSL's Python API the way the lowering builds
it (``gpu.kernel`` attribute, inherent ``known_block_size``, string ``sym_name``); together they
use every op of the contract's table. Every op gets a ``loc("samples.py":N:1)``, N counting ops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, gpu, llvm, memref, scf
from xdsl.dialects import math as xmath
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FileLineColLoc,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnitAttr,
    UnknownLoc,
    f16,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from mytriton.dialects.nvgpu.upstream import RemFOp, ShuffleMode, ShuffleOp

PTR = llvm.LLVMPointerType(IntAttr(1))
INDEX = IndexType()
SAMPLE_FILE = "samples.py"

Body = Callable[[Sequence[SSAValue]], None]


def kernel_module(
    name: str,
    params: Sequence[Attribute],
    body: Body,
    *,
    block_size: int = 128,
    globals_: Sequence[Operation] = (),
    pointee_types: Sequence[Attribute] | None = None,
    xdsl_style: bool = False,
    file: str = SAMPLE_FILE,
) -> ModuleOp:
    """A ``builtin.module`` holding ``gpu.module @kernels`` with one kernel ``gpu.func``.

    ``xdsl_style`` builds it with xDSL's own constructors instead (``kernel`` property,
    ``gpu.known_block_size``, symbol-ref ``sym_name``), which the emitter must fix.
    """
    entry = Block(arg_types=list(params))
    with ImplicitBuilder(entry):
        body(entry.args)
        gpu.ReturnOp([])
    ftype: tuple[list[Attribute], list[Attribute]] = (list(params), [])
    if xdsl_style:
        func = gpu.FuncOp(
            name, ftype, Region(entry), kernel=True, known_block_size=[block_size, 1, 1]
        )
        gmod = gpu.ModuleOp(SymbolRefAttr("kernels"), Region(Block([*globals_, func])))
    else:
        func = gpu.FuncOp(name, ftype, Region(entry))
        func.attributes["gpu.kernel"] = UnitAttr()
        func.attributes["known_block_size"] = DenseArrayBase.from_list(i32, [block_size, 1, 1])
        if pointee_types is not None:
            from xdsl.dialects.builtin import ArrayAttr

            func.attributes["mytriton.pointee_types"] = ArrayAttr(list(pointee_types))
        gmod = gpu.ModuleOp.create(
            properties={"sym_name": StringAttr("kernels")},
            regions=[Region(Block([*globals_, func]))],
        )
    module = ModuleOp([gmod])
    module.attributes["gpu.container_module"] = UnitAttr()
    locate(module, file)
    return module


def locate(module: ModuleOp, file: str) -> None:
    """Give every op without a location ``loc(file:N:1)``, N counting ops in walk order."""
    for n, op in enumerate(module.walk(), start=1):
        if isinstance(op.location, UnknownLoc):
            op.location = FileLineColLoc(StringAttr(file), IntAttr(n), IntAttr(1))


def const_i(value: int, type_: IntegerType | IndexType = i32) -> SSAValue:
    return arith.ConstantOp(IntegerAttr(value, type_)).result


def const_f(value: float, type_: Attribute = f32) -> SSAValue:
    assert isinstance(type_, Float16Type | Float32Type | Float64Type)
    return arith.ConstantOp(FloatAttr(value, type_)).result


def gep(ptr: SSAValue, index: SSAValue, elem: Attribute = f32) -> SSAValue:
    return llvm.GEPOp(
        ptr, [llvm.GEP_USE_SSA_VAL], elem, ssa_indices=[index], result_type=PTR
    ).result


def store_at(value: SSAValue, ptr: SSAValue, index: SSAValue) -> None:
    llvm.StoreOp(value, gep(ptr, index, value.type))


def thread_index() -> SSAValue:
    return arith.IndexCastOp(gpu.ThreadIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)), i32).result


# ---------------------------------------------------------------- samples


def ids_and_barrier() -> ModuleOp:
    """gpu.thread_id, block_id x/y/z, grid_dim x/y/z, gpu.barrier, arith.index_cast."""

    def body(args: Sequence[SSAValue]) -> None:
        (out,) = args
        tid = thread_index()
        total = tid
        for dim in ("x", "y", "z"):
            bid = arith.IndexCastOp(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum(dim))), i32)
            gdim = arith.IndexCastOp(gpu.GridDimOp(gpu.DimensionAttr(gpu.DimensionEnum(dim))), i32)
            total = arith.AddiOp(total, arith.MuliOp(bid, gdim)).result
        gpu.BarrierOp()
        store_at(total, out, tid)

    return kernel_module("ids_and_barrier", [PTR], body, pointee_types=[i32])


INT_BINARY = (
    arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivSIOp, arith.RemSIOp, arith.AndIOp,
    arith.OrIOp, arith.XOrIOp, arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp, arith.MaxSIOp,
    arith.MinSIOp,
)  # fmt: skip


def int_arith() -> ModuleOp:
    """Every integer op of the contract on i32 (right operand a parameter, so none folds away),
    and add/and on i64, index and i1."""

    def body(args: Sequence[SSAValue]) -> None:
        out, a = args
        tid = thread_index()
        acc = arith.AddiOp(a, tid).result
        for op in INT_BINARY:
            acc = op(acc, a).result
        wide = arith.AddiOp(arith.ExtSIOp(acc, i64), const_i(7, i64)).result
        idx = arith.AddiOp(arith.IndexCastOp(acc, INDEX), const_i(1, INDEX)).result
        flag = arith.AndIOp(arith.CmpiOp(acc, a, "sgt"), const_i(1, i1)).result
        acc = arith.AddiOp(acc, arith.TruncIOp(wide, i32)).result
        acc = arith.AddiOp(acc, arith.IndexCastOp(idx, i32)).result
        acc = arith.AddiOp(acc, arith.ExtUIOp(flag, i32)).result
        store_at(acc, out, tid)

    return kernel_module("int_arith", [PTR, i32], body, pointee_types=[i32])


def float_arith() -> ModuleOp:
    """arith.addf subf mulf divf negf and our arith.remf on f32."""

    def body(args: Sequence[SSAValue]) -> None:
        out, x = args
        v: SSAValue = arith.SIToFPOp(thread_index(), f32).result
        v = arith.AddfOp(v, x).result
        v = arith.SubfOp(v, const_f(0.5)).result
        v = arith.MulfOp(v, x).result
        v = arith.DivfOp(v, x).result
        v = arith.NegfOp(v).result
        v = RemFOp(v, x).result
        store_at(v, out, thread_index())

    return kernel_module("float_arith", [PTR, f32], body, pointee_types=[f32])


CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF = ("oeq", "ogt", "oge", "olt", "ole", "one", "une", "uno", "ord")


def compare_select() -> ModuleOp:
    """arith.cmpi and arith.cmpf with every predicate the lowering uses, and arith.select."""

    def body(args: Sequence[SSAValue]) -> None:
        out, n, x = args
        tid = thread_index()
        v = arith.SIToFPOp(tid, f32).result
        count = const_i(0)
        for pred in CMPI:
            ci = arith.CmpiOp(tid, n, pred)
            count = arith.AddiOp(count, arith.ExtUIOp(ci, i32)).result
        for pred in CMPF:
            cf = arith.CmpfOp(v, x, pred)
            count = arith.AddiOp(count, arith.SelectOp(cf, const_i(1), const_i(0))).result
        store_at(count, out, tid)

    return kernel_module("compare_select", [PTR, i32, f32], body, pointee_types=[i32])


def conversions() -> ModuleOp:
    """index_cast, sitofp, uitofp, fptosi, extui, extsi, trunci, extf, truncf."""

    def body(args: Sequence[SSAValue]) -> None:
        out, flag, x = args
        tid = thread_index()
        b = arith.TruncIOp(flag, i1)  # a bool parameter arrives as i32
        v = arith.AddfOp(x, arith.UIToFPOp(arith.ExtUIOp(b, i32), f32))
        half = arith.TruncFOp(v, f16)
        wide = arith.ExtFOp(arith.ExtFOp(half, f32), f64)
        narrow = arith.TruncFOp(arith.MulfOp(wide, wide), f32)
        as_int = arith.FPToSIOp(narrow, i32)
        big = arith.MuliOp(arith.ExtSIOp(as_int, i64), arith.ExtSIOp(tid, i64))
        back = arith.TruncIOp(big, i32)
        store_at(arith.SIToFPOp(back, f32).result, out, tid)

    return kernel_module("conversions", [PTR, i32, f32], body, pointee_types=[f32])


MATH_UNARY = (
    xmath.ExpOp, xmath.Exp2Op, xmath.LogOp, xmath.Log2Op, xmath.SqrtOp, xmath.RsqrtOp,
    xmath.SinOp, xmath.CosOp, xmath.FloorOp, xmath.CeilOp, xmath.AbsFOp,
)  # fmt: skip


def math_ops() -> ModuleOp:
    """Every math op of the contract (libdevice calls after convert-gpu-to-nvvm)."""

    def body(args: Sequence[SSAValue]) -> None:
        out, x = args
        tid = thread_index()
        v = arith.AddfOp(arith.SIToFPOp(tid, f32), x).result
        for op in MATH_UNARY:
            v = op(v).result
        v = xmath.FmaOp(v, x, const_f(1.0)).result
        i = xmath.AbsIOp(arith.SubiOp(tid, const_i(64))).result
        v = arith.AddfOp(v, arith.SIToFPOp(i, f32)).result
        store_at(v, out, tid)

    return kernel_module("math_ops", [PTR, f32], body, pointee_types=[f32])


SMEM_TYPE = MemRefType(f32, [128], memory_space=IntegerAttr(3, i64))


def memory() -> ModuleOp:
    """llvm.getelementptr/load/store, memref.global in space 3, get_global, memref.load/store."""
    smem = memref.GlobalOp.get(StringAttr("smem_0"), SMEM_TYPE, UnitAttr())

    def body(args: Sequence[SSAValue]) -> None:
        x, out = args
        tid = thread_index()
        v = llvm.LoadOp(gep(x, tid), f32).dereferenced_value
        buf = memref.GetGlobalOp("smem_0", SMEM_TYPE).memref
        i = arith.IndexCastOp(tid, INDEX).result
        memref.StoreOp.get(v, buf, [i])
        gpu.BarrierOp()
        j = arith.IndexCastOp(arith.XOrIOp(tid, const_i(1)), INDEX).result
        w = memref.LoadOp.get(buf, [j]).res
        store_at(w, out, tid)

    return kernel_module("memory", [PTR, PTR], body, globals_=[smem], pointee_types=[f32, f32])


def control_flow() -> ModuleOp:
    """scf.if with and without results and else, scf.for with iter_args (i32 and index)."""

    def body(args: Sequence[SSAValue]) -> None:
        x, out, n = args
        tid = thread_index()
        mask = arith.CmpiOp(tid, n, "slt")
        then_block = Block()
        with ImplicitBuilder(then_block):
            scf.YieldOp(llvm.LoadOp(gep(x, tid), f32))
        else_block = Block()
        with ImplicitBuilder(else_block):
            scf.YieldOp(const_f(0.0))
        loaded = scf.IfOp(mask, [f32], [then_block], [else_block]).results[0]
        loop_body = Block(arg_types=[i32, f32])
        with ImplicitBuilder(loop_body):
            k, acc = loop_body.args
            scf.YieldOp(arith.AddfOp(acc, arith.SIToFPOp(k, f32)))
        total = scf.ForOp(const_i(0), n, const_i(1), [loaded], loop_body).results[0]
        index_body = Block(arg_types=[INDEX, f32])
        with ImplicitBuilder(index_body):
            _, acc2 = index_body.args
            scf.YieldOp(arith.MulfOp(acc2, const_f(0.5)))
        one = const_i(1, INDEX)
        total = scf.ForOp(const_i(0, INDEX), const_i(4, INDEX), one, [total], index_body).results[0]
        store_block = Block()
        with ImplicitBuilder(store_block):
            store_at(total, out, tid)
            scf.YieldOp()
        scf.IfOp(mask, [], [store_block])

    return kernel_module("control_flow", [PTR, PTR, i32], body, pointee_types=[f32, f32])


def shuffle() -> ModuleOp:
    """Our gpu.shuffle xor: a warp-wide butterfly sum."""

    def body(args: Sequence[SSAValue]) -> None:
        x, out = args
        tid = thread_index()
        v = llvm.LoadOp(gep(x, tid), f32).dereferenced_value
        for offset in (16, 8, 4, 2, 1):
            other = ShuffleOp(v, const_i(offset), const_i(32), ShuffleMode.XOR).shuffle_result
            v = arith.AddfOp(v, other).result
        store_at(v, out, tid)

    return kernel_module("shuffle", [PTR, PTR], body, block_size=32, pointee_types=[f32, f32])


def add_kernel(*, xdsl_style: bool = False, file: str = SAMPLE_FILE) -> ModuleOp:
    """The seed's masked vector add, as the lowering would scalarize it (one element a thread)."""

    def body(args: Sequence[SSAValue]) -> None:
        x, y, out, n = args
        block = arith.IndexCastOp(gpu.BlockIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)), i32)
        offset = arith.AddiOp(arith.MuliOp(block, const_i(128)), thread_index()).result
        mask = arith.CmpiOp(offset, n, "slt")
        then_block = Block()
        with ImplicitBuilder(then_block):
            a = llvm.LoadOp(gep(x, offset), f32)
            b = llvm.LoadOp(gep(y, offset), f32)
            store_at(arith.AddfOp(a, b).result, out, offset)
            scf.YieldOp()
        scf.IfOp(mask, [], [then_block])

    return kernel_module(
        "add_kernel", [PTR, PTR, PTR, i32], body, pointee_types=[f32] * 3,
        xdsl_style=xdsl_style, file=file,
    )  # fmt: skip


SAMPLES: dict[str, Callable[[], ModuleOp]] = {
    "ids_and_barrier": ids_and_barrier,
    "int_arith": int_arith,
    "float_arith": float_arith,
    "compare_select": compare_select,
    "conversions": conversions,
    "math_ops": math_ops,
    "memory": memory,
    "control_flow": control_flow,
    "shuffle": shuffle,
    "add_kernel": add_kernel,
}
