"""A hand-built lowered kernel around one ``nvvm.ldmatrix`` per warp, and its NumPy reference
(the PTX ISA's description of the instruction, written out independently of gpusim's rule).

Shared by the gpusim, CUDA printer and MLIR tests, so all three see the same IR: one warp
stages 32 rows of 8 16-bit values in shared memory (each thread one row, as one 16-byte
``vector.store``), synchronizes, and lane ``l`` gives the address of row ``rows[l]`` (a
permutation, so matrix ``j`` is rows ``rows[8j]`` ... ``rows[8j + 7]``); the ``num`` registers
each lane receives are stored to ``out[l * num + j]``.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith, gpu, llvm, memref, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    ModuleOp,
    VectorType,
    i16,
    i32,
    i64,
)

from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER, LdMatrixOp
from tests.gpu_ir_samples import KernelBuilder, Ptr

ROWS, ROW = 32, 8  # staged rows, 16-bit elements per row


def ldmatrix_module(num: int, transposed: bool, *, skew: int = 0, block: int = 32) -> ModuleOp:
    """The kernel ``ldmatrix(src: i16[32 * 8], rows: i32[32], out: i32[32 * num])``; ``skew``
    elements added to every row address (misaligning it), ``block`` threads."""
    b = KernelBuilder(
        "ldmatrix",
        [("src", Ptr(i16)), ("rows", Ptr(i32)), ("out", Ptr(i32))],
        block=block,
        def_line=20,
    )
    row_type = VectorType(i16, [ROW])
    with b.at(21):
        tid = b.tid()
        first = b.op(arith.MuliOp(tid, b.const(ROW)))
        values = b.load(b.gep(b["src"], first, i16), row_type, alignment=16)
        smem = b.shared("staged", [ROWS * ROW], i16, alignment=16)
        store = vector.StoreOp(values, smem, [b.op(arith.IndexCastOp(first, IndexType()))])
        store.attributes["alignment"] = IntegerAttr(16, i64)
        b.op(store)
        b.op(gpu.BarrierOp())
    with b.at(22):
        row = b.load(b.gep(b["rows"], tid, i32), i32)
        address = b.op(memref.ExtractAlignedPointerAsIndexOp.get(smem))
        base = b.op(
            llvm.IntToPtrOp.build(
                operands=[b.op(arith.IndexCastOp(address, i64))], result_types=[SHARED_POINTER]
            )
        )
        at = b.op(arith.AddiOp(b.op(arith.MuliOp(row, b.const(ROW))), b.const(skew)))
        pointer = b.op(llvm.GEPOp(base, [llvm.GEP_USE_SSA_VAL], i16, [at], SHARED_POINTER))
        loaded = b.op(LdMatrixOp(pointer, num, transposed), "frag")
    with b.at(23):
        out_at = b.op(arith.MuliOp(tid, b.const(num)))
        for j in range(num):
            reg = loaded
            if num > 1:
                position = DenseArrayBase.from_list(i64, [j])
                reg = b.op(llvm.ExtractValueOp(position, loaded, i32))
            b.store(reg, b.gep(b["out"], b.op(arith.AddiOp(out_at, b.const(j))), i32))
        b.op(gpu.ReturnOp([]))
    return b.build()


def ldmatrix_inputs(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Random 16-bit rows and a random permutation of them."""
    src = rng.integers(0, 1 << 16, ROWS * ROW, dtype=np.uint16).view(np.int16)
    rows = rng.permutation(ROWS).astype(np.int32)
    return src, rows


def ldmatrix_reference(src: np.ndarray, rows: np.ndarray, num: int, transposed: bool) -> np.ndarray:
    """``out`` per the PTX ISA: matrix ``j`` holds the rows lanes ``8j`` to ``8j + 7`` address;
    lane ``4g + q``'s register ``j`` packs elements ``2q`` and ``2q + 1`` of row ``g`` (of
    column ``g``, rows ``2q`` and ``2q + 1``, when transposed), the first in the low half."""
    staged = src.view(np.uint16).reshape(ROWS, ROW).astype(np.uint32)
    out = np.zeros((32, num), np.uint32)
    for lane in range(32):
        g, q = divmod(lane, 4)
        for j in range(num):
            matrix = staged[rows[8 * j : 8 * j + 8]]
            if transposed:
                matrix = matrix.T
            out[lane, j] = matrix[g, 2 * q] | (matrix[g, 2 * q + 1] << 16)
    return out.view(np.int32).reshape(-1)
