"""Hand-built lowered kernels around one ``nvvm.mma.sync`` per warp, and their NumPy reference.

Shared by the gpusim, CUDA printer and MLIR tests, so all three see the same IR (fp8 kinds:
``ptx.mma.sync``, B of either format): each warp loads
its lanes' fragment registers of one 16 x K tile of A (row-major), K x 8 tile of B (row-major)
and 16 x 8 tile of C from global memory with the PTX ISA's fragment index formulas (lane
``4g + q``), builds the registers as the lowering does (``vector.broadcast``/``vector.insert``
for f16 pairs, bitcasts, shifts and ors for bf16 pairs, a bitcast for tf32), multiplies, and
stores the four extracted fields into D at their fragment positions. Warp ``w`` of program ``p``
works on tile ``p * warps + w``.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, gpu, llvm
from xdsl.dialects.builtin import DenseArrayBase, ModuleOp, bf16, f16, f32, i8, i16, i32, i64
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.nvgpu.nvvm import ACCUMULATORS, MMA_FORMS, MmaSyncOp
from mytriton.dialects.nvgpu.ptx_mma import FP8_MMA_FORMS, Fp8MmaSyncOp
from mytriton.dialects.tt.semantics import bfloat16_dtype
from tests.gpu_ir_samples import KernelBuilder, Ptr

M, N = 16, 8
# fp8 (``ptx.mma.sync``): their bytes; "e4m3.e5m2" is A e4m3 times B e5m2
ELEMENTS: dict[str, Attribute] = {"f16": f16, "bf16": bf16, "tf32": f32, "s8": i8}
FP8_KINDS = ("e4m3", "e5m2", "e4m3.e5m2")
FP8_DTYPES = {"e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}  # ml_dtypes' names
ALL_FORMS = {**MMA_FORMS, **FP8_MMA_FORMS}


def operand_kinds(kind: str) -> tuple[str, str]:
    """A's and B's PTX types."""
    a, _, b = kind.partition(".")
    return a, b or a


def depth(kind: str) -> int:
    """K of the form's tile."""
    return ALL_FORMS[operand_kinds(kind)[0]].shape[2]


def mma_module(kind: str, warps: int = 1, *, active: int | None = None) -> ModuleOp:
    """The kernel ``mma(a, b, c, d)``; ``active``: only threads below it multiply (in an
    ``scf.if``), which a warp-synchronous instruction allows of whole warps only."""
    a_kind, b_kind = operand_kinds(kind)
    form = ALL_FORMS[a_kind]
    element = ELEMENTS.get(kind, i8)
    k = depth(kind)
    b = KernelBuilder(
        "mma",
        [
            ("a", Ptr(element)),
            ("b", Ptr(element)),
            ("c", Ptr(form.accumulator)),
            ("d", Ptr(form.accumulator)),
        ],
        block=32 * warps,
        def_line=10,
    )

    def c32(v: int) -> SSAValue:
        return b.const(v)

    def plus(x: SSAValue, v: int) -> SSAValue:
        return x if v == 0 else b.op(arith.AddiOp(x, c32(v)))

    def offset(base: SSAValue, row: SSAValue, col: SSAValue, cols: int) -> SSAValue:
        """``base + row * cols + col``: an element of a row-major tile."""
        return b.op(arith.AddiOp(base, b.op(arith.AddiOp(b.op(arith.MuliOp(row, c32(cols))), col))))

    def load(
        ptr: str, base: SSAValue, row: SSAValue, col: SSAValue, cols: int, t: Attribute
    ) -> SSAValue:
        return b.load(b.gep(b[ptr], offset(base, row, col, cols), t), t)

    def register(
        ptr: str, base: SSAValue, rc: list[tuple[SSAValue, SSAValue]], cols: int
    ) -> SSAValue:
        """One 32-bit register from its elements at (row, column) pairs, the lower k first."""
        xs = [load(ptr, base, r, c, cols, element) for r, c in rc]
        if kind == "tf32":
            return b.op(arith.BitcastOp(xs[0], i32))
        if kind == "f16":
            return b.insert(xs[1], b.broadcast(xs[0], 2), 1)
        if form.per_register == 4:  # s8, fp8: four bytes, the lowest k in the low byte
            word = b.op(arith.ExtUIOp(xs[0], i32))
            for h, x in enumerate(xs[1:], start=1):
                byte = b.op(arith.ShLIOp(b.op(arith.ExtUIOp(x, i32)), c32(8 * h)))
                word = b.op(arith.OrIOp(word, byte))
            return word
        lo, hi = (b.op(arith.ExtUIOp(b.op(arith.BitcastOp(x, i16)), i32)) for x in xs)
        return b.op(arith.OrIOp(lo, b.op(arith.ShLIOp(hi, c32(16)))))

    with b.at(11):
        tid = b.tid()
        lane = b.op(arith.AndIOp(tid, c32(31)), "lane")
        warp = b.op(arith.ShRSIOp(tid, c32(5)), "warp")
        tile = b.op(arith.AddiOp(b.op(arith.MuliOp(b.program_id(), c32(warps))), warp), "tile")
        g = b.op(arith.ShRSIOp(lane, c32(2)), "g")
        q = b.op(arith.AndIOp(lane, c32(3)), "q")
        a_base = b.op(arith.MuliOp(tile, c32(M * k)))
        b_base = b.op(arith.MuliOp(tile, c32(k * N)))
        c_base = b.op(arith.MuliOp(tile, c32(M * N)), "c_base")
        per = form.per_register
        step = k // 2  # k between the register pairs
        pq = b.op(arith.MuliOp(q, c32(per)))
        a_regs = [
            register(
                "a",
                a_base,
                [(plus(g, 8 * (r % 2)), plus(pq, step * (r // 2) + h)) for h in range(per)],
                k,
            )
            for r in range(form.a_registers)
        ]
        b_regs = [
            register("b", b_base, [(plus(pq, step * r + h), g) for h in range(per)], N)
            for r in range(form.b_registers)
        ]
        q2 = b.op(arith.MuliOp(q, c32(2)))
        positions = [(plus(g, 8 * (r // 2)), plus(q2, r % 2)) for r in range(ACCUMULATORS)]
        acc_type = form.accumulator
        accumulators = [load("c", c_base, r, c, N, acc_type) for r, c in positions]

    def multiply() -> None:
        """The mma, and a store of each of its fields to D at the lane's fragment positions."""
        if a_kind in FP8_MMA_FORMS:
            b_form = FP8_MMA_FORMS[b_kind]
            mma = b.op(Fp8MmaSyncOp(form, b_form, a_regs, b_regs, accumulators), "acc")
        else:
            mma = b.op(MmaSyncOp(form, a_regs, b_regs, accumulators), "acc")
        for i, (r, c) in enumerate(positions):
            field = b.op(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, [i]), mma, acc_type))
            b.store(field, b.gep(b["d"], offset(c_base, r, c, N), acc_type))

    with b.at(12):
        if active is None:
            multiply()
        else:  # the mma, and the stores of its results, only where tid < active
            _, then, _ = b.if_(b.op(arith.CmpiOp(tid, c32(active), "slt")))
            with b.inside(then):
                multiply()
                b.yield_()
        b.op(gpu.ReturnOp([]))
    return b.build()


def mma_inputs(
    kind: str, tiles: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random A (tiles, 16, K), B (tiles, K, 8) of the form's element type, C (tiles, 16, 8) f32;
    tf32 elements use all 23 mantissa bits, so truncating them to tf32 shows in the result;
    s8: int8 over its whole range and int32 C near the top of its range, so the sums wrap."""
    k = depth(kind)
    if kind == "s8":
        a = rng.integers(-128, 128, (tiles, M, k), dtype=np.int8)
        b = rng.integers(-128, 128, (tiles, k, N), dtype=np.int8)
        c = rng.integers(2**31 - 300_000, 2**31, (tiles, M, N), dtype=np.int64).astype(np.int32)
        return a, b, c
    a_kind, b_kind = operand_kinds(kind)
    a = rng.standard_normal((tiles, M, k)).astype(_dtype(a_kind))
    b = rng.standard_normal((tiles, k, N)).astype(_dtype(b_kind))
    c = rng.standard_normal((tiles, M, N)).astype(np.float32)
    return a, b, c


def _dtype(kind: str) -> np.dtype:
    if kind in FP8_DTYPES:
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, FP8_DTYPES[kind]))
    if kind == "tf32":
        return np.dtype(np.float32)
    return np.dtype(np.float16) if kind == "f16" else bfloat16_dtype()


def tf32(x: np.ndarray) -> np.ndarray:
    """f32 values as the tensor core reads them: the upper 19 bits."""
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def mma_reference(a: np.ndarray, b: np.ndarray, c: np.ndarray, *, truncate: bool) -> np.ndarray:
    """``a @ b + c`` per tile, in float64 rounded to float32 (``truncate``: tf32 operands);
    int8 operands exactly, wrapped to int32."""
    if a.dtype == np.int8:
        exact = a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)
        return exact.astype(np.int32)
    if truncate:
        a, b = tf32(a), tf32(b)
    wide = a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64)
    return wide.astype(np.float32)


def unwritten(c: np.ndarray) -> np.ndarray:
    """A D array that shows which elements no lane stored: NaN (f32), the minimum (int32)."""
    if c.dtype == np.int32:
        return np.full(c.shape, np.iinfo(np.int32).min, np.int32)
    return np.full(c.shape, np.nan, np.float32)
