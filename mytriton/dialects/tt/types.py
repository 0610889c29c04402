"""Types of the `tt` dialect and helpers over "block-or-scalar" types.

A *block* is a builtin ranked ``tensor`` (``tensor<16x32xf32>``, ``tensor<128x!tt.ptr<f32>>``),
exactly as in Triton's own IR, so layout encodings can later ride on the tensor type. A *scalar*
is a builtin integer/float type or a ``!tt.ptr``. Helpers here let verifiers, the frontend, the
interpreter and the lowering speak about both uniformly: ``shape_of(scalar) == ()``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    IntAttr,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer

from mytriton.dialects.tt import dtype_table

# Triton's limit on the number of elements of one block (TRITON_MAX_TENSOR_NUMEL).
MAX_BLOCK_NUMEL = 1 << 20

GLOBAL_ADDRESS_SPACE = 1
SHARED_ADDRESS_SPACE = 3


@irdl_attr_definition
class PointerType(ParametrizedAttribute, TypeAttribute):
    """``!tt.ptr<f32>``: a pointer into global memory (``!tt.ptr<f32, 3>`` for shared memory).

    ``!tt.ptr<f32, const>`` points to constant data (a kernel parameter annotated ``tl.const``,
    Triton's ``const_pointer<fp32>``): the frontend refuses stores through it, and since the
    constness is part of the type, a value is either const or not on every path, as in Triton.
    Past the frontend it is a pointer like any other."""

    name = "tt.ptr"

    pointee: Attribute
    address_space: IntAttr
    constness: IntAttr  # 1: const

    def __init__(
        self, pointee: Attribute, address_space: int = GLOBAL_ADDRESS_SPACE, const: bool = False
    ):
        super().__init__(pointee, IntAttr(address_space), IntAttr(int(const)))

    @property
    def is_const(self) -> bool:
        return bool(self.constness.data)

    def verify(self) -> None:
        from xdsl.utils.exceptions import VerifyException

        if self.address_space.data < 0:
            raise VerifyException(
                f"!tt.ptr: address space must be non-negative, got {self.address_space.data}"
            )
        if self.constness.data not in (0, 1):
            raise VerifyException(f"!tt.ptr: constness must be 0 or 1, got {self.constness.data}")

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.pointee)
            if self.address_space.data != GLOBAL_ADDRESS_SPACE:
                printer.print_string(f", {self.address_space.data}")
            if self.is_const:
                printer.print_string(", const")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[Attribute, IntAttr, IntAttr]:
        with parser.in_angle_brackets():
            pointee = parser.parse_type()
            space, const = GLOBAL_ADDRESS_SPACE, False
            if parser.parse_optional_punctuation(","):
                if parser.parse_optional_keyword("const"):
                    const = True
                else:
                    space = parser.parse_integer()
                    if parser.parse_optional_punctuation(","):
                        parser.parse_keyword("const")
                        const = True
        return (pointee, IntAttr(space), IntAttr(int(const)))


# the fp8 formats (``tt_fp8``) are floats that are only stored and converted
FP8_TYPES: tuple[type[Attribute], ...] = tuple(
    type(r.ir) for r in dtype_table.ROWS if r.kind == "fp8"
)
FLOAT_TYPES: tuple[type[Attribute], ...] = tuple(
    type(r.ir) for r in dtype_table.ROWS if r.is_floating
)


def is_block(t: Attribute) -> bool:
    return isinstance(t, TensorType)


def shape_of(t: Attribute) -> tuple[int, ...]:
    """The block shape of ``t``; ``()`` for scalars."""
    if isinstance(t, TensorType):
        return tuple(t.get_shape())
    return ()


def element_type(t: Attribute) -> Attribute:
    """The element type of a block, or the scalar type itself."""
    if isinstance(t, TensorType):
        return t.get_element_type()
    return t


def block_type(elem: Attribute, shape: Sequence[int]) -> Attribute:
    """``tensor<shape x elem>``, or ``elem`` itself when ``shape`` is empty."""
    if not shape:
        return elem
    return TensorType(elem, list(shape))


def with_element_type(t: Attribute, elem: Attribute) -> Attribute:
    """``t`` with its element type replaced (keeps shape and any layout encoding)."""
    if isinstance(t, TensorType):
        return TensorType(elem, t.get_shape(), t.encoding)
    return elem


def is_float(t: Attribute) -> bool:
    return isinstance(element_type(t), FLOAT_TYPES)


def is_int(t: Attribute) -> bool:
    """Integers of any width, booleans (``i1``) included."""
    return isinstance(element_type(t), IntegerType)


def is_unsigned(t: Attribute) -> bool:
    """Unsigned integers (``ui32``): `tt` keeps the signedness in the type, as the dtype does."""
    e = element_type(t)
    return isinstance(e, IntegerType) and e.signedness.data == Signedness.UNSIGNED


def is_bool(t: Attribute) -> bool:
    e = element_type(t)
    return isinstance(e, IntegerType) and e.width.data == 1


def is_pointer(t: Attribute) -> bool:
    return isinstance(element_type(t), PointerType)


def byte_size(t: Attribute) -> int:
    """Bytes one element of scalar type ``t`` occupies in memory (``i1`` is a byte)."""
    width = getattr(t, "bitwidth", None)
    return max(1, width // 8) if isinstance(width, int) else 4


def is_power_of_two(n: int) -> bool:
    return n > 0 and (n & (n - 1)) == 0


def block_shape_problem(shape: Sequence[int]) -> str | None:
    """Why ``shape`` is not a valid block shape (Triton's rules), or None when it is."""
    if len(shape) == 0:
        return "a block needs at least one dimension"
    for i, d in enumerate(shape):
        if d <= 0:
            return f"dimension {i} of shape {list(shape)} must be positive"
        if not is_power_of_two(d):
            return f"dimension {i} of shape {list(shape)} must be a power of two (got {d})"
    return numel_problem(shape)


def triton_shape_problem(shape: Sequence[int]) -> str | None:
    """Triton's own words for what ``block_shape_problem`` finds (the first dimension that is not
    a power of two, else the element count; ours name the shape and the value)."""
    for i, d in enumerate(shape):
        if d > 0 and not is_power_of_two(d):  # (Triton's test lets 0 through: ours says why)
            return f"Shape element {i} must be a power of 2"
        if d <= 0:
            return None
    return numel_problem(shape)


def numel_problem(shape: Sequence[int]) -> str | None:
    """Triton's words when a block of ``shape`` holds more than ``MAX_BLOCK_NUMEL`` elements."""
    numel = 1
    for d in shape:
        numel *= d
    if numel > MAX_BLOCK_NUMEL:
        return f"numel ({numel}) exceeds triton maximum tensor numel ({MAX_BLOCK_NUMEL})"
    return None


def type_str(t: Attribute) -> str:
    """Short human-readable form of a type for error messages."""
    from io import StringIO

    s = StringIO()
    Printer(stream=s).print_attribute(t)
    return s.getvalue()
