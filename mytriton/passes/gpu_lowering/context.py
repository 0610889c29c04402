"""State shared by the lowering patterns: where ops go, each `tt` value's registers, thread
coordinates of every layout, constants, and shared-memory buffers.

A block value lowers to one scalar SSA value per register of the thread (``regs[v]``), in the
register order of its layout's ``Geometry``; a scalar lowers to a single value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, gpu, llvm, memref
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    MemRefType,
    StringAttr,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from mytriton.dialects.tt import fp8 as tt_fp8
from mytriton.dialects.tt.types import byte_size, shape_of
from mytriton.dialects.ttg.geometry import Geometry, log2
from mytriton.dialects.ttg.layouts import DEFAULT_CAPABILITY, WARP_SIZE, layout_of
from mytriton.errors import BackendError
from mytriton.kernel_signature import STATIC_SHARED_LIMIT
from mytriton.passes.analysis.axis_info import AxisAnalysis

#: shared memory a program may use at all (sm_90's opt-in maximum per block, 227 KiB): past the
#: static limit the buffers are views of dynamic shared memory (``dynamic_shared.py``)
SHARED_MEMORY_LIMIT = 227 * 1024
SHARED_ALIGNMENT = 16
index = IndexType()


#: ``SharedBuffer.last`` of a buffer live until the kernel's end
KERNEL_END = 1 << 30


@dataclass
class SharedBuffer:
    """A shared buffer and its live range: the top-level ops of the kernel (by index) from the
    first that accesses it to the last (``shared_alloc``: a buffer used in a loop is live over
    the whole loop, one used by a nested op over the top-level op that holds it)."""

    name: str
    type: MemRefType
    nbytes: int
    alignment: int = SHARED_ALIGNMENT  # bytes (1024 for wgmma's swizzled tiles)
    first: int = 0
    last: int = KERNEL_END


def shared_layout(buffers: Sequence[SharedBuffer]) -> tuple[list[int], int]:
    """Each buffer's byte offset when laid end to end, each at its alignment; the total."""
    offsets, at = [], 0
    for b in buffers:
        at = -(-at // b.alignment) * b.alignment
        offsets.append(at)
        at += -(-b.nbytes // SHARED_ALIGNMENT) * SHARED_ALIGNMENT
    return offsets, at


@dataclass
class LoweringContext:
    """Everything a ``LowerX`` pattern needs to emit the scalar code of one `tt` op."""

    num_warps: int
    block: Block
    #: flush f32 subnormals where Triton's libdevice would (``enable_reflect_ftz``)
    reflect_ftz: bool = True
    #: the chip's compute capability (the module's ``ttg.target``): which instructions exist
    capability: int = DEFAULT_CAPABILITY
    prologue: list[Operation] = field(default_factory=list)
    regs: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)
    location: LocationAttr | None = None
    buffers: list[SharedBuffer] = field(default_factory=list)
    #: reusable buffers by (element type, numel, alignment): see ``scratch_buffer``
    _scratch: dict[tuple[Attribute, int, int], SharedBuffer] = field(default_factory=dict)
    #: elements and byte alignment of the dots' staging buffer, per staged type
    #: (``dot.staging_buffer``)
    dot_staging: dict[Attribute, tuple[int, int]] | None = None
    #: external functions the kernel calls (libdevice), declared in the gpu.module
    functions: dict[str, llvm.FuncOp] = field(default_factory=dict)
    _consts: dict[tuple[int | str, Attribute], SSAValue] = field(default_factory=dict)
    _bases: dict[tuple[object, tuple[int, ...]], list[SSAValue]] = field(default_factory=dict)
    axis: AxisAnalysis | None = None  # what is known of the integer/pointer values
    _derived: dict[tuple[object, ...], SSAValue] = field(default_factory=dict)
    _tid: SSAValue | None = None
    #: the `tt` function being lowered (for patterns that ask about the whole kernel)
    source: Operation | None = None
    #: per asynchronous dot's result: its accumulator registers' fields in the instructions'
    #: fragments, and the accumulator values (``dot_wgmma``)
    async_dots: dict[SSAValue, tuple[list[list[int]], list[SSAValue]]] = field(default_factory=dict)
    #: whether the kernel has warpgroup MMAs (``dot_wgmma.async_proxy_fence``), once known
    wgmma_kernel: bool | None = None
    #: per tensor map the kernel writes: what thread 0 emits before a copy through it ahead of
    #: a pipelined loop, to stop where the map is of a tensor the copy engine cannot read
    #: (``tensor_map_create``)
    tensor_map_checks: dict[SSAValue, Callable[[], None]] = field(default_factory=dict)
    #: the unit (``shared_alloc.Units``) of the op being lowered: ``SharedBuffer`` ranges
    top: int = 0
    units: Any = None  # the kernel's ``shared_alloc.Units`` (that module imports this one)
    #: lowers one op at the current position (patterns of ops with regions lower their bodies)
    lower_op: Callable[[Operation], None] = field(default=lambda op: None)

    # ---- emission ----

    def emit(self, op: Operation) -> Operation:
        """Append ``op`` at the current position, tagged with the current source location."""
        if self.location is not None:
            op.location = self.location
        self.block.add_op(op)
        return op

    def value(self, op: Operation) -> SSAValue:
        return self.emit(op).results[0]

    def at_entry(self, op: Operation) -> SSAValue:
        """``op``'s result, computed once at the kernel entry (``op`` may only use values
        defined there: thread ids, constants, other entry values)."""
        return self._prologue(op)

    def _prologue(self, op: Operation) -> SSAValue:
        self.prologue.append(op)
        return op.results[0]

    @contextmanager
    def inside(self, block: Block) -> Iterator[None]:
        saved = self.block
        self.block = block
        try:
            yield
        finally:
            self.block = saved

    # ---- constants (hoisted to the kernel's entry, one per value and type) ----

    def const(self, value: int | float, type: Attribute) -> SSAValue:
        if tt_fp8.is_fp8(type):  # an fp8 lives in its byte (``fp8.register_type``)
            byte = tt_fp8.bits_of(float(value), type)
            return self.const(byte - 256 if byte >= 128 else byte, IntegerType(8))
        integer = isinstance(type, (IntegerType, IndexType))
        # floats by their exact bits: -0.0 == 0.0 in Python, but not on the GPU
        key = (int(value) if integer else float(value).hex(), type)
        if key not in self._consts:
            if isinstance(type, (IntegerType, IndexType)):
                op = arith.ConstantOp.from_int_and_width(int(value), type)
            else:
                from xdsl.dialects.builtin import FloatAttr

                op = arith.ConstantOp(FloatAttr(float(value), type))  # type: ignore[call-overload]
            self._consts[key] = self._prologue(op)
        return self._consts[key]

    def i32(self, value: int) -> SSAValue:
        return self.const(value, i32)

    def index(self, value: int) -> SSAValue:
        return self.const(value, index)

    # ---- registers ----

    def get(self, v: SSAValue) -> list[SSAValue]:
        try:
            return self.regs[v]
        except KeyError:
            raise BackendError(
                f"internal lowering error: {v.name_hint or v} has no registers"
            ) from None

    def set(self, v: SSAValue, values: Sequence[SSAValue]) -> None:
        self.regs[v] = list(values)
        if v.name_hint:
            for i, r in enumerate(values):
                if r.name_hint is None and isinstance(r.owner, Operation):
                    r.name_hint = v.name_hint if len(values) == 1 else f"{v.name_hint}_{i}"

    def scalar(self, v: SSAValue) -> SSAValue:
        values = self.get(v)
        assert len(values) == 1, v
        return values[0]

    # ---- thread coordinates ----

    def geometry(self, t: Attribute) -> Geometry:
        layout = layout_of(t)
        if layout is None:
            raise BackendError(f"internal lowering error: block type {t} has no layout")
        g = Geometry.of(layout, shape_of(t))
        if g.root.num_warps != self.num_warps:
            raise BackendError(
                f"a layout for {g.root.num_warps} warps in a kernel lowered for "
                f"{self.num_warps} warps (assign layouts and lower with the same num_warps)"
            )
        return g

    @property
    def thread_id(self) -> SSAValue:
        if self._tid is None:
            tid = self._prologue(gpu.ThreadIdOp(gpu.DimensionAttr(gpu.DimensionEnum.X)))
            self._tid = self._prologue(arith.IndexCastOp(tid, i32))
        return self._tid

    def is_owner(self, replica_bits: int) -> SSAValue | None:
        """``thread_id & replica_bits == 0`` (i1, at the kernel entry, once per mask): whether
        this thread is the one of its replicas that stores (``Geometry.replica_bits``; all
        the thread-id bits for a scalar); None when nothing is replicated."""
        if replica_bits == 0:
            return None
        key = ("owner", replica_bits)
        if key not in self._derived:
            bits = self.thread_id
            if replica_bits != self.num_warps * WARP_SIZE - 1:  # else thread_id itself
                bits = self._prologue(arith.AndIOp(bits, self.i32(replica_bits)))
            owner = self._prologue(arith.CmpiOp(bits, self.i32(0), "eq"))
            owner.name_hint = "owner"
            self._derived[key] = owner
        return self._derived[key]

    def _bits(self, value: SSAValue, shift: int, width: int) -> SSAValue:
        """``(value >> shift) & (width - 1)`` at the kernel entry, folded when trivial."""
        if width == 1:
            return self.i32(0)
        v = value
        if shift:
            v = self._prologue(arith.ShRUIOp(v, self.i32(shift)))
        return self._prologue(arith.AndIOp(v, self.i32(width - 1)))

    def lane(self, g: Geometry, d: int) -> SSAValue:
        """This thread's lane coordinate along root dimension ``d``."""
        return self._bits(self.thread_id, log2(g.lane_strides[d]), g.root.tpw[d])

    def warp(self, g: Geometry, d: int) -> SSAValue:
        """This thread's warp coordinate along root dimension ``d``."""
        return self._bits(self.thread_id, 5 + log2(g.warp_strides[d]), g.root.wpc[d])

    def bases(self, g: Geometry) -> list[SSAValue]:
        """Per root dimension, the coordinate of this thread's first element (i32)."""
        key = (g.root, g.full_shape)
        if key not in self._bases:
            out = []
            r = g.root
            for d in range(r.rank):
                n = g.full_shape[d]
                if n == 1:
                    out.append(self.i32(0))
                    continue
                lane = self.lane(g, d)
                warp = self.warp(g, d)
                v = lane
                if r.wpc[d] > 1:
                    if r.tpw[d] == 1:
                        v = warp
                    else:
                        scaled = self._prologue(arith.MuliOp(warp, self.i32(r.tpw[d])))
                        v = self._prologue(arith.AddiOp(scaled, lane))
                if r.spt[d] > 1:
                    v = self._prologue(arith.MuliOp(v, self.i32(r.spt[d])))
                if g.tile(d) > n:
                    v = self._prologue(arith.AndIOp(v, self.i32(n - 1)))
                out.append(v)
            self._bases[key] = out
        return self._bases[key]

    def coordinate(self, g: Geometry, d: int, offset: int) -> SSAValue:
        """Root-dimension ``d`` coordinate of the element at ``offset`` from the base (i32,
        computed once at the kernel entry)."""
        base = self.bases(g)[d]
        if offset == 0:
            return base
        key = ("coord", base, offset)
        if key not in self._derived:
            self._derived[key] = self._prologue(arith.AddiOp(base, self.i32(offset)))
        return self._derived[key]

    def linear_index(
        self, g: Geometry, reg: tuple[int, ...], strides: Sequence[int], base: int = 0
    ) -> SSAValue:
        """``base + sum(coord_d * strides[d])`` as an ``index`` for shared-memory addressing
        (computed once at the kernel entry: it depends only on the thread id)."""
        offset = self.linear_offset(g, reg, strides)
        if base:
            plus: tuple[object, ...] = ("plus", offset, base)
            if plus not in self._derived:
                self._derived[plus] = self._prologue(arith.AddiOp(offset, self.i32(base)))
            offset = self._derived[plus]
        key = ("as_index", offset)
        if key not in self._derived:
            self._derived[key] = self._prologue(arith.IndexCastOp(offset, index))
        return self._derived[key]

    def linear_offset(self, g: Geometry, reg: tuple[int, ...], strides: Sequence[int]) -> SSAValue:
        """``sum(coord_d * strides[d])`` as an i32 (32-bit address arithmetic is cheaper on
        the GPU than ``index``, which is 64-bit)."""
        bases = self.bases(g)
        key = ("linear", tuple(bases), tuple(reg), tuple(strides))
        if key in self._derived:
            return self._derived[key]
        total: SSAValue | None = None
        const = 0
        for d, stride in enumerate(strides):
            if stride == 0 or g.full_shape[d] == 1:
                continue
            const += reg[d] * stride
            base_key = ("scaled", bases[d], stride)
            if base_key not in self._derived:
                self._derived[base_key] = (
                    bases[d]
                    if stride == 1
                    else self._prologue(arith.MuliOp(bases[d], self.i32(stride)))
                )
            term = self._derived[base_key]
            total = term if total is None else self._prologue(arith.AddiOp(total, term))
        if total is None:
            result = self.i32(const)
        else:
            if const:
                total = self._prologue(arith.AddiOp(total, self.i32(const)))
            result = total
        self._derived[key] = result
        return result

    # ---- shared memory ----

    def shared_buffer(
        self,
        element: Attribute,
        numel: int,
        alignment: int = SHARED_ALIGNMENT,
        local: bool = False,
    ) -> SSAValue:
        """A fresh shared-memory buffer (``memref<numel x element, 3>``), aligned to
        ``alignment`` bytes. ``local``: every access to it lies in the op being lowered and is
        synchronous (none in flight past the op), so it is live over that op's unit only
        (``shared_alloc.Units``: a loop around it, say) and its bytes may be reused by buffers
        of other ops; else it is live over the whole kernel, unless the caller narrows its
        range."""
        name = f"smem_{len(self.buffers)}"
        t = MemRefType(element, [numel], memory_space=IntegerAttr(3, 64))
        nbytes = numel * byte_size(element)
        first, last = (self.top, self.top) if local else (0, KERNEL_END)
        buffer = SharedBuffer(name, t, nbytes, max(alignment, SHARED_ALIGNMENT), first, last)
        self.buffers.append(buffer)
        return self.value(memref.GetGlobalOp(name, t))

    @property
    def shared_bytes(self) -> int:
        """The bytes all shared buffers take laid end to end, each at its alignment (a bound
        for static arrays too, which the compiler places)."""
        return shared_layout(self.buffers)[1]

    def scratch_buffer(
        self,
        element: Attribute,
        numel: int,
        alignment: int = SHARED_ALIGNMENT,
        local: bool = True,
    ) -> SSAValue:
        """A shared-memory buffer shared by every op that asks for one of this element type and
        size: for ops that end with a barrier after their last access (so the next user may
        write it at once), like the redistribution of ``tt_shape`` ops. Its live range covers
        every requesting op (``local``: see ``shared_buffer``)."""
        key = (element, numel, alignment)
        if key not in self._scratch:
            buf = self.shared_buffer(element, numel, alignment, local)
            self._scratch[key] = self.buffers[-1]
            return buf
        b = self._scratch[key]
        b.first = min(b.first, self.top if local else 0)
        b.last = max(b.last, self.top if local else KERNEL_END)
        return self.value(memref.GetGlobalOp(b.name, b.type))

    def declare_function(self, name: str, inputs: Sequence[Attribute], output: Attribute) -> None:
        """Declare the external function ``name`` (a libdevice ``__nv_*``) once."""
        if name not in self.functions:
            self.functions[name] = llvm.FuncOp(
                name, llvm.LLVMFunctionType(inputs, output), linkage=llvm.LinkageAttr("external")
            )

    @property
    def dynamic_shared(self) -> bool:
        """Whether the buffers exceed static shared memory (``dynamic_shared.py``)."""
        return self.shared_bytes > STATIC_SHARED_LIMIT

    def global_ops(self) -> list[Operation]:
        """The ``gpu.module``'s ops beside the kernel: static shared buffers and function
        declarations."""
        shared = [] if self.dynamic_shared else self._shared_globals()
        return [*shared, *self.functions.values()]

    def _shared_globals(self) -> list[Operation]:
        # 16-byte aligned, so a thread's 4 consecutive elements can move as one vector access
        return [
            memref.GlobalOp.get(
                StringAttr(b.name),
                b.type,
                UnitAttr(),
                StringAttr("private"),
                alignment=b.alignment,
            )
            for b in self.buffers
        ]
