"""The dtype table: one row per element type a kernel's values can have, read everywhere.

Each row says what one dtype is called and how it is held at every level: its ``tl`` names
(``tl.float16``, whose ``.name`` is ``"fp16"``, ``"*fp16"`` in signatures), its `tt` IR type,
the NumPy (or ml_dtypes) dtype the CPU backends and host arrays hold it in, its C++ types in
the printed CUDA (scalar, and how vectors of it are spelled), the C type Triton's launcher
gives a scalar argument, the kernel-ABI kind of a scalar argument and its libdevice suffix.

The readers derive their own tables from it (``language.core``'s dtypes, the frontend's
``to_ir``/``from_ir``, the array and ``reinterpret`` names, the interpreter's and gpusim's NumPy
dtypes, the fp8 formats, the CUDA printer's C++ types, the ABI, libdevice's signatures, the
Triton-compatible host helpers). To add a dtype, add a row here; ``tests/dialects/
test_dtype_table.py`` checks that every reader agrees with the table.

Rows are in Triton's order of ``dtype.SINT_TYPES + UINT_TYPES + FP_TYPES``. NumPy dtypes are
names, resolved on use (``DtypeRow.numpy_dtype``), so ml_dtypes (bfloat16, fp8) stays optional.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    from xdsl.ir import Attribute

#: "bool" (``int1``), "sint", "uint", "float" (f16, bf16, f32, f64: arithmetic types) or "fp8"
#: (only stored and converted: ``tt_fp8``)
Kind = Literal["bool", "sint", "uint", "float", "fp8"]
#: how the CUDA printer spells a ``vector<N x T>`` of the type (``c_types``): "builtin" is
#: CUDA's vector type named after the scalar type (``float2``, ``int4``), "packed" its
#: elements packed into unsigned words (``uint4``); None: never vectorized
VectorForm = Literal["builtin", "packed"]


@dataclass(frozen=True)
class DtypeRow:
    """One dtype at every level (None where that level has no such type)."""

    name: str  #: the ``tl`` attribute: ``"float16"`` (``tl.float16``, ``dtype.codegen_name()``)
    dtype_name: str  #: Triton's dtype name: ``"fp16"`` (``tl.float16.name``, ``dtype("fp16")``)
    signature: str  #: Triton's signature type: ``"fp16"`` (``"*fp16"``), ``"i32"``, ``"u8"``
    kind: Kind
    bits: int  #: ``primitive_bitwidth`` (``int1``: 1; it takes a byte in memory)
    #: the `tt` element type's text (unsigned integers keep their signedness: ``ui32``); the
    #: type itself is ``ir``, made on first use so that reading the table imports no xDSL
    ir_name: str
    numpy: str  #: the NumPy dtype holding its values (an ml_dtypes type where ``ml_dtypes``)
    ml_dtypes: bool = False
    #: arrays of dtype ``numpy`` (NumPy's, torch's of that name) are passed as this dtype:
    #: fp8e4b15's values are held in ml_dtypes' float8_e4m3b11fnuz as opaque bytes, and only
    #: ``mytriton.reinterpret`` passes arrays as fp8e4b15, as in Triton
    array: bool = True
    cpp: str | None = None  #: the C++ scalar type of the printed CUDA (``c_types``)
    vector: VectorForm | None = None
    #: the C type Triton's launcher holds a scalar argument in (``map_python_to_cpp_type``)
    launcher_cpp: str | None = None
    #: the kernel-ABI kind of a scalar argument (``KernelSignature.params``): its lowered
    #: parameter type (a bool travels as an ``i32``, ``docs/gpu-ir.md``); None: not passed
    abi: str | None = None
    #: the suffix of libdevice's symbol for this type (``__nv_expf``, ``__nv_clzll``)
    libdevice: str | None = None
    mantissa_bits: int | None = None  #: floats: ``fp_mantissa_width``
    exponent_bias: int | None = None  #: floats

    @property
    def ir(self) -> Attribute:
        """The IR type (``ir_name``'s)."""
        return _ir_types()[self.ir_name]

    @property
    def is_int(self) -> bool:
        """Integers, ``int1`` included."""
        return self.kind in ("bool", "sint", "uint")

    @property
    def is_floating(self) -> bool:
        return self.kind in ("float", "fp8")

    def numpy_dtype(self) -> np.dtype:
        """The NumPy dtype of ``numpy``; ml_dtypes is imported here, only for its types
        (``ImportError`` without it: ``tt_semantics`` turns that into a clear error)."""
        if not self.ml_dtypes:
            return np.dtype(self.numpy)
        import ml_dtypes

        return np.dtype(getattr(ml_dtypes, self.numpy))


# fmt: off
ROWS: tuple[DtypeRow, ...] = (
    # signed integers: C++'s own types (``signed char``: plain ``char``'s sign is the compiler's)
    DtypeRow("int8", "int8", "i8", "sint", 8, "i8", "int8",
             cpp="signed char", vector="packed", launcher_cpp="int8_t"),
    DtypeRow("int16", "int16", "i16", "sint", 16, "i16", "int16",
             cpp="short", vector="packed", launcher_cpp="int16_t"),
    DtypeRow("int32", "int32", "i32", "sint", 32, "i32", "int32",
             cpp="int", vector="builtin", launcher_cpp="int32_t", abi="i32", libdevice=""),
    DtypeRow("int64", "int64", "i64", "sint", 64, "i64", "int64",
             cpp="long long", launcher_cpp="int64_t", abi="i64", libdevice="ll"),
    # int1 counts as unsigned, as in Triton; one byte in memory (a C++ ``bool``, NumPy's too)
    DtypeRow("int1", "int1", "i1", "bool", 1, "i1", "bool",
             cpp="bool", launcher_cpp="int8_t", abi="i32"),
    # unsigned integers: the lowered IR is signless (``gpu_lowering/signless.py``), so the CUDA
    # printer and gpusim see them as the signed row of their width (``signless_row``)
    DtypeRow("uint8", "uint8", "u8", "uint", 8, "ui8", "uint8",
             cpp="unsigned char", launcher_cpp="uint8_t"),
    DtypeRow("uint16", "uint16", "u16", "uint", 16, "ui16", "uint16",
             cpp="unsigned short", launcher_cpp="uint16_t"),
    DtypeRow("uint32", "uint32", "u32", "uint", 32, "ui32", "uint32",
             cpp="unsigned", launcher_cpp="uint32_t", abi="i32"),
    DtypeRow("uint64", "uint64", "u64", "uint", 64, "ui64", "uint64",
             cpp="unsigned long long", launcher_cpp="uint64_t", abi="i64"),
    # fp8: Triton's IR types (fp8e4b15's is a stand-in: its format is bias 15, see tt_fp8),
    # held in ml_dtypes' arrays of the same name; the lowering computes on their bits (no C++
    # type), Triton's launcher has no C type for them
    DtypeRow("float8e4b15", "fp8e4b15", "fp8e4b15", "fp8", 8, "f8E4M3B11FNUZ",
             "float8_e4m3b11fnuz", ml_dtypes=True, array=False, mantissa_bits=3, exponent_bias=15),
    DtypeRow("float8e4nv", "fp8e4nv", "fp8e4nv", "fp8", 8, "f8E4M3FN",
             "float8_e4m3fn", ml_dtypes=True, mantissa_bits=3, exponent_bias=7),
    DtypeRow("float8e4b8", "fp8e4b8", "fp8e4b8", "fp8", 8, "f8E4M3FNUZ",
             "float8_e4m3fnuz", ml_dtypes=True, mantissa_bits=3, exponent_bias=8),
    DtypeRow("float8e5", "fp8e5", "fp8e5", "fp8", 8, "f8E5M2",
             "float8_e5m2", ml_dtypes=True, mantissa_bits=2, exponent_bias=15),
    DtypeRow("float8e5b16", "fp8e5b16", "fp8e5b16", "fp8", 8, "f8E5M2FNUZ",
             "float8_e5m2fnuz", ml_dtypes=True, mantissa_bits=2, exponent_bias=16),
    # floats; f16 and bf16 are their bits in the printed CUDA (``c_types.HALF_PRELUDE``), and
    # Triton's launcher takes every float scalar as a double
    DtypeRow("float16", "fp16", "fp16", "float", 16, "f16", "float16",
             cpp="mt_half", vector="packed", launcher_cpp="double",
             mantissa_bits=10, exponent_bias=15),
    DtypeRow("bfloat16", "bf16", "bf16", "float", 16, "bf16", "bfloat16", ml_dtypes=True,
             cpp="mt_bf16", vector="packed", launcher_cpp="double",
             mantissa_bits=7, exponent_bias=127),
    DtypeRow("float32", "fp32", "fp32", "float", 32, "f32", "float32",
             cpp="float", vector="builtin", launcher_cpp="double", abi="f32", libdevice="f",
             mantissa_bits=23, exponent_bias=127),
    DtypeRow("float64", "fp64", "fp64", "float", 64, "f64", "float64",
             cpp="double", launcher_cpp="double", abi="f64", libdevice="",
             mantissa_bits=52, exponent_bias=1023),
)
# fmt: on

BY_NAME: dict[str, DtypeRow] = {r.name: r for r in ROWS}
BY_DTYPE_NAME: dict[str, DtypeRow] = {r.dtype_name: r for r in ROWS}
BY_SIGNATURE: dict[str, DtypeRow] = {r.signature: r for r in ROWS}
#: integer rows by (bits, unsigned); int1 under both
_INTEGERS: dict[tuple[int, bool], DtypeRow] = {
    **{(r.bits, r.kind == "uint"): r for r in ROWS if r.is_int},
    (1, True): BY_NAME["int1"],
}


def int_row(bits: int, unsigned: bool = False) -> DtypeRow | None:
    """The integer row of ``bits`` bits (``int1`` for 1, whatever ``unsigned`` says)."""
    return _INTEGERS.get((bits, unsigned))


@functools.cache
def _ir_types() -> dict[str, Attribute]:
    """Each row's IR type by its text (xDSL is imported here, on first use: ``import mytriton``
    reads the table's names and loads no compiler)."""
    from xdsl.dialects.builtin import (
        Float8E4M3B11FNUZType,
        Float8E4M3FNType,
        Float8E4M3FNUZType,
        Float8E5M2FNUZType,
        Float8E5M2Type,
        IntegerType,
        Signedness,
        bf16,
        f16,
        f32,
        f64,
    )

    types: list[Attribute] = [
        *(IntegerType(w, s) for w in (1, 8, 16, 32, 64) for s in Signedness),
        Float8E4M3B11FNUZType(),
        Float8E4M3FNType(),
        Float8E4M3FNUZType(),
        Float8E5M2FNUZType(),
        Float8E5M2Type(),
        bf16,
        f16,
        f32,
        f64,
    ]
    by_text = {str(t): t for t in types}
    return {r.ir_name: by_text[r.ir_name] for r in ROWS}


@functools.cache
def _by_ir() -> dict[Attribute, DtypeRow]:
    return {r.ir: r for r in ROWS}


def row_of_ir(t: Attribute) -> DtypeRow | None:
    """The row of IR element type ``t``: integers by width and signedness (a signed ``si32``
    and a signless ``i32`` are int32, an ``i1`` of any signedness int1), else the row of that
    exact type; None for types no dtype has (``index``, pointers, ``f80``)."""
    from xdsl.dialects.builtin import IntegerType, Signedness

    if isinstance(t, IntegerType):
        return int_row(t.width.data, t.signedness.data == Signedness.UNSIGNED)
    return _by_ir().get(t)


def signless_row(t: Attribute) -> DtypeRow | None:
    """The row of a type of the lowered, signless IR: integers by width alone (signed rows),
    as the CUDA printer and gpusim read them."""
    from xdsl.dialects.builtin import IntegerType

    if isinstance(t, IntegerType):
        return int_row(t.width.data)
    return _by_ir().get(t)


def abi_types() -> dict[str, Attribute]:
    """The lowered kernel parameter type of each ABI kind of a scalar argument."""
    return {r.abi: r.ir for r in ROWS if r.abi is not None and r.ir_name == r.abi}


def __getattr__(name: str) -> Any:
    # the tables of IR types, made on first use (``_ir_types``)
    if name == "BY_IR":
        return _by_ir()
    if name == "ABI_TYPES":
        return abi_types()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
