"""``nvvm.wgmma.mma_async``: a warpgroup-wide tensor-core ``D = A @ B + C`` whose A (64 x k)
and B (k x n) are read from shared memory through matrix descriptors (``ptx.wgmma.mma_async``:
A from the threads' registers, ``ptx_wgmma``'s layout); the ``wgmma`` fence,
commit and wait ops, ``nvvm.fence.proxy``; and ``llvm.mlir.undef``/``llvm.insertvalue``, which
build the accumulator struct (``llvm.extractvalue``, in ``rules_atomic``, takes it apart).

Threads ``128G`` to ``128G + 127`` of a block are warpgroup ``G``; all of them execute a
``wgmma`` op together (``warpgroups.check_whole_warpgroups``) and give the same descriptors.
A descriptor (i64) holds the start address (bits 0-13: ``(address & 0x3FFFF) >> 4``), the
leading byte offset (LBO, bits 16-29, ``>> 4``), the stride byte offset (SBO, bits 32-45,
``>> 4``), a base offset (bits 49-51, which must be 0) and the swizzle mode (bits 62-63; gpusim
models mode 1, the 128-byte swizzle, and mode 2, the 64-byte one; below, 128 is the row width
``W`` and 1024 the atom of 8 rows, 512 for mode 2). Addresses are the shared window's, the numbers
``memref.extract_aligned_pointer_as_index`` gives (``SharedMemory.base``). With ``e`` bytes per
element, element ``[m, k]`` of A (K-major) is at ``start + (m // 8) SBO + (m % 8) 128 + k e``,
element ``[k, n]`` of a K-major B (``layoutB = col``) at ``start + (n // 8) SBO + (n % 8) 128 +
k e``, and of an MN-major B (``layoutB = row``) at ``start + (n // E) LBO + (k // 8) SBO + (k %
8) 128 + (n % E) e`` with ``E = 128 / e``; then the swizzle XORs address bits 4-6 with bits 7-9
(mode 2: bits 4-5 with bits 7-8, CUTLASS's ``Swizzle<2,4,3>``). The swizzle pattern repeats
every atom, so a matrix must start in the first row of an aligned atom (a start 32, 64 or 96
bytes into the row, the later k steps of a tile, is fine): anything else is an error, not a
guess.

The rule reads A and B when the ``wgmma`` is issued, as loads of the warpgroup's threads (each
element by one of them: the race checks see them), computes ``D`` in float64 (f16, bf16 and fp8
products are exact; tf32 operands are their f32 bits' upper 19, ``& 0xFFFFE000``, as for
``mma.sync``) rounded once to f32, or exactly in int64 wrapped to int32 (s8), and returns the
accumulator struct: field ``4j + 2h + e`` of thread ``t`` (``w = t // 32``, ``g = (t % 32) //
4``, ``q = t % 4``) is ``D[16w + g + 8h][8j + 2q + e]``, the layout an H200 showed. The result
is in flight until a wait retires its group, and the tiles it read must not change until then
(``warpgroups``: what is checked, and how).

``nvvm.fence.proxy`` is a no-op: the simulator has one memory, which ``wgmma`` reads as directly
as loads do, so ordering generic-proxy writes before async-proxy reads changes nothing here (the
barrier after it is what the race checks require; a missing proxy fence is not detected).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import llvm
from xdsl.ir import Attribute, Operation

from mytriton.backends.gpusim.compiler import Compiler
from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.backends.gpusim.errors import SimulationError
from mytriton.backends.gpusim.machine import Machine, Step
from mytriton.backends.gpusim.registry import rule
from mytriton.backends.gpusim.rules_nvvm import FP8_OPERAND_FORMATS, TF32_MASK
from mytriton.backends.gpusim.warpgroups import (
    GROUP_FIELD,
    SETTLED,
    WARPGROUP_SIZE,
    check_whole_warpgroups,
    scalar_fields,
    struct_dtype,
)
from mytriton.dialects.nvgpu.ptx_wgmma import A_REGISTERS, WgmmaRegisterAOp
from mytriton.dialects.nvgpu.wgmma import (
    WGMMA_FORMS,
    WGMMA_M,
    FenceProxyOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaFenceAlignedOp,
    WgmmaForm,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupSyncAlignedOp,
)
from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.semantics import bfloat16_dtype

Array = np.ndarray
ATOM_ROWS = 8  # rows of a swizzle atom (the pattern's period)
ROW_BYTES = {1: 128, 2: 64}  # the swizzled row width of each mode gpusim models
#: descriptor bits that hold a field (start, LBO, SBO, base offset, swizzle); the rest are 0
FIELD_BITS = 0x3FFF | 0x3FFF << 16 | 0x3FFF << 32 | 0x7 << 49 | 0x3 << 62


def swizzle(address: Array, row_bytes: Array | int) -> Array:
    """The swizzle of rows ``row_bytes`` wide (128 or 64): address bits 4 and up XOR bits 7
    and up, as many as a row has 16-byte chunks (3 bits, or 2): the chunk within a row
    permuted by the row's place within its 8-row atom."""
    return address ^ (((address >> 7) & (np.asarray(row_bytes) // 16 - 1)) << 4)


def _to_unsigned(x: Array) -> Array:
    return np.ascontiguousarray(x.astype(np.int64)).view(np.uint64)


def decode_descriptors(
    m: Machine, op: Operation, which: str, value: Array, groups: Array
) -> tuple[Array, Array, Array, Array]:
    """(start address, LBO, SBO, swizzled row width) in bytes per warpgroup (the ``groups``
    that execute the op), checking that every thread of a warpgroup gives the same descriptor
    and that gpusim models it (128- or 64-byte swizzle, base offset 0, no other bits, a start
    in an atom's first row)."""
    per_group = value.astype(np.int64).reshape(-1, WARPGROUP_SIZE)
    first = per_group[:, 0]
    differs = groups[:, None] & (per_group != first[:, None])
    if differs.any():
        lane = int(np.argmax(differs.reshape(-1)))
        leader = lane - lane % WARPGROUP_SIZE
        m.fail(
            op,
            f"descriptor {which} differs between threads of a warpgroup ({int(value[lane]):#x} "
            f"in this thread, {int(value[leader]):#x} in thread {int(m.tid[leader])}): a wgmma "
            "needs it uniform across the warpgroup",
            m.lane_mask(lane),
        )
    bits = _to_unsigned(first)
    start = ((bits & 0x3FFF) << 4).astype(np.int64)
    lbo = (((bits >> 16) & 0x3FFF) << 4).astype(np.int64)
    sbo = (((bits >> 32) & 0x3FFF) << 4).astype(np.int64)
    base_offset = ((bits >> 49) & 7).astype(np.int64)
    mode = (bits >> 62).astype(np.int64)
    row = np.array([ROW_BYTES.get(int(x), 0) for x in mode], np.int64)
    checks = (
        (
            row == 0,
            lambda g: (
                f"swizzle mode {int(mode[g])} (bits 62-63) is unsupported: gpusim models "
                "modes 1 and 2, the 128- and 64-byte swizzles"
            ),
        ),
        (
            base_offset != 0,
            lambda g: (
                f"base offset {int(base_offset[g])} (bits 49-51) is unsupported: it must be 0"
            ),
        ),
        (
            (bits & np.uint64(~FIELD_BITS & (2**64 - 1))) != 0,
            lambda g: "bits outside the start, LBO, SBO, base offset and swizzle fields are set",
        ),
        (
            (row > 0) & ((start & (ATOM_ROWS * row - row)) != 0),
            lambda g: (
                f"the start address {int(start[g])} is {int(start[g]) % (ATOM_ROWS * row[g])} "
                f"bytes into its {ATOM_ROWS * row[g]}-byte swizzle atom: a swizzled matrix must "
                f"start in the first {row[g]}-byte row of an aligned atom"
            ),
        ),
    )
    for bad, message in checks:
        bad = groups & bad
        if bad.any():
            g = int(np.argmax(bad))
            lanes = np.zeros(m.lanes, np.bool_)
            lanes[g * WARPGROUP_SIZE : (g + 1) * WARPGROUP_SIZE] = True
            m.fail(op, f"descriptor {which} ({int(first[g]):#x}): {message(g)}", lanes & m.mask)
    return start, lbo, sbo, row


def a_addresses(form: WgmmaForm, start: Array, sbo: Array, row: Array) -> Array:
    """The swizzled byte address of each element ``[m, k]`` of A (K-major, rows ``row``
    bytes wide), per warpgroup: shape (warpgroups, 64, k)."""
    m = np.arange(WGMMA_M)[None, :, None]
    k = np.arange(form.k)[None, None, :]
    w = row[:, None, None]
    at = start[:, None, None] + (m // 8) * sbo[:, None, None] + (m % 8) * w
    return swizzle(at + k * form.element_bytes, w)


def b_addresses(
    form: WgmmaForm, n: int, mn_major: bool, start: Array, lbo: Array, sbo: Array, row: Array
) -> Array:
    """The swizzled byte address of each element ``[k, n]`` of B (rows ``row`` bytes wide),
    per warpgroup: shape (warpgroups, k, n)."""
    k = np.arange(form.k)[None, :, None]
    j = np.arange(n)[None, None, :]
    e = form.element_bytes
    s, lead, stride = start[:, None, None], lbo[:, None, None], sbo[:, None, None]
    w = row[:, None, None]
    if mn_major:
        per_row = w // e  # E: elements of one swizzled row
        at = s + (j // per_row) * lead + (k // 8) * stride + (k % 8) * w
        return swizzle(at + (j % per_row) * e, w)
    return swizzle(s + (j // 8) * stride + (j % 8) * w + k * e, w)


def _operand_dtype(form: WgmmaForm) -> np.dtype:
    """The NumPy type of the operand's elements as stored (tf32: f32; fp8: ``_exact`` decodes
    their bytes)."""
    return {
        "f16": np.dtype(np.float16),
        "bf16": bfloat16_dtype(),
        "tf32": np.dtype(np.float32),
        "s8": np.dtype(np.int8),
    }[form.operand]


def _exact(form: WgmmaForm, raw: Array) -> Array:
    """Operand elements (their bits in any dtype of their size) as the tensor core reads them:
    float64 (tf32: the upper 19 bits of the f32; fp8 decoded), int64 for s8."""
    fp8 = FP8_OPERAND_FORMATS.get(form.operand)
    if fp8 is not None:
        return tt_fp8.decode_bytes(np.ascontiguousarray(raw).view(np.uint8), fp8).astype(np.float64)
    values = np.ascontiguousarray(raw).view(_operand_dtype(form))
    if form.operand == "s8":
        return values.astype(np.int64)
    if form.operand == "tf32":
        values = (values.view(np.uint32) & TF32_MASK).view(np.float32)
    return values.astype(np.float64)


def read_operand(
    m: Machine,
    op: Operation,
    which: str,
    form: WgmmaForm,
    addresses: Array,
    groups: Array,
    check_races: bool,
) -> Array:
    """The elements at ``addresses`` (warpgroups, ...) of the executing warpgroups, read as
    loads by their threads (element ``i`` of a warpgroup's operand by its thread ``i % 128``)
    and recorded as in flight until the wgmma's group retires: float64 or int64, of the
    addresses' shape (zeros for other warpgroups)."""
    shape = addresses.shape
    flat = addresses.reshape(shape[0], -1)
    count = flat.shape[1]
    rounds = -(-count // WARPGROUP_SIZE)
    padded = np.zeros((shape[0], rounds * WARPGROUP_SIZE), np.int64)
    padded[:, :count] = flat
    valid = np.zeros(padded.shape, np.bool_)
    valid[:, :count] = groups[:, None]
    # which buffer holds each element
    shared = m.shared
    names = sorted(shared.buffers, key=lambda name: shared.base[name])
    bases = np.array([shared.base[name] for name in names], np.int64)
    ends = bases + np.array([shared.buffers[name].nbytes for name in names], np.int64)
    index = np.searchsorted(bases, padded, side="right") - 1
    inside = (index >= 0) & (padded < ends[np.maximum(index, 0)])
    e = form.element_bytes
    for bad, why in (
        (valid & ~inside, "is outside every shared buffer"),
        (valid & inside & (padded % e != 0), f"is not aligned to its {e}-byte element"),
    ):
        if bad.any():
            g, i = np.unravel_index(int(np.argmax(bad)), bad.shape)
            where = np.unravel_index(int(i), shape[1:])
            m.fail(
                op,
                f"element {list(map(int, where))} of operand {which} at shared address "
                f"{int(padded[g, i])} {why}",
                m.lane_mask(int(g) * WARPGROUP_SIZE),
            )

    # (rounds, warpgroups, 128): round r's elements, one per lane
    def by_round(x: Array) -> Array:
        return np.ascontiguousarray(x.reshape(shape[0], rounds, WARPGROUP_SIZE).swapaxes(0, 1))

    out = np.zeros((rounds, shape[0], WARPGROUP_SIZE), np.int64 if form.integer else np.float64)
    saved = m.mask
    try:
        for b, name in enumerate(names):
            mine = by_round(valid & (index == b))
            if not mine.any():
                continue
            buf = shared.buffers[name]
            if buf.data.dtype.itemsize != e:
                _, g, _ = np.unravel_index(int(np.argmax(mine)), mine.shape)
                m.fail(
                    op,
                    f"operand {which} ({form.operand}, {e}-byte elements) lies in {name}, a "
                    f"buffer of {buf.data.dtype.name} elements",
                    m.lane_mask(int(g) * WARPGROUP_SIZE),
                )
            element = by_round((padded - shared.base[name]) // e)
            for r in range(rounds):
                m.mask = mine[r].reshape(-1)
                if not m.mask.any():
                    continue
                lin = np.where(m.mask, element[r].reshape(-1), 0)
                raw = buf.load(m, op, lin, check_races)
                lanes = np.flatnonzero(m.mask)
                out[r].reshape(-1)[lanes] = _exact(form, raw[lanes])
                m.wgmma.record_reads(op, buf, m.prog[lanes], lin[lanes], lanes, check_races)
    finally:
        m.mask = saved
    flat_out = out.swapaxes(0, 1).reshape(shape[0], -1)
    return flat_out[:, :count].reshape(shape)


def accumulator_positions(n: int) -> tuple[Array, Array]:
    """(row, column) of D each thread's struct field holds: arrays of shape (128, n / 2);
    field ``4j + 2h + e`` of thread ``t`` is ``[16w + g + 8h][8j + 2q + e]``."""
    t = np.arange(WARPGROUP_SIZE)[:, None]
    w, lane = t // 32, t % 32
    g, q = lane // 4, lane % 4
    i = np.arange(n // 2)[None, :]
    j, h, e = i // 4, (i // 2) % 2, i % 2
    return 16 * w + g + 8 * h, 8 * j + 2 * q + e


def _accumulate(
    m: Machine,
    form: WgmmaForm,
    n: int,
    add_c: bool,
    c_struct: Array,
    a: Array,
    b: Array,
    groups: Array,
    group_of: Array,
) -> Array:
    """The result struct of a ``wgmma`` of the executing warpgroups (``groups``): ``a @ b``
    (per warpgroup, exact) plus C's fields where ``add_c``, rounded once to the accumulator
    type and stamped with each lane's group (other lanes keep C's fields)."""
    rows, cols = accumulator_positions(n)
    fields = n // 2
    acc_dtype = np.dtype(np.int32 if form.integer else np.float32)
    names = scalar_fields(c_struct)
    result = np.zeros(m.lanes, struct_dtype([acc_dtype] * fields))
    for i in range(fields):
        result[f"f{i}"] = c_struct[names[i]]  # inactive lanes keep their value
    has_stamp = GROUP_FIELD in (c_struct.dtype.names or ())
    result[GROUP_FIELD] = c_struct[GROUP_FIELD] if has_stamp else SETTLED
    if not groups.any():
        return result
    exact = np.int64 if form.integer else np.float64
    c_values = np.stack([result[f"f{i}"] for i in range(fields)], axis=1).astype(exact)
    c_values = c_values.reshape(-1, WARPGROUP_SIZE, fields)[groups]
    d = np.zeros((int(groups.sum()), WGMMA_M, n), exact)
    if add_c:
        d[:, rows, cols] = c_values
    with np.errstate(all="ignore"):
        d = a[groups] @ b[groups] + d  # int64 holds any sum of s8 products plus an i32
        d_fields = d[:, rows, cols].astype(acc_dtype)  # s8: wraps to int32
    lanes = np.repeat(groups, WARPGROUP_SIZE)
    d_fields = d_fields.reshape(-1, fields)
    for i in range(fields):
        result[f"f{i}"][lanes] = d_fields[:, i]
    result[GROUP_FIELD][lanes] = group_of[lanes]
    return result


@rule("nvvm.wgmma.mma_async")
def _wgmma(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, WgmmaMmaAsyncOp)
    form, n = op.form, op.n
    mn_major, add_c = op.b_mn_major, op.adds_accumulator
    acc, desc_a, desc_b, out = op.inouts, op.descriptorA, op.descriptorB, op.res
    check = c.check_races

    def step(m: Machine) -> None:
        what = "nvvm.wgmma.mma_async"
        check_whole_warpgroups(m, op, what)
        # the executing warpgroups
        groups = np.asarray(m.mask.reshape(-1, WARPGROUP_SIZE).all(axis=1))
        c_struct = m.env[acc]
        da, db = m.env[desc_a], m.env[desc_b]
        assert isinstance(c_struct, np.ndarray) and isinstance(da, np.ndarray)
        assert isinstance(db, np.ndarray)
        start_a, _, sbo_a, row_a = decode_descriptors(m, op, "A", da, groups)
        start_b, lbo_b, sbo_b, row_b = decode_descriptors(m, op, "B", db, groups)
        group_of = m.wgmma.issue(m, op)
        a_at = a_addresses(form, start_a, sbo_a, row_a)
        a = read_operand(m, op, "A", form, a_at, groups, check)
        b_at = b_addresses(form, n, mn_major, start_b, lbo_b, sbo_b, row_b)
        b = read_operand(m, op, "B", WGMMA_FORMS[op.b_type], b_at, groups, check)
        m.env[out] = _accumulate(m, form, n, add_c, c_struct, a, b, groups, group_of)

    return step


def register_a_positions() -> tuple[Array, Array, Array]:
    """Where each thread's A registers go in the 64 x 16 A tile: (row, column of the low half)
    of register ``i`` of thread ``t``, shapes (128, 4): ``[16w + g + 8 (i % 2)][2q + 8 (i //
    2)]``, the high half the next column."""
    t = np.arange(WARPGROUP_SIZE)[:, None]
    w, lane = t // 32, t % 32
    g, q = lane // 4, lane % 4
    i = np.arange(A_REGISTERS)[None, :]
    rows = 16 * w + g + 8 * (i % 2)
    cols = 2 * q + 8 * (i // 2)
    return np.broadcast_to(rows, (WARPGROUP_SIZE, A_REGISTERS)), cols, i


@rule("ptx.wgmma.mma_async")
def _wgmma_register_a(op: Operation, c: Compiler) -> Step:
    """A warpgroup MMA whose A comes from the threads' registers (``ptx_wgmma``), B through
    its descriptor as for ``nvvm.wgmma.mma_async``."""
    assert isinstance(op, WgmmaRegisterAOp)
    form, n = op.form, op.n
    mn_major, add_c = op.b_mn_major, op.adds_accumulator
    acc, registers, desc_b, out = op.inouts, list(op.a), op.descriptorB, op.res
    check = c.check_races
    rows, cols, _ = register_a_positions()
    element = _operand_dtype(form)

    def step(m: Machine) -> None:
        what = "ptx.wgmma.mma_async"
        check_whole_warpgroups(m, op, what)
        groups = np.asarray(m.mask.reshape(-1, WARPGROUP_SIZE).all(axis=1))
        c_struct, db = m.env[acc], m.env[desc_b]
        assert isinstance(c_struct, np.ndarray) and isinstance(db, np.ndarray)
        start_b, lbo_b, sbo_b, row_b = decode_descriptors(m, op, "B", db, groups)
        group_of = m.wgmma.issue(m, op)
        # (warpgroups, 128, 4) register words -> their two 16-bit halves
        words = np.stack([np.asarray(m.env[r]) for r in registers], axis=1).astype(np.int64)
        words = (words & 0xFFFFFFFF).reshape(-1, WARPGROUP_SIZE, A_REGISTERS)
        halves = [(words & 0xFFFF).astype(np.uint16), (words >> 16).astype(np.uint16)]
        a = np.zeros((words.shape[0], WGMMA_M, form.k), np.float64)
        for e, half in enumerate(halves):
            a[:, rows, cols + e] = half.view(element).astype(np.float64)
        b_at = b_addresses(form, n, mn_major, start_b, lbo_b, sbo_b, row_b)
        b = read_operand(m, op, "B", WGMMA_FORMS[op.b_type], b_at, groups, check)
        m.env[out] = _accumulate(m, form, n, add_c, c_struct, a, b, groups, group_of)

    return step


@rule("nvvm.wgmma.fence.aligned")
def _wgmma_fence(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, WgmmaFenceAlignedOp)

    def step(m: Machine) -> None:
        check_whole_warpgroups(m, op, "nvvm.wgmma.fence.aligned")
        m.wgmma.fence(m)

    return step


@rule("nvvm.wgmma.commit.group.sync.aligned")
def _wgmma_commit(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, WgmmaCommitGroupSyncAlignedOp)

    def step(m: Machine) -> None:
        check_whole_warpgroups(m, op, "nvvm.wgmma.commit.group.sync.aligned")
        m.wgmma.commit(m)

    return step


@rule("nvvm.wgmma.wait.group.sync.aligned")
def _wgmma_wait(op: Operation, c: Compiler) -> Step:
    assert isinstance(op, WgmmaWaitGroupSyncAlignedOp)
    pending = op.pending

    def step(m: Machine) -> None:
        check_whole_warpgroups(m, op, "nvvm.wgmma.wait.group.sync.aligned")
        m.wgmma.wait(m, pending)

    return step


@rule("nvvm.fence.proxy")
def _fence_proxy(op: Operation, c: Compiler) -> Step:
    """A no-op: the simulator's one memory has no separate async proxy (module doc)."""
    assert isinstance(op, FenceProxyOp)

    def step(m: Machine) -> None:
        pass

    return step


def _scalar_dtypes(c: Compiler, op: Operation, t: Attribute) -> list[np.dtype]:
    """The field dtypes of a struct of scalars (what gpusim models of structs)."""
    fields = list(t.types.data) if isinstance(t, llvm.LLVMStructType) else []
    try:
        dtypes = [dtype_of(f) for f in fields]
    except SimulationError:
        dtypes = []
    if not dtypes:
        c.unsupported(op, f"only structs of scalars are modelled, not {t}")
    return dtypes


@rule("llvm.mlir.undef")
def _undef(op: Operation, c: Compiler) -> Step:
    """An undefined scalar or struct of scalars: zeros (any value is a valid undef)."""
    assert isinstance(op, llvm.UndefOp)
    out = op.res
    t = out.type
    if isinstance(t, llvm.LLVMStructType):
        dtype = struct_dtype(_scalar_dtypes(c, op, t))
    else:
        try:
            dtype = dtype_of(t)
        except SimulationError:
            c.unsupported(op, f"only scalars and structs of scalars are modelled, not {t}")

    def step(m: Machine) -> None:
        value = np.zeros(m.lanes, dtype)
        if dtype.names is not None:
            value[GROUP_FIELD] = SETTLED
        m.env[out] = value

    return step


@rule("llvm.insertvalue")
def _insertvalue(op: Operation, c: Compiler) -> Step:
    """A struct of scalars with one field replaced (reading the struct: a wgmma result only
    once its group retired)."""
    assert isinstance(op, llvm.InsertValueOp)
    dtypes = _scalar_dtypes(c, op, op.container.type)
    position = list(op.position.iter_values())
    if len(position) != 1 or not 0 <= position[0] < len(dtypes):
        c.unsupported(op, f"position {position} is not a field of {op.container.type}")
    index = position[0]
    container, value, out = op.container, op.value, op.res

    def step(m: Machine) -> None:
        struct, v = m.env[container], m.env[value]
        assert isinstance(struct, np.ndarray) and isinstance(v, np.ndarray)
        m.wgmma.check_settled(m, op, struct)
        names = scalar_fields(struct)
        result = struct.copy()
        result[names[index]] = v.astype(dtypes[index])
        m.env[out] = result

    return step
