"""``nvvm.mma.sync``: a warp-wide tensor-core ``D = A @ B + C``, one tile per warp;
``nvvm.ldmatrix``, which loads its fragment registers from shared memory; and the ``cp.async``
ops, which copy global memory to shared memory asynchronously.

Lanes ``32w`` to ``32w + 31`` of a batch are warp ``w`` (blocks are whole warps, which the rule
checks, along with every lane of a warp taking part, as the instruction's ``.aligned`` demands).
Each warp's registers are gathered into its A (16 x k), B (k x 8) and C (16 x 8) with the PTX
ISA's fragment layouts (lane ``4g + q``; see ``_fragments``), all warps of the batch at once, and
D is scattered back into the four ``f32`` fields per lane: a NumPy structured array with fields
``f0`` ... ``f3``, which ``llvm.extractvalue`` (``rules_atomic``) takes apart.

Products and sums are computed in float64 and rounded once to float32 (s8: exactly, in int64,
then wrapped to int32 as ``intOverflowBehavior = wrapped`` says): f16 and bf16 elements are
exact in float64, and a tf32 operand is its f32 register's upper 19 bits (``& 0xFFFFE000``),
as the tensor core reads it. Hardware accumulates in a different order and may round or truncate
partial sums, so a GPU's results can differ from these in the last bits of f32 (an H200 running
the printed kernels of ``tests/mma_samples.py`` agreed to about 1e-6).

``nvvm.cp.async.shared.global`` reads its source when issued (only ``cpSize`` bytes, none for 0,
so a masked-off lane's address is never touched) and hands the data to ``AsyncCopies``
(``shared_memory``), which writes shared memory when ``nvvm.cp.async.wait.group`` completes the
copy's group (``nvvm.cp.async.commit.group``); see there for what is checked.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm
from xdsl.dialects.builtin import Float8E4M3FNType, Float8E5M2Type, VectorType, i32
from xdsl.ir import Attribute, Operation, SSAValue

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.global_memory import Access
from mytriton.backends.gpusim.machine import WARP_SIZE, Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.values import Ptr
from mytriton.dialects.nvgpu.nvvm import (
    ACCUMULATORS,
    CpAsyncCommitGroupOp,
    CpAsyncOp,
    CpAsyncWaitGroupOp,
    LdMatrixOp,
    MmaForm,
    WarpMmaOp,
)
from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt.fp8 import FORMATS, decode_bytes
from mytriton.dialects.tt.semantics import numpy_dtype

Array = np.ndarray
Positions = tuple[Array, Array]  # (rows, columns)
#: the struct result: one f32 per accumulator register
RESULT = np.dtype([(f"f{i}", np.float32) for i in range(ACCUMULATORS)])
INT_RESULT = np.dtype([(f"f{i}", np.int32) for i in range(ACCUMULATORS)])  # s8 forms
TF32_MASK = np.uint32(0xFFFFE000)  # sign, exponent and the upper 10 mantissa bits


def _fragments(form: MmaForm) -> tuple[Positions, Positions, Positions]:
    """(row, column) of the element each lane's register slot holds, for A, B and C/D: arrays of
    shape (32, registers, elements per register), from the PTX ISA's fragment layouts (lane
    ``4g + q``): C/D register r is ``[g + 8 (r // 2)][2q + r % 2]``; f16/bf16 A register r holds
    ``[g + 8 (r % 2)][2q + 8 (r // 2) + h]`` in its half h, B register r ``[2q + 8r + h][g]``;
    tf32 A register r is ``[g + 8 (r % 2)][q + 4 (r // 2)]``, B register r ``[q + 4r][g]``."""
    lane = np.arange(WARP_SIZE)[:, None, None]
    g, q = lane // 4, lane % 4
    per = form.per_register
    h = np.arange(per)[None, None, :]
    ra = np.arange(form.a_registers)[None, :, None]
    rb = np.arange(form.b_registers)[None, :, None]
    k_step = form.shape[2] // 2  # the k distance between register pairs
    a_rows = g + 8 * (ra % 2) + 0 * h
    a_cols = per * q + k_step * (ra // 2) + h
    b_rows = per * q + k_step * rb + h
    b_cols = g + 0 * rb + 0 * h
    rc = np.arange(ACCUMULATORS)[None, :, None]
    c_rows = g + 8 * (rc // 2)
    c_cols = 2 * q + rc % 2
    return (a_rows, a_cols), (b_rows, b_cols), (c_rows, c_cols)


FP8_OPERAND_FORMATS = {  # the fp8 formats of the e4m3 and e5m2 operand types
    "e4m3": FORMATS[Float8E4M3FNType],
    "e5m2": FORMATS[Float8E5M2Type],
}


def _elements(form: MmaForm, registers: list[Array]) -> Array:
    """Each lane's operand elements as float64 (int64 for s8): shape (lanes, registers,
    elements per register), element 0 of a register the lower k index (the low half of an
    i32 pair, the low byte of an s8 quadruple)."""
    if form.ptx_type == "f16":  # vector<2xf16>: (lanes, 2) float16 arrays
        return np.stack(registers, axis=1).astype(np.float64)
    if form.ptx_type == "s8":
        words = np.ascontiguousarray(np.stack(registers, axis=1).astype(np.int32))
        return words.view(np.int8).reshape(*words.shape, 4).astype(np.int64)
    if form.ptx_type in FP8_OPERAND_FORMATS:  # four fp8 bytes a register, decoded
        words = np.ascontiguousarray(np.stack(registers, axis=1).astype(np.int32))
        raw = words.view(np.uint8).reshape(*words.shape, 4)
        return decode_bytes(raw, FP8_OPERAND_FORMATS[form.ptx_type]).astype(np.float64)
    bits = np.stack(registers, axis=1).view(np.uint32)
    if form.ptx_type == "tf32":
        return (bits & TF32_MASK).view(np.float32).astype(np.float64)[..., None]
    halves = np.stack([bits & 0xFFFF, bits >> 16], axis=-1)  # bf16: the upper half of an f32
    return (halves << 16).astype(np.uint32).view(np.float32).astype(np.float64)


def _arrays(m: Machine, values: list[SSAValue]) -> list[Array]:
    out = []
    for v in values:
        x = m.env[v]
        assert isinstance(x, np.ndarray)
        out.append(x)
    return out


@rule("nvvm.mma.sync", "ptx.mma.sync", vectors=True)
def _mma_sync(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, WarpMmaOp)
    form, b_form = op.form, op.b_form
    m_rows, n_cols, k_depth = form.shape
    (a_rows, a_cols), (b_rows, b_cols), (c_rows, c_cols) = _fragments(form)
    a_values, b_values, c_values = list(op.a_operands), list(op.b_operands), list(op.c_operands)
    out = op.res

    def step(m: Machine) -> None:
        m.check_whole_warps(op, op.name)
        warps = m.lanes // WARP_SIZE
        # (warps, lanes of a warp, registers, elements per register)
        a_elements = _elements(form, _arrays(m, a_values)).reshape(warps, *a_rows.shape)
        b_elements = _elements(b_form, _arrays(m, b_values)).reshape(warps, *b_rows.shape)
        c_elements = np.stack(_arrays(m, c_values), axis=1).reshape(warps, *c_rows.shape)
        exact = np.int64 if form.integer else np.float64
        a = np.zeros((warps, m_rows, k_depth), exact)
        b = np.zeros((warps, k_depth, n_cols), exact)
        acc = np.zeros((warps, m_rows, n_cols), exact)
        a[:, a_rows, a_cols] = a_elements
        b[:, b_rows, b_cols] = b_elements
        acc[:, c_rows, c_cols] = c_elements
        with np.errstate(all="ignore"):  # inactive warps may hold anything
            exact_d = a @ b + acc  # int64 holds any sum of 32 int8 products plus an i32
            d = exact_d.astype(np.int32) if form.integer else exact_d.astype(np.float32)
        fields = d[:, c_rows, c_cols].reshape(m.lanes, ACCUMULATORS)
        result = np.zeros(m.lanes, INT_RESULT if form.integer else RESULT)
        for i in range(ACCUMULATORS):
            result[f"f{i}"] = fields[:, i]
        m.env[out] = result

    return step


ROW_BYTES = 16  # one row of an 8 x 8 matrix of 16-bit elements


@rule("nvvm.ldmatrix")
def _ldmatrix(op: Operation, c: Compiler) -> Step:
    """Lanes ``8j`` to ``8j + 7`` of each warp give the 16-byte rows of matrix ``j``; lane
    ``4g + q`` receives in register ``j`` the 16-bit elements ``2q, 2q + 1`` of row ``g``, or
    of column ``g`` (rows ``2q, 2q + 1``) when transposed, the first in the low half."""
    assert isinstance(op, LdMatrixOp)
    count, transposed = op.count, op.transposed
    ptr, out = op.ptr, op.res
    result = np.dtype([(f"f{i}", np.int32) for i in range(count)])

    def step(m: Machine) -> None:
        m.check_whole_warps(op, "nvvm.ldmatrix")
        address = m.env[ptr]
        assert isinstance(address, np.ndarray)
        lane = np.arange(m.lanes) % WARP_SIZE
        saved = m.mask
        m.mask = saved & (lane < 8 * count)  # the lanes that give a row address
        try:
            buf, first = m.shared.locate(m, op, address, ROW_BYTES)
            per_row = ROW_BYTES // buf.data.itemsize
            elements = [buf.load(m, op, first + e, c.check_races) for e in range(per_row)]
        finally:
            m.mask = saved
        # (warps, matrix, row, 8 halves) as 16-bit patterns
        rows = np.ascontiguousarray(np.stack(elements, axis=1)).view(np.uint16)
        rows = rows.reshape(m.lanes // WARP_SIZE, WARP_SIZE // 8, 8, 8)[:, :count]
        g, q = lane[:WARP_SIZE] // 4, lane[:WARP_SIZE] % 4
        if transposed:
            low, high = rows[:, :, 2 * q, g], rows[:, :, 2 * q + 1, g]
        else:
            low, high = rows[:, :, g, 2 * q], rows[:, :, g, 2 * q + 1]
        # (warps, matrix, lane) -> per lane and register
        words = (low.astype(np.uint32) | (high.astype(np.uint32) << 16)).view(np.int32)
        words = words.transpose(0, 2, 1).reshape(m.lanes, count)
        if count == 1:  # one i32 register, not a struct
            m.env[out] = np.ascontiguousarray(words[:, 0])
            return
        value = np.zeros(m.lanes, result)
        for j in range(count):
            value[f"f{j}"] = words[:, j]
        m.env[out] = value

    return step


@rule("nvvm.cp.async.shared.global")
def _cp_async(op: Operation, c: Compiler) -> Step:
    """Each active lane reads ``cpSize`` (default ``size``) bytes at ``src`` now, in elements of
    the destination buffer's type where they are whole ones, else in bytes (aligned to ``size``
    and inside the source array), zero-fills the rest of ``size`` bytes, and issues the copy to
    ``dst`` (``size``-aligned, inside one shared buffer)."""
    assert isinstance(op, CpAsyncOp)
    size, dst, src, count = op.bytes, op.dst, op.src, op.cpSize
    check = c.check_races

    def step(m: Machine) -> None:
        address, pointer = m.env[dst], m.env[src]
        assert isinstance(address, np.ndarray) and isinstance(pointer, Ptr)
        if not m.mask.any():
            return
        buf, first = m.shared.locate(m, op, address, size)
        dtype = buf.data.dtype
        if size % dtype.itemsize:
            m.fail(op, f"a {size}-byte copy splits the {dtype.name} elements of {buf.name}")
        if count is None:
            read = np.full(m.lanes, size, np.int64)
        else:
            given = m.env[count]
            assert isinstance(given, np.ndarray)
            read = given.astype(np.int64)
            bad = m.mask & ((read < 0) | (read > size))
            if bad.any():
                m.fail(op, f"cpSize {int(read[np.argmax(bad)])} is not in 0 to {size}", bad)
        raw = np.zeros((m.lanes, size), np.uint8)
        saved = m.mask
        try:
            for k in np.unique(read[saved]).tolist():
                if k == 0:
                    continue  # nothing read: the address may be anything
                lanes = saved & (read == k)
                unit = dtype if k % dtype.itemsize == 0 else np.dtype(np.uint8)
                m.mask = lanes
                access = Access("cp.async read", vector=k // unit.itemsize, align=size)
                got = m.memory.load(m, op, pointer, unit, access)
                raw[lanes, :k] = np.ascontiguousarray(got[lanes]).view(np.uint8).reshape(-1, k)
        finally:
            m.mask = saved
        m.async_copies.issue(m, op, buf, first, raw.view(dtype), check)

    return step


@rule("nvvm.cp.async.commit.group")
def _cp_async_commit(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, CpAsyncCommitGroupOp)

    def step(m: Machine) -> None:
        m.async_copies.commit(m)

    return step


@rule("nvvm.cp.async.wait.group")
def _cp_async_wait(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, CpAsyncWaitGroupOp)
    pending = op.pending

    def step(m: Machine) -> None:
        m.async_copies.wait(m, pending)

    return step


@rule("llvm.bitcast", vectors=True)
def _bitcast(op: Operation, c: Compiler) -> Step:
    """An ``i32`` register as the ``vector<2xf16>`` (or ``vector<2xbf16>``) it packs, element 0
    the low half, or such a pair packed back into an ``i32``."""
    assert isinstance(op, llvm.BitcastOp)
    source, out = op.operands[0], op.results[0]
    unpack = source.type == i32 and _pair_dtype(out.type) is not None
    pack = out.type == i32 and _pair_dtype(source.type) is not None
    if not (unpack or pack):
        c.unsupported(op, "only i32 <-> vector<2xf16> (or vector<2xbf16>) bitcasts are modelled")
    pair = _pair_dtype(out.type if unpack else source.type)
    assert pair is not None

    def step(m: Machine) -> None:
        x = m.env[source]
        assert isinstance(x, np.ndarray)
        if unpack:
            m.env[out] = np.ascontiguousarray(x.astype(np.int32)).view(pair).reshape(-1, 2)
        else:
            m.env[out] = np.ascontiguousarray(x.astype(pair)).reshape(-1, 2).view(np.int32)[:, 0]

    return step


def _pair_dtype(t: Attribute) -> np.dtype | None:
    """The element dtype of a vector of two 16-bit floats, else None."""
    if not isinstance(t, VectorType) or t.get_shape() != (2,):
        return None
    row = dtype_table.row_of_ir(t.element_type)
    if row is None or row.kind != "float" or row.bits != 16:
        return None
    return numpy_dtype(t.element_type)  # ml_dtypes' for bf16
