"""The PTX instructions that build a tensor map in the kernel, which upstream MLIR has no ops
for: ``ptx.tensormap.replace`` (one field, PTX ``tensormap.replace.tile.<field>.<space>.b1024.
<b32|b64>``) and ``ptx.tensormap.cp_fenceproxy`` (a warp copies a map from shared to global
memory and releases it to the copy engine, PTX ``tensormap.cp_fenceproxy.global.shared::cta.
tensormap::generic.release.gpu.sync.aligned``), sm_90a. They are ours, named after the PTX:
the CUDA printer prints that PTX, the MLIR emitter rewrites them into ``llvm.inline_asm`` with
the same PTX (``backends/mlir/inline_tensormap.py``), gpusim executes them on its own map
layout (``rules_tensormap``)::

    "ptx.tensormap.replace"(%smem, %dim) <{field = "global_dim", ordinal = 1 : i32}>
        : (!llvm.ptr<3>, i32) -> ()
    "ptx.tensormap.cp_fenceproxy"(%map, %smem) : (!llvm.ptr<1>, !llvm.ptr<3>) -> ()

A kernel builds a tensor map (a ``tl.make_tensor_descriptor`` whose blocks the copy engine
loads) as Triton does: one thread zeroes 128 bytes of shared memory and replaces every field
there (fast: a replace in global memory is a round trip to it each), warp 0 copies them to the
map's global slot with the release, and the copying thread acquires the map
(``nvvm.fence.proxy.acquire``, ``upstream_tensormap``) before its copies. A replace may also
write a map in global memory (``!llvm.ptr<1>``), which ``nvvm.fence.proxy.release`` then
releases. The fields, with the value each takes (``ordinal``: the dimension, innermost first):

* ``global_address``: the tensor's first element, an ``!llvm.ptr<1>`` (16-byte aligned);
* ``rank``: the dimensions less one (i32);
* ``box_dim``, ``global_dim``, ``element_stride`` (ordinal 0 to 4): i32;
* ``global_stride`` (ordinal 0 to 3: the stride of dimension ``ordinal + 1``, bytes): i64;
* ``elemtype``, ``interleave_layout``, ``swizzle_mode``, ``fill_mode``: i32 constants (PTX
  immediates), CUDA's ``CUtensorMapDataType``, ``...Interleave``, ``...Swizzle`` and
  ``...FloatOOBfill`` codes.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import I32, IntAttr, IntegerAttr, StringAttr, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    traits_def,
)
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.tma import constant_int

#: ``!llvm.ptr<1>``: the tensor map's (and the tensor's) global address
GLOBAL = llvm.LLVMPointerType(IntAttr(1))
#: ``!llvm.ptr<3>``: a map being built in shared memory
SHARED = llvm.LLVMPointerType(IntAttr(3))
#: PTX's state space of a map's address, by its pointer type
SPACES = {GLOBAL: "global", SHARED: "shared::cta"}
#: the bytes of a tensor map
MAP_BYTES = 128
#: ``ptx.tensormap.cp_fenceproxy``'s instruction
CP_FENCEPROXY_PTX = (
    "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned"
)
#: field -> (the dimensions its ordinal ranges over, 0 for none; its value's type; whether
#: the value is a PTX immediate)
FIELDS: dict[str, tuple[int, Attribute, bool]] = {
    "global_address": (0, GLOBAL, False),
    "rank": (0, i32, False),
    "box_dim": (5, i32, False),
    "global_dim": (5, i32, False),
    "global_stride": (4, i64, False),
    "element_stride": (5, i32, False),
    "elemtype": (0, i32, True),
    "interleave_layout": (0, i32, True),
    "swizzle_mode": (0, i32, True),
    "fill_mode": (0, i32, True),
}
#: CUDA's ``CUtensorMapDataType`` codes by element bytes (unsigned integers: a copy moves bits)
ELEMTYPE_BY_BYTES = {1: 0, 2: 1, 4: 2, 8: 4}
#: CUDA's ``CUtensorMapSwizzle`` codes by swizzle bytes
SWIZZLE_MODES = {0: 0, 32: 1, 64: 2, 128: 3}


@irdl_op_definition
class TensormapReplaceOp(IRDLOperation):
    """``ptx.tensormap.replace``: set ``field`` (of dimension ``ordinal``) of the tensor map at
    ``addr`` (global or shared) to ``value`` (module doc)."""

    name = "ptx.tensormap.replace"
    addr = operand_def(llvm.LLVMPointerType)
    value = operand_def()
    field = prop_def(StringAttr)
    ordinal = opt_prop_def(IntegerAttr[I32])
    traits = traits_def(MemoryWriteEffect())

    def __init__(self, addr: SSAValue, field: str, value: SSAValue, ordinal: int | None = None):
        props: dict[str, Attribute] = {"field": StringAttr(field)}
        if ordinal is not None:
            props["ordinal"] = IntegerAttr(ordinal, i32)
        super().__init__(operands=[addr, value], properties=props)

    @property
    def field_name(self) -> str:
        return self.field.data

    @property
    def dimension(self) -> int | None:
        return None if self.ordinal is None else self.ordinal.value.data

    @property
    def immediate(self) -> int | None:
        """The value of an immediate field (the verifier guarantees a constant)."""
        return constant_int(self.value) if FIELDS[self.field_name][2] else None

    @property
    def shared(self) -> bool:
        """Whether the map is in shared memory (else global)."""
        return self.addr.type == SHARED

    @property
    def ptx(self) -> str:
        """The instruction, without operands."""
        width = "b64" if self.value.type in (GLOBAL, i64) else "b32"
        space = SPACES[SHARED if self.shared else GLOBAL]
        return f"tensormap.replace.tile.{self.field_name}.{space}.b1024.{width}"

    @property
    def value_constraint(self) -> str | None:
        """The asm constraint of the value's register (``r`` or ``l``), None for an
        immediate."""
        if self.immediate is not None:
            return None
        return "r" if self.ptx.endswith(".b32") else "l"

    def asm(self, numbered: str = "%") -> str:
        """The instruction with its operands (``numbered``: ``%`` for CUDA's ``asm``, ``$`` for
        LLVM's inline asm): operand 0 the map, 1 the value unless it is an immediate."""
        ordinal = "" if self.dimension is None else f"{self.dimension}, "
        value = f"{numbered}1" if self.immediate is None else str(self.immediate)
        return f"{self.ptx} [{numbered}0], {ordinal}{value};"

    def verify_(self) -> None:
        what, name = self.name, self.field_name
        if self.addr.type not in SPACES:
            raise VerifyException(
                f"{what}: the map's address must be an !llvm.ptr<1> or !llvm.ptr<3>, not "
                f"{self.addr.type}"
            )
        if name not in FIELDS:
            raise VerifyException(f"{what}: unknown field {name!r} (one of {', '.join(FIELDS)})")
        dims, kind, immediate = FIELDS[name]
        if dims and self.dimension is None:
            raise VerifyException(f"{what}: field {name} needs an ordinal")
        if not dims and self.dimension is not None:
            raise VerifyException(f"{what}: field {name} takes no ordinal")
        if dims and not 0 <= (self.dimension or 0) < dims:
            raise VerifyException(
                f"{what}: the ordinal of {name} must be 0 to {dims - 1}, not {self.dimension}"
            )
        if self.value.type != kind:
            raise VerifyException(f"{what}: field {name} takes a {kind}, not {self.value.type}")
        if immediate and constant_int(self.value) is None:
            raise VerifyException(
                f"{what}: field {name} must come from an arith.constant or llvm.mlir.constant "
                "(it is an immediate of the PTX instruction)"
            )


@irdl_op_definition
class TensormapCpFenceproxyOp(IRDLOperation):
    """``ptx.tensormap.cp_fenceproxy %dst, %src``: the executing warp (all 32 threads, with the
    same operands: PTX's ``.sync.aligned``) copies the 128-byte tensor map at ``src`` in shared
    memory to ``dst`` in global memory and releases it to the tensormap proxy at GPU scope, so
    that a thread acquiring ``dst`` (``nvvm.fence.proxy.acquire``) copies through it."""

    name = "ptx.tensormap.cp_fenceproxy"
    dst = operand_def(GLOBAL)
    src = operand_def(SHARED)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(self, dst: SSAValue, src: SSAValue):
        super().__init__(operands=[dst, src])

    def asm(self, numbered: str = "%") -> str:
        """The instruction: operand 0 the global map, 1 the shared one."""
        return f"{CP_FENCEPROXY_PTX} [{numbered}0], [{numbered}1], {MAP_BYTES};"


TENSORMAP_OPS: list[type[IRDLOperation]] = [TensormapReplaceOp, TensormapCpFenceproxyOp]
