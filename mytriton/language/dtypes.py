"""The dtypes a kernel names through ``tl`` (``tl.float32``, ``tl.pointer_type``,
``tl.block_type``...), following Triton 3.6's Python API (names such as ``"fp32"``,
``str``/``repr``, predicates, ``mangle``...) so host code and compile-time kernel code that
inspect them behave as in Triton. On top of it every dtype carries mytriton's ``kind`` string,
which the compiler reads."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, ClassVar

from mytriton.dialects.tt import dtype_table
from mytriton.language.constexpr_values import _unwrap, constexpr

# Triton's limit on the elements of one block (``tt_types.MAX_BLOCK_NUMEL`` says the same).
TRITON_MAX_TENSOR_NUMEL = 1 << 20

# Triton's ``_utils.BITWIDTH_DICT``: the width of each scalar type, by Triton name.
_BITWIDTHS: dict[str, int] = {**{r.dtype_name: r.bits for r in dtype_table.ROWS}, "void": 0}

# (mantissa bits, exponent bias) of each floating-point type.
_FP_LAYOUTS: dict[str, tuple[int, int]] = {
    r.dtype_name: (r.mantissa_bits, r.exponent_bias)
    for r in dtype_table.ROWS
    if r.mantissa_bits is not None and r.exponent_bias is not None
}


class DtypeKind(str):
    """mytriton's kind of a dtype: ``"bool"``, ``"int"``, ``"float"``, ``"pointer"``, ``"block"``,
    ``"void"``.

    It is a string, which is what the compiler compares (``d.kind == "float"``), and calling it
    gives Triton's ``dtype.kind()`` enum (``dtype.KIND.FLOATING``), so Triton code that calls
    ``x.dtype.kind()`` also works.
    """

    __slots__ = ()

    def __call__(self) -> dtype.KIND:
        kind = _TRITON_KINDS.get(str(self))
        if kind is None:  # Triton asserts that the type is a bool, an integer or a float
            raise AssertionError(f"a {self} type has no dtype.KIND")
        return kind


class dtype:  # noqa: N801 - Triton's public name
    """A scalar element type (``tl.float32``...), built from its Triton name (``dtype("fp32")``).

    Compared and hashed by name. Unsigned integers have ``kind`` ``"int"`` (``int_signedness``
    tells them apart); ``int1`` counts as an unsigned integer, as in Triton.
    """

    # Triton's lists, in its order (the dtype table's)
    SINT_TYPES: ClassVar[list[str]] = [r.dtype_name for r in dtype_table.ROWS if r.kind == "sint"]
    UINT_TYPES: ClassVar[list[str]] = [
        r.dtype_name for r in dtype_table.ROWS if r.kind in ("bool", "uint")
    ]
    FP_TYPES: ClassVar[list[str]] = [r.dtype_name for r in dtype_table.ROWS if r.is_floating]
    STANDARD_FP_TYPES: ClassVar[list[str]] = [
        r.dtype_name for r in dtype_table.ROWS if r.kind == "float"
    ]
    OTHER_TYPES: ClassVar[list[str]] = ["void"]

    class SIGNEDNESS(enum.Enum):
        SIGNED = 0
        UNSIGNED = 1

    class KIND(enum.Enum):
        """Triton's order of kinds for type promotion: bool < integer < floating point."""

        BOOLEAN = 0
        INTEGRAL = 1
        FLOATING = 2

    name: str
    kind: DtypeKind
    primitive_bitwidth: int
    # present only on integer dtypes, as in Triton
    int_signedness: dtype.SIGNEDNESS
    int_bitwidth: int
    # present only on floating-point dtypes, as in Triton
    fp_mantissa_width: int
    exponent_bias: int

    def __init__(self, name: str | constexpr):  # Triton's parameter name
        type_name: str = _unwrap(name)
        if not dtype.is_dtype(type_name):
            # Triton asserts here; the message lists the names it would accept
            known = dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES + dtype.OTHER_TYPES
            raise AssertionError(f"{type_name!r} is not a dtype name (one of {', '.join(known)})")
        self.name = type_name
        self.primitive_bitwidth = _BITWIDTHS[type_name]
        self.itemsize = self.primitive_bitwidth // 8
        if type_name in dtype.SINT_TYPES or type_name in dtype.UINT_TYPES:
            signed = type_name in dtype.SINT_TYPES
            self.int_signedness = dtype.SIGNEDNESS.SIGNED if signed else dtype.SIGNEDNESS.UNSIGNED
            self.int_bitwidth = self.primitive_bitwidth
            self.kind = DtypeKind("bool" if type_name == "int1" else "int")
        elif type_name in dtype.FP_TYPES:
            self.fp_mantissa_width, self.exponent_bias = _FP_LAYOUTS[type_name]
            self.kind = DtypeKind("float")
        else:
            self.kind = DtypeKind("void")

    # ---- one predicate per dtype ----

    def is_fp8(self) -> bool:
        return "fp8" in self.name

    def is_fp8e4nv(self) -> bool:
        return self.name == "fp8e4nv"

    def is_fp8e4b8(self) -> bool:
        return self.name == "fp8e4b8"

    def is_fp8e4b15(self) -> bool:
        return self.name == "fp8e4b15"

    def is_fp8e5(self) -> bool:
        return self.name == "fp8e5"

    def is_fp8e5b16(self) -> bool:
        return self.name == "fp8e5b16"

    def is_fp16(self) -> bool:
        return self.name == "fp16"

    def is_bf16(self) -> bool:
        return self.name == "bf16"

    def is_fp32(self) -> bool:
        return self.name == "fp32"

    def is_fp64(self) -> bool:
        return self.name == "fp64"

    def is_int1(self) -> bool:
        return self.name == "int1"

    def is_int8(self) -> bool:
        return self.name == "int8"

    def is_int16(self) -> bool:
        return self.name == "int16"

    def is_int32(self) -> bool:
        return self.name == "int32"

    def is_int64(self) -> bool:
        return self.name == "int64"

    def is_uint8(self) -> bool:
        return self.name == "uint8"

    def is_uint16(self) -> bool:
        return self.name == "uint16"

    def is_uint32(self) -> bool:
        return self.name == "uint32"

    def is_uint64(self) -> bool:
        return self.name == "uint64"

    # ---- classes of dtypes ----

    def is_floating(self) -> bool:
        return self.name in dtype.FP_TYPES

    def is_standard_floating(self) -> bool:
        return self.name in dtype.STANDARD_FP_TYPES

    def is_int_signed(self) -> bool:
        return self.name in dtype.SINT_TYPES

    def is_int_unsigned(self) -> bool:
        return self.name in dtype.UINT_TYPES

    def is_int(self) -> bool:
        return self.name in dtype.SINT_TYPES or self.name in dtype.UINT_TYPES

    def is_bool(self) -> bool:
        return self.is_int1()

    def get_int_max_value(self) -> int:
        if self.is_int_signed():
            return 2 ** (self.int_bitwidth - 1) - 1
        if self.is_int_unsigned():
            return 2**self.int_bitwidth - 1
        raise AssertionError(f"{self} is not an integer type")

    def get_int_min_value(self) -> int:
        if self.is_int_signed():
            return -(2 ** (self.int_bitwidth - 1))
        if self.is_int_unsigned():
            return 0
        raise AssertionError(f"{self} is not an integer type")

    @staticmethod
    def is_dtype(type_str: str) -> bool:
        """Whether ``type_str`` names a scalar dtype (``"fp32"``, not ``"float32"``)."""
        return type_str in _BITWIDTHS

    @staticmethod
    def is_void() -> bool:
        raise RuntimeError("Not implemented")  # Triton 3.6 raises this for every dtype

    @staticmethod
    def is_block() -> bool:
        return False

    @staticmethod
    def is_ptr() -> bool:
        return False

    @staticmethod
    def is_const() -> bool:
        return False

    @property
    def scalar(self) -> dtype:
        return self

    @property
    def cache_key_part(self) -> str:
        return self.name

    def with_element_ty(self, element_ty: dtype) -> dtype:
        assert not self.is_block()
        return element_ty

    # ---- identity and printing ----

    def __eq__(self, other: object) -> bool:
        other = _unwrap(other)
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self) -> int:
        return hash((self.name,))

    def __str__(self) -> str:
        return self.name

    def codegen_name(self) -> str:
        """The name ``tl`` exports it under (``"float32"`` for ``"fp32"``)."""
        if self.name.startswith("fp"):
            return "float" + self.name[2:]
        if self.name.startswith("bf"):
            return "bfloat" + self.name[2:]
        return self.name

    def __repr__(self) -> str:
        return f"triton.language.{self.codegen_name()}"

    def mangle(self) -> str:
        """The type's part of a mangled function name (``i32``, ``u8``, ``fp16``)."""
        if self.is_int():
            prefix = "i" if self.int_signedness == dtype.SIGNEDNESS.SIGNED else "u"
            return f"{prefix}{self.int_bitwidth}"
        if self.is_floating():
            return str(self)
        if self.is_void():  # raises, as in Triton
            return "V"
        raise NotImplementedError(f"NYI: Type mangling for type {type(self)}")


_TRITON_KINDS = {
    "bool": dtype.KIND.BOOLEAN,
    "int": dtype.KIND.INTEGRAL,
    "float": dtype.KIND.FLOATING,
}


class pointer_type(dtype):  # noqa: N801 - Triton's public name
    """The dtype of a pointer value (``x_ptr.dtype``): ``pointer_type(tl.float32)``.

    Equal when element type, address space and constness are; ``primitive_bitwidth`` (64) is
    mytriton's addition.
    """

    def __init__(self, element_ty: dtype | constexpr, address_space: int = 1, const: bool = False):
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"element_ty has type `{type(element_ty).__name__}`; expected `dtype`.")
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = f"const_pointer<{element_ty}>" if const else f"pointer<{element_ty}>"
        self.kind = DtypeKind("pointer")
        self.primitive_bitwidth = 64

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def is_ptr(self) -> bool:  # type: ignore[override]
        return True

    def is_const(self) -> bool:  # type: ignore[override]
        return self.const

    def __eq__(self, other: object) -> bool:
        other = _unwrap(other)
        return (
            isinstance(other, pointer_type)
            and self.element_ty == other.element_ty
            and self.address_space == other.address_space
            and self.const == other.const
        )

    def __hash__(self) -> int:
        return hash((self.name, self.address_space))

    @property
    def scalar(self) -> pointer_type:
        return self

    def mangle(self) -> str:
        return f"P{self.element_ty.mangle()}"


class block_type(dtype):  # noqa: N801 - Triton's public name
    """The type of a block: ``block_type(tl.float32, [4, 8])``. Each dimension must be a power of
    two and the block hold at most ``TRITON_MAX_TENSOR_NUMEL`` elements."""

    def __init__(self, element_ty: dtype, shape: Sequence[int | constexpr]):
        self.element_ty = element_ty
        self.shape = tuple(_unwrap(s) for s in shape)
        if not self.shape:
            raise TypeError("0d block_type is forbidden")
        self.numel = _validate_block_shape(self.shape)
        # Triton 3.6 prints the shape as a list of strings: str(block_type(fp32, [4, 8])) is
        # "<['4', '8'], fp32>"
        self.name = f"<{[str(s) for s in self.shape]}, {element_ty}>"
        self.kind = DtypeKind("block")

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return self.name

    def is_block(self) -> bool:  # type: ignore[override]
        return True

    def get_block_shapes(self) -> tuple[int, ...]:
        return self.shape

    def with_element_ty(self, element_ty: dtype) -> block_type:
        return block_type(element_ty, self.shape)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, block_type)
            and self.element_ty == other.element_ty
            and self.shape == other.shape
        )

    def __hash__(self) -> int:
        return hash((self.element_ty, self.shape))

    @property
    def scalar(self) -> dtype:
        return self.element_ty

    @property
    def nbytes(self) -> int:
        return self.numel * (self.element_ty.primitive_bitwidth // 8)

    def mangle(self) -> str:
        return f"{self.element_ty.mangle()}S{'_'.join(map(str, self.shape))}S"


def _validate_block_shape(shape: Sequence[Any]) -> int:
    numel = 1
    for i, d in enumerate(shape):
        if not isinstance(d, int):
            raise TypeError(
                f"Shape element {i} must have type `constexpr[int]`, got `constexpr[{type(d)}]"
            )
        if d <= 0 or d & (d - 1):
            raise ValueError(f"Shape element {i} must be a power of 2")
        numel *= d
    if numel > TRITON_MAX_TENSOR_NUMEL:
        raise ValueError(
            f"numel ({numel}) exceeds triton maximum tensor numel ({TRITON_MAX_TENSOR_NUMEL})"
        )
    return numel


void = dtype("void")
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e5 = dtype("fp8e5")
float8e5b16 = dtype("fp8e5b16")
float8e4nv = dtype("fp8e4nv")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)

# Every dtype a value can have, by Triton name ("fp32"), in the dtype table's order; void, the
# type of no value, is left out.
DTYPES: dict[str, dtype] = {r.dtype_name: globals()[r.name] for r in dtype_table.ROWS}


def get_int_dtype(bitwidth: int, signed: bool) -> dtype:
    """The integer dtype of ``bitwidth`` bits (``int1`` for 1 whatever ``signed`` says)."""
    if bitwidth == 1:
        return int1
    name = f"{'' if signed else 'u'}int{bitwidth}"
    if bitwidth not in (8, 16, 32, 64):
        raise ValueError(f"Unsupported bitwidth {bitwidth} and signedness {signed}")
    return DTYPES[name]
