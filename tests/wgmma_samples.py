"""Hand-built lowered kernels around ``nvvm.wgmma.mma_async``, and their NumPy reference.

Shared by the gpusim, CUDA printer and MLIR tests, so all three see the same IR. The kernel
``wgmma(a, b, c, d)`` runs one warpgroup (128 threads) per program, program ``p`` on tile ``p``
of A (64 x K, row-major), B (K x N, row-major), C and D (64 x N, row-major):

1. the threads copy A and B into 1024-byte aligned shared buffers in the 128-byte swizzled
   layout (``swizzled_offset``): A as 64 rows of K, B MN-major as K rows of N, or K-major as N
   rows of K (B transposed);
2. ``nvvm.fence.proxy`` and a barrier make them visible to the async proxy;
3. each thread builds its accumulator struct (``llvm.mlir.undef`` and ``llvm.insertvalue``) from
   C at its fragment positions (field ``4j + 2h + e``: ``[16w + g + 8h][8j + 2q + e]``);
4. after ``nvvm.wgmma.fence.aligned``, one ``wgmma`` per K step, chained through the
   accumulator, with the descriptors of the step (``descriptor_offsets``), then
   ``nvvm.wgmma.commit.group.sync.aligned`` and ``nvvm.wgmma.wait.group.sync.aligned 0``
   (``pipelined``: each step committed as its own group and waited for with ``wait 1``, the
   last with ``wait 0``);
5. each thread stores its fields (``llvm.extractvalue``) to D.

These are the cases an H200 ran with nvcc and real wgmma (``HARDWARE_CASES``). ``WgmmaOptions``
builds the mistakes the gpusim tests expect errors for.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, gpu, llvm, memref
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    ModuleOp,
    bf16,
    f16,
    f32,
    i8,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from mytriton.dialects.nvgpu.wgmma import (
    WGMMA_FORMS,
    WGMMA_M,
    FenceProxyOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaFenceAlignedOp,
    WgmmaMmaAsyncOp,
    WgmmaWaitGroupSyncAlignedOp,
)
from mytriton.dialects.tt.semantics import bfloat16_dtype
from tests.gpu_ir_samples import KernelBuilder, Ptr

# the element type of the kernel's A and B pointers (fp8: their bytes)
ELEMENTS: dict[str, Attribute] = {
    "f16": f16,
    "bf16": bf16,
    "tf32": f32,
    "s8": i8,
    "e4m3": i8,
    "e5m2": i8,
}
FP8_DTYPES = {"e4m3": "float8_e4m3fn", "e5m2": "float8_e5m2"}  # ml_dtypes' names
WARPGROUP = 128
SWIZZLE_128B = 1 << 62


@dataclass(frozen=True)
class WgmmaCase:
    """One kernel shape: the operand type, N, the K of the whole tile, B's major-ness."""

    operand: str
    n: int
    k: int
    b_mn_major: bool

    @property
    def id(self) -> str:
        return f"{self.operand}-n{self.n}-k{self.k}-{'mn' if self.b_mn_major else 'k'}major"


#: the cases verified on an H200 (nvcc, real wgmma)
HARDWARE_CASES = [
    WgmmaCase("f16", 64, 64, True),
    WgmmaCase("f16", 256, 64, True),
    WgmmaCase("f16", 128, 64, False),
    WgmmaCase("bf16", 128, 128, True),
    WgmmaCase("tf32", 64, 32, False),
    WgmmaCase("tf32", 128, 64, False),
    WgmmaCase("s8", 64, 128, False),
    WgmmaCase("e4m3", 64, 128, False),
    WgmmaCase("e5m2", 128, 128, False),
]


def element_bytes(operand: str) -> int:
    return WGMMA_FORMS[operand].element_bytes


def swizzled_offset(r: np.ndarray, c: np.ndarray, rows: int, ebytes: int) -> np.ndarray:
    """The element offset of ``[r, c]`` of an R x C tile whose C dimension is contiguous, in
    the 128-byte swizzled layout: ``(c // E) (R E) + r E + (((c % E) // V) ^ (r % 8)) V + c %
    V``, ``E = 128 / ebytes`` elements per 128-byte row, ``V = 16 / ebytes`` per 16-byte chunk."""
    e, v = 128 // ebytes, 16 // ebytes
    return (c // e) * (rows * e) + r * e + (((c % e) // v) ^ (r % 8)) * v + c % v


def descriptor_offsets(case: WgmmaCase, k0: int) -> tuple[int, int, int, int]:
    """(A start offset, B start offset, B LBO, B SBO) in bytes for the K step at ``k0`` (A's
    LBO is 16, its SBO 1024)."""
    eb = element_bytes(case.operand)
    e = 128 // eb
    a = (k0 // e) * WGMMA_M * 128 + (k0 % e) * eb
    if case.b_mn_major:
        return a, k0 * 128, case.k * 128, 1024
    return a, (k0 // e) * case.n * 128 + (k0 % e) * eb, 16, 1024


@dataclass(frozen=True)
class WgmmaOptions:
    """Deviations from the correct kernel (the gpusim tests' mistakes)."""

    block: int = WARPGROUP
    active: int | None = None  #: only threads below it run the wgmma part (scf.if)
    skew_a: int = 0  #: bytes added to A's start address
    skew_b_upper: int = 0  #: bytes added to B's start address in threads 64 and up
    swizzle: int = SWIZZLE_128B  #: the swizzle bits of the descriptors
    fence: bool = True  #: a wgmma.fence before the first wgmma
    read_before_wait: bool = False  #: extract the results before the wait
    pipelined: bool = False  #: commit each step, wait 1 (the last: wait 0)
    overwrite_in_flight: bool = False  #: store to the A tile before the wait
    #: store to the A tile after the wait (each thread the element its own lane read), with a
    #: barrier between them or none
    overwrite_after_wait: bool = False
    barrier_before_overwrite: bool = False
    commit: bool = True  #: the commit after the wgmma ops (not pipelined)
    wait: bool = True  #: any wait (and read of the results) at all: else the kernel ends with
    #: the wgmma in flight


def wgmma_module(case: WgmmaCase, options: WgmmaOptions | None = None) -> ModuleOp:
    """The kernel ``wgmma(a, b, c, d)`` of the module doc."""
    o = options or WgmmaOptions()
    form = WGMMA_FORMS[case.operand]
    element = ELEMENTS[case.operand]
    acc_type = form.accumulator
    eb = form.element_bytes
    n, k_total = case.n, case.k
    b = KernelBuilder(
        "wgmma",
        [("a", Ptr(element)), ("b", Ptr(element)), ("c", Ptr(acc_type)), ("d", Ptr(acc_type))],
        block=o.block,
        def_line=30,
    )

    def c32(v: int) -> SSAValue:
        return b.const(v)

    def c64(v: int) -> SSAValue:
        return b.const(v, i64)

    def i32_op(cls: type, x: SSAValue, y: SSAValue | int) -> SSAValue:
        return b.op(cls(x, c32(y) if isinstance(y, int) else y))

    def i64_op(cls: type, x: SSAValue, y: SSAValue | int) -> SSAValue:
        return b.op(cls(x, c64(y) if isinstance(y, int) else y))

    def stage(
        smem: SSAValue, src: str, tile_base: SSAValue, rows: int, cols: int, transposed: bool
    ) -> None:
        """Copy the tile into ``smem`` swizzled, element ``i = r * cols + c`` of the R x C tile
        by thread ``i % 128`` (``transposed``: the tile is the source's transpose, element
        ``[r, c]`` from ``src[c * rows + r]``)."""
        e, v = 128 // eb, 16 // eb
        total = rows * cols
        assert total % WARPGROUP == 0
        _, body = b.for_(c32(0), c32(total), c32(WARPGROUP), [])
        with b.inside(body):
            i = i32_op(arith.AddiOp, body.args[0], tid)
            r, c = i32_op(arith.DivUIOp, i, cols), i32_op(arith.RemUIOp, i, cols)
            source = i32_op(arith.AddiOp, i32_op(arith.MuliOp, c, rows), r) if transposed else i
            value = b.load(b.gep(b[src], i32_op(arith.AddiOp, tile_base, source), element), element)
            chunk = i32_op(arith.DivUIOp, i32_op(arith.RemUIOp, c, e), v)
            swizzled = i32_op(arith.XOrIOp, chunk, i32_op(arith.RemUIOp, r, 8))
            offset = i32_op(arith.MuliOp, i32_op(arith.DivUIOp, c, e), rows * e)
            offset = i32_op(arith.AddiOp, offset, i32_op(arith.MuliOp, r, e))
            offset = i32_op(arith.AddiOp, offset, i32_op(arith.MuliOp, swizzled, v))
            offset = i32_op(arith.AddiOp, offset, i32_op(arith.RemUIOp, c, v))
            b.op(memref.StoreOp.get(value, smem, [b.op(arith.IndexCastOp(offset, IndexType()))]))
            b.yield_()

    def descriptor(address: SSAValue, offset: int, lbo: int, sbo: int) -> SSAValue:
        start = i64_op(arith.AddiOp, address, offset)
        field = i64_op(arith.ShRUIOp, i64_op(arith.AndIOp, start, 0x3FFFF), 4)
        return i64_op(arith.OrIOp, field, (lbo >> 4) << 16 | (sbo >> 4) << 32 | o.swizzle)

    with b.at(31):
        tid = b.tid()
        pid = b.program_id()
        a_smem = b.shared("a_tile", [WGMMA_M * k_total], element, alignment=1024)
        b_smem = b.shared("b_tile", [k_total * n], element, alignment=1024)
    with b.at(32):
        stage(a_smem, "a", i32_op(arith.MuliOp, pid, WGMMA_M * k_total), WGMMA_M, k_total, False)
        b_base = i32_op(arith.MuliOp, pid, k_total * n)
        if case.b_mn_major:
            stage(b_smem, "b", b_base, k_total, n, False)
        else:
            stage(b_smem, "b", b_base, n, k_total, True)
        b.op(FenceProxyOp())
        b.op(gpu.BarrierOp())

    def addresses() -> tuple[SSAValue, SSAValue]:
        out = []
        for smem in (a_smem, b_smem):
            index = b.op(memref.ExtractAlignedPointerAsIndexOp.get(smem))
            out.append(b.op(arith.IndexCastOp(index, i64)))
        if o.skew_b_upper:
            upper = b.op(arith.CmpiOp(tid, c32(64), "sge"))
            skewed = i64_op(arith.AddiOp, out[1], o.skew_b_upper)
            out[1] = b.op(arith.SelectOp(upper, skewed, out[1]))
        return out[0], out[1]

    def multiply() -> None:
        with b.at(33):
            warp = i32_op(arith.ShRUIOp, tid, 5)
            w = i32_op(arith.AndIOp, warp, 3)
            lane = i32_op(arith.AndIOp, tid, 31)
            g = i32_op(arith.ShRUIOp, lane, 2)
            q = i32_op(arith.AndIOp, lane, 3)
            row0 = i32_op(arith.AddiOp, i32_op(arith.MuliOp, w, 16), g)
            col0 = i32_op(arith.MuliOp, q, 2)
            tile = i32_op(arith.MuliOp, pid, WGMMA_M * n)
            positions = []
            for i in range(n // 2):
                j, h, e = i // 4, (i // 2) % 2, i % 2
                row = i32_op(arith.AddiOp, row0, 8 * h)
                col = i32_op(arith.AddiOp, col0, 8 * j + e)
                at = i32_op(arith.AddiOp, i32_op(arith.MuliOp, row, n), col)
                positions.append(i32_op(arith.AddiOp, tile, at))
            acc = b.op(llvm.UndefOp(form.result(n)), "acc")
            for i, at in enumerate(positions):
                value = b.load(b.gep(b["c"], at, acc_type), acc_type)
                acc = b.op(llvm.InsertValueOp(DenseArrayBase.from_list(i64, [i]), acc, value))
        with b.at(34):
            address_a, address_b = addresses()
            steps = list(range(0, k_total, form.k))
            if o.fence:
                b.op(WgmmaFenceAlignedOp())
            for s, k0 in enumerate(steps):
                off_a, off_b, lbo, sbo = descriptor_offsets(case, k0)
                desc_a = descriptor(address_a, off_a + o.skew_a, 16, 1024)
                desc_b = descriptor(address_b, off_b, lbo, sbo)
                mma = WgmmaMmaAsyncOp(acc, desc_a, desc_b, n, case.operand, case.b_mn_major)
                acc = b.op(mma, "acc")
                if o.pipelined:
                    b.op(WgmmaCommitGroupSyncAlignedOp())
                    last = s == len(steps) - 1
                    if o.wait:
                        b.op(WgmmaWaitGroupSyncAlignedOp(0 if last else 1))
                    if not last:
                        b.op(WgmmaFenceAlignedOp())
            if not o.pipelined and o.commit:
                b.op(WgmmaCommitGroupSyncAlignedOp())
            if o.overwrite_in_flight:
                index = b.op(arith.IndexCastOp(tid, IndexType()))
                b.op(memref.StoreOp.get(b.const(0, element), a_smem, [index]))
        if not o.wait:
            return  # nothing reads the results: the kernel ends with the wgmma in flight
        with b.at(35):
            fields = []
            wait_here = not o.pipelined and o.wait
            if wait_here and not o.read_before_wait:
                b.op(WgmmaWaitGroupSyncAlignedOp(0))
            if o.overwrite_after_wait:
                if o.barrier_before_overwrite:
                    b.op(gpu.BarrierOp())
                index = b.op(arith.IndexCastOp(tid, IndexType()))
                b.op(memref.StoreOp.get(b.const(0, element), a_smem, [index]))
            for i in range(n // 2):
                position = DenseArrayBase.from_list(i64, [i])
                fields.append(b.op(llvm.ExtractValueOp(position, acc, acc_type)))
            if wait_here and o.read_before_wait:
                b.op(WgmmaWaitGroupSyncAlignedOp(0))
            for value, at in zip(fields, positions, strict=True):
                b.store(value, b.gep(b["d"], at, acc_type))

    if o.active is None:
        multiply()
    else:
        with b.at(33):
            _, then, _ = b.if_(b.op(arith.CmpiOp(tid, c32(o.active), "slt")))
        with b.inside(then):
            multiply()
            b.yield_()
    with b.at(36):
        b.op(gpu.ReturnOp([]))
    return b.build()


def wgmma_inputs(
    case: WgmmaCase, tiles: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random A (tiles, 64, K), B (tiles, K, N) of the operand type and C (tiles, 64, N); tf32
    elements use all 23 mantissa bits (truncation shows), s8 C near the top of int32 (sums
    wrap)."""
    shape_a, shape_b, shape_c = (
        (tiles, WGMMA_M, case.k),
        (tiles, case.k, case.n),
        (tiles, WGMMA_M, case.n),
    )
    if case.operand == "s8":
        a = rng.integers(-128, 128, shape_a, dtype=np.int8)
        b = rng.integers(-128, 128, shape_b, dtype=np.int8)
        c = rng.integers(2**31 - 2_000_000, 2**31, shape_c, dtype=np.int64).astype(np.int32)
        return a, b, c
    if case.operand in FP8_DTYPES:
        import ml_dtypes

        dtype = np.dtype(getattr(ml_dtypes, FP8_DTYPES[case.operand]))
    else:
        dtype = {
            "f16": np.dtype(np.float16),
            "bf16": bfloat16_dtype(),
            "tf32": np.dtype(np.float32),
        }[case.operand]
    a = rng.standard_normal(shape_a).astype(dtype)
    b = rng.standard_normal(shape_b).astype(dtype)
    c = rng.standard_normal(shape_c).astype(np.float32)
    return a, b, c


def tf32(x: np.ndarray) -> np.ndarray:
    """f32 values as the tensor core reads them: the upper 19 bits."""
    return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)


def wgmma_reference(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, *, tf32_inputs: bool
) -> np.ndarray:
    """``a @ b + c`` per tile: float64 rounded to f32 (tf32 operands truncated), s8 exactly and
    wrapped to int32."""
    if a.dtype == np.int8:
        return (a.astype(np.int64) @ b.astype(np.int64) + c.astype(np.int64)).astype(np.int32)
    if tf32_inputs:
        a, b = tf32(a), tf32(b)
    return (a.astype(np.float64) @ b.astype(np.float64) + c.astype(np.float64)).astype(np.float32)
