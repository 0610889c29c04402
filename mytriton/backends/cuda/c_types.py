"""C++ spellings of the lowered IR's types (the ABI of ``docs/gpu-ir.md``).

``index`` is 64-bit, as in MLIR's NVVM lowering, so both emitters agree on index arithmetic.
The vectors of vectorized global accesses (``vector<2xf32>`` ... ``vector<4xi32>``) are CUDA's
built-in ``float2``/``float4``/``int2``/``int4``, whose alignment is their size.
"""

from __future__ import annotations

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

from mytriton.errors import BackendError

_INT_TYPES = {1: "bool", 8: "signed char", 16: "short", 32: "int", 64: "long long"}
_UINT_TYPES = {
    1: "bool",
    8: "unsigned char",
    16: "unsigned short",
    32: "unsigned",
    64: "unsigned long long",
}

#: (C++ element type, lanes) of each vector<N x T> the contract allows -> CUDA's vector type
_VECTOR_TYPES = {
    ("float", 2): "float2",
    ("float", 4): "float4",
    ("int", 2): "int2",
    ("int", 4): "int4",
}
#: the C++ member holding each position of a vector (``vector.extract %v[2]`` is ``v.z``)
VECTOR_COMPONENTS = "xyzw"

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
    if isinstance(t, Float16Type):
        return HALF
    if isinstance(t, BFloat16Type):
        return BF16
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float64Type):
        return "double"
    raise BackendError(f"the CUDA printer has no C++ type for {t}")


#: f16 values are their bits (no header needed: NVRTC ships none); arithmetic converts them to
#: float and rounds back (``HALF_PRELUDE``), exact for + - * / and sqrt (24 >= 2 * 11 + 2 bits)
HALF = "mt_half"
HALF_PRELUDE = (
    "typedef unsigned short mt_half;",
    "__device__ __forceinline__ float mt_h2f(mt_half h) "
    '{ float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }',
    "__device__ __forceinline__ mt_half mt_f2h(float f) "
    '{ mt_half h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }',
    "__device__ __forceinline__ mt_half mt_d2h(double d) "
    '{ mt_half h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d)); return h; }',
)


#: bf16 values are their bits too: widened exactly by a shift, rounded once by PTX ``cvt.rn``
#: (from f32 on sm_80+; from f64 and integers, single roundings, on sm_90+)
BF16 = "mt_bf16"
BF16_PRELUDE = (
    "typedef unsigned short mt_bf16;",
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


def vector_lanes(t: VectorType[Attribute]) -> int:
    """N of a ``vector<N x T>`` the contract allows (1-D, N in {2, 4}, T f32 or i32)."""
    shape = t.get_shape()
    if len(shape) != 1 or t.get_num_scalable_dims() or shape[0] not in (2, 4):
        raise BackendError(f"the CUDA printer has no C++ type for {t} (only vector<2x..>, <4x..>)")
    return shape[0]


def vector_type(t: VectorType[Attribute]) -> str:
    """``float2``, ``float4``, ``int2`` or ``int4``."""
    e = t.element_type
    element = "float" if isinstance(e, Float32Type) else "int" if int_width(e) == 32 else ""
    name = _VECTOR_TYPES.get((element, vector_lanes(t)))
    if name is None:
        raise BackendError(f"the CUDA printer has no C++ type for {t} (only f32 and i32 vectors)")
    return name


def vector_bytes(t: VectorType[Attribute]) -> int:
    """Size (and CUDA alignment) of a vector value in memory."""
    vector_type(t)  # one of the allowed vectors: 4-byte elements
    return 4 * vector_lanes(t)


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
