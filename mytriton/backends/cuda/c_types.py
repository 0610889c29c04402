"""C++ spellings of the lowered IR's types (the ABI of ``docs/gpu-ir.md``).

``index`` is 64-bit, as in MLIR's NVVM lowering, so both emitters agree on index arithmetic.
The vectors of vectorized global accesses are CUDA's built-in vector types, whose alignment is
their size: ``vector<2xf32>`` ... ``vector<4xi32>`` are ``float2``/``float4``/``int2``/``int4``;
vectors of 8- and 16-bit elements (``vector<8xf16>``) are packed into unsigned words
(``uint4``), moved with one ``ld``/``st.global.v4`` of 32-bit words.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
)
from xdsl.ir import Attribute

from mytriton.dialects.tt import dtype_table
from mytriton.errors import BackendError


def _cpp(row: dtype_table.DtypeRow) -> str:
    assert row.cpp is not None, f"{row.name} has no C++ type"
    return row.cpp


# the C++ types of integers by width, from the dtype table (int1's ``bool`` in both); the
# lowered IR is signless, so ``scalar_type`` reads the signed ones
_INT_TYPES = {r.bits: _cpp(r) for r in dtype_table.ROWS if r.kind in ("bool", "sint")}
_UINT_TYPES = {r.bits: _cpp(r) for r in dtype_table.ROWS if r.kind in ("bool", "uint")}
_FLOAT_TYPES = {r.ir: _cpp(r) for r in dtype_table.ROWS if r.kind == "float"}

#: (C++ element type, lanes) of each vector<N x T> the contract allows -> CUDA's vector type
#: (its ``float2`` ... ``int4``, of at most 16 bytes: ``MAX_VECTOR_BYTES``)
_VECTOR_TYPES = {
    (_cpp(r), lanes): f"{_cpp(r)}{lanes}"
    for r in dtype_table.ROWS
    if r.vector == "builtin"
    for lanes in (2, 4)
}
#: the C++ member holding each position of a vector (``vector.extract %v[2]`` is ``v.z``)
VECTOR_COMPONENTS = "xyzw"
#: the largest vector access: 16 bytes (``ld.global.v4.b32``)
MAX_VECTOR_BYTES = 16
#: CUDA's unsigned vector type holding a vector of 8- or 16-bit elements (the "packed" rows),
#: by the vector's size in bytes, whatever the dtype: 32-bit words (one 16-bit word for a
#: 2-byte vector)
_PACKED_TYPES = {2: "ushort1", 4: "uint1", 8: "uint2", 16: "uint4"}

#: ``memref`` memory spaces that mean CUDA shared memory
SHARED_MEMORY_SPACES = ("3", "#gpu.address_space<workgroup>")


def int_width(t: Attribute) -> int | None:
    """Bit width of an integer-like type (``index`` counts as 64), else ``None``."""
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return 64
    return None


def is_float(t: Attribute) -> bool:
    return isinstance(t, Float32Type | Float64Type)


def scalar_type(t: Attribute) -> str:
    """The C++ type of a scalar value of type ``t``; pointers need ``pointer_type``."""
    width = int_width(t)
    if width is not None and width in _INT_TYPES:
        return _INT_TYPES[width]
    cpp = _FLOAT_TYPES.get(t)
    if cpp is None:
        raise BackendError(f"the CUDA printer has no C++ type for {t}")
    return cpp


#: f16 values are their bits (no header needed: NVRTC ships none); arithmetic converts them to
#: float and rounds back (``HALF_PRELUDE``), exact for + - * / and sqrt (24 >= 2 * 11 + 2 bits)
HALF = _cpp(dtype_table.BY_NAME["float16"])
HALF_PRELUDE = (
    f"typedef unsigned short {HALF};",
    "__device__ __forceinline__ float mt_h2f(mt_half h) "
    '{ float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }',
    "__device__ __forceinline__ mt_half mt_f2h(float f) "
    '{ mt_half h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }',
    "__device__ __forceinline__ mt_half mt_d2h(double d) "
    '{ mt_half h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d)); return h; }',
)


#: bf16 values are their bits too: widened exactly by a shift, rounded once by PTX ``cvt.rn``
#: (from f32 on sm_80+; from f64 and integers, single roundings, on sm_90+)
BF16 = _cpp(dtype_table.BY_NAME["bfloat16"])
BF16_PRELUDE = (
    f"typedef unsigned short {BF16};",
    "__device__ __forceinline__ float mt_b2f(mt_bf16 b) "
    "{ return __uint_as_float((unsigned)b << 16); }",
    "__device__ __forceinline__ mt_bf16 mt_f2b(float f) "
    '{ mt_bf16 b; asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f)); return b; }',
    "__device__ __forceinline__ mt_bf16 mt_d2b(double d) "
    '{ mt_bf16 b; asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(b) : "d"(d)); return b; }',
    "__device__ __forceinline__ mt_bf16 mt_l2b(long long v) "
    '{ mt_bf16 b; asm("cvt.rn.bf16.s64 %0, %1;" : "=h"(b) : "l"(v)); return b; }',
    "__device__ __forceinline__ mt_bf16 mt_ul2b(unsigned long long v) "
    '{ mt_bf16 b; asm("cvt.rn.bf16.u64 %0, %1;" : "=h"(b) : "l"(v)); return b; }',
)


def is_half(t: Attribute) -> bool:
    return isinstance(t, Float16Type)


def is_bf16(t: Attribute) -> bool:
    return isinstance(t, BFloat16Type)


def is_narrow_float(t: Attribute) -> bool:
    """f16 or bf16: held as bits, computed in ``float`` and rounded back."""
    return isinstance(t, Float16Type | BFloat16Type)


def widen_call(t: Attribute) -> str:
    """The prelude function turning a narrow float's bits into an (exact) ``float``."""
    return "mt_b2f" if is_bf16(t) else "mt_h2f"


def round_call(t: Attribute, source: str) -> str:
    """The prelude function rounding a ``float``/``double`` (``source``) to narrow float ``t``."""
    if is_bf16(t):
        return "mt_d2b" if source == "double" else "mt_f2b"
    return "mt_d2h" if source == "double" else "mt_f2h"


def _element_bits(t: Attribute) -> int | None:
    """Bits of a vector element the contract allows: f32, f16, bf16, i32, i16 or i8 (the
    rows with a vector form)."""
    row = dtype_table.signless_row(t)
    return row.bits if row is not None and row.vector is not None else None


def vector_lanes(t: VectorType[Attribute]) -> int:
    """N of a ``vector<N x T>`` the contract allows: 1-D, T f32, f16, bf16, i32, i16 or i8, N a
    power of two >= 2 of at most 16 bytes."""
    shape = t.get_shape()
    bits = _element_bits(t.element_type)
    n = shape[0] if len(shape) == 1 else 0
    if (
        len(shape) != 1
        or t.get_num_scalable_dims()
        or bits is None
        or n < 2
        or n & (n - 1)
        or n * bits > 8 * MAX_VECTOR_BYTES
    ):
        raise BackendError(
            f"the CUDA printer has no C++ type for {t} (only vectors of 2 to 16 f32, f16, bf16, "
            "i32, i16 or i8 elements, of at most 16 bytes)"
        )
    return n


@dataclass(frozen=True)
class PackedVector:
    """How a vector of 8- or 16-bit elements sits in its CUDA unsigned vector type: element
    ``i`` is the ``bits`` bits at ``bits * (i % per_word)`` of word ``i // per_word`` (``.x``
    ... ``.w``), little-endian as in memory."""

    container: str  #: ``uint4``, ``uint2``, ``uint1`` or ``ushort1``
    word_bits: int  #: 32, or 16 for a ``ushort1``
    bits: int
    element: str  #: the C++ type of one element (``mt_half``, ``short``, ``signed char``...)

    @property
    def per_word(self) -> int:
        return self.word_bits // self.bits

    @property
    def word(self) -> str:
        return _UINT_TYPES[self.word_bits]

    @property
    def unsigned_element(self) -> str:
        return _UINT_TYPES[self.bits]


def packed_vector(t: VectorType[Attribute]) -> PackedVector | None:
    """The packing of a vector of 8- or 16-bit elements; ``None`` for 32-bit ones."""
    lanes = vector_lanes(t)
    bits = _element_bits(t.element_type)
    assert bits is not None
    if bits == 32:
        return None
    size = lanes * bits // 8
    word_bits = 8 * min(size, 4)
    return PackedVector(_PACKED_TYPES[size], word_bits, bits, scalar_type(t.element_type))


def vector_type(t: VectorType[Attribute]) -> str:
    """``float2``, ``float4``, ``int2`` or ``int4``; ``uint4`` ... ``ushort1`` for a vector of
    8- or 16-bit elements."""
    packed = packed_vector(t)
    if packed is not None:
        return packed.container
    return _VECTOR_TYPES[(scalar_type(t.element_type), vector_lanes(t))]


def vector_bytes(t: VectorType[Attribute]) -> int:
    """Size (and CUDA alignment) of a vector value in memory."""
    bits = _element_bits(t.element_type)
    assert bits is not None
    return vector_lanes(t) * bits // 8


def value_type(t: Attribute) -> str:
    """The C++ type of a non-pointer value: a scalar type or a CUDA vector type."""
    if isinstance(t, VectorType):
        return vector_type(t)
    return scalar_type(t)


def unsigned_type(t: Attribute) -> str:
    width = int_width(t)
    if width is None or width not in _UINT_TYPES:
        raise BackendError(f"the CUDA printer has no unsigned C++ type for {t}")
    return _UINT_TYPES[width]


def memory_space_name(t: MemRefType[Attribute]) -> str:
    space = t.memory_space
    if isinstance(space, IntegerAttr):
        return str(space.value.data)
    return str(space)


def is_shared_memref(t: Attribute) -> bool:
    return isinstance(t, MemRefType) and memory_space_name(t) in SHARED_MEMORY_SPACES
