"""``vector`` ops on the values of vectorized global accesses, as CUDA's vector types.

Vectors of 32-bit elements are ``float2``/``float4``/``int2``/``int4``: ``make_float4``
broadcasts, ``.x``-``.w`` members. Vectors of 8- and 16-bit elements are packed into the
unsigned words of a ``uint4``/``uint2``/``uint1`` (``ushort1`` for 2 bytes; ``c_types``), which
nvcc loads with one ``ld.global.v4.u32`` (``print_memory`` stores them with one inline
``st.global.v4.b32``): an element is taken out with a shift and
a cast, put in with a mask, and a broadcast multiplies the element's bits into every slot.

Only 1-D vectors at static positions are part of the contract (``docs/gpu-ir.md``); vectors
never take part in arithmetic, which stays on the scalars extracted from them.
"""

from __future__ import annotations

from xdsl.dialects import vector
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute

from mytriton.backends.cuda.c_types import (
    VECTOR_COMPONENTS,
    PackedVector,
    packed_vector,
    vector_lanes,
    vector_type,
)
from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.errors import BackendError


class VectorPrinter(Emitter):
    """Broadcasts, extracts and inserts of CUDA vector values."""

    @prints(vector.BroadcastOp, vectors=True)
    def _print_broadcast(self, op: vector.BroadcastOp) -> None:
        if isinstance(op.source.type, VectorType):
            raise BackendError("only scalars can be broadcast (not vectors)")
        t = op.vector.type
        assert isinstance(t, VectorType)
        packed = packed_vector(t)
        if packed is None:
            scalars = [self._n(op.source)] * vector_lanes(t)
        else:
            scalars = [_splat(packed, self._n(op.source))] * (vector_lanes(t) // packed.per_word)
        self._define(op.vector, f"make_{vector_type(t)}({', '.join(scalars)})", op)

    @prints(vector.ExtractOp, vectors=True)
    def _print_extract(self, op: vector.ExtractOp) -> None:
        t = op.vector.type
        i = _position(t, op.static_position.get_values(), len(op.dynamic_position))
        assert isinstance(t, VectorType)
        packed = packed_vector(t)
        if packed is None:
            self._define(op.result, f"{self._n(op.vector)}.{VECTOR_COMPONENTS[i]}", op)
            return
        word, shift = _slot(packed, i)
        bits = f"{self._n(op.vector)}.{word}"
        self._define(
            op.result, f"({packed.element})" + (f"({bits} >> {shift})" if shift else bits), op
        )

    @prints(vector.InsertOp, vectors=True)
    def _print_insert(self, op: vector.InsertOp) -> None:
        """A copy of the vector with one member replaced: ``float4 v7 = v6; v7.y = s;`` (for a
        packed vector, ``uint4 v7 = v6; v7.y = (v7.y & 0xffffu) | ((unsigned)s << 16);``)."""
        if isinstance(op.source.type, VectorType):
            raise BackendError("only scalars can be inserted (not vectors)")
        t = op.dest.type
        i = _position(t, op.static_position.get_values(), len(op.dynamic_position))
        assert isinstance(t, VectorType)
        packed = packed_vector(t)
        name = self._define(op.result, self._n(op.dest), op)
        source = self._n(op.source)
        if packed is None:
            self._stmt(op, f"{name}.{VECTOR_COMPONENTS[i]} = {source};")
            return
        word, shift = _slot(packed, i)
        keep = ((1 << packed.word_bits) - 1) & ~(((1 << packed.bits) - 1) << shift)
        digits = packed.word_bits // 4
        bits = f"(unsigned)({packed.unsigned_element}){source}"
        moved = f"({bits} << {shift})" if shift else bits
        merged = f"({name}.{word} & 0x{keep:0{digits}x}u) | {moved}"
        if packed.word_bits != 32:
            merged = f"({packed.word})({merged})"
        self._stmt(op, f"{name}.{word} = {merged};")


def _position(t: Attribute, position: tuple[int, ...], dynamic: int) -> int:
    """The one static position into a 1-D vector (of a type the contract allows)."""
    assert isinstance(t, VectorType)
    lanes = vector_lanes(t)
    if dynamic or len(position) != 1:
        raise BackendError("only one static position into a 1-D vector is supported")
    (i,) = position
    if not 0 <= i < lanes:
        raise BackendError(f"position {i} is outside {t}")
    return i


def _slot(packed: PackedVector, i: int) -> tuple[str, int]:
    """The member (``x`` ... ``w``) and bit offset holding element ``i`` of a packed vector."""
    return VECTOR_COMPONENTS[i // packed.per_word], packed.bits * (i % packed.per_word)


def _splat(packed: PackedVector, scalar: str) -> str:
    """One word holding ``scalar``'s bits in every slot: the bits times ``0x01010101`` (8-bit
    slots), or ORed with themselves shifted (16-bit slots: nvcc then sees that an insert
    overwriting the high half of a splat of ``x & 0xffff`` with ``x``'s high half leaves ``x``,
    as where a 16-byte store packs the halves ``ldmatrix`` loaded)."""
    bits = f"(unsigned)({packed.unsigned_element}){scalar}"
    if packed.bits == 16 and packed.per_word == 2:
        word = f"({bits} | ({bits} << {packed.bits}))"
    else:
        ones = sum(1 << (packed.bits * k) for k in range(packed.per_word))
        word = f"{bits} * 0x{ones:x}u"
    return word if packed.word_bits == 32 else f"({packed.word})({word})"
