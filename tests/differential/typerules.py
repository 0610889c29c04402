"""Triton 3.6's typing rules for the ops the generator emits, so that most programs are valid.

The generator predicts each value's dtype with these rules and writes a ``tl.static_assert`` on
it: if real Triton disagrees with the model, Triton rejects the program with our marker and the
test reports a generator bug; if mytriton disagrees with Triton, the two disagree on
accept/reject. Written from Triton's documented semantics (``language/semantic.py``), not copied.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Rejected(Exception):
    """Triton rejects this operation (a TypeError/ValueError at compile time)."""


class Kind(IntEnum):
    """A dtype's kind and signedness (int1 counts as unsigned, as in Triton)."""

    BOOL = 0
    UINT = 1
    INT = 2
    FLOAT = 3


@dataclass(frozen=True)
class DType:
    name: str  # the ``tl.`` name
    kind: Kind
    bits: int
    numpy: str  # the NumPy dtype name of the buffers (bfloat16: ml_dtypes' / uint16 bits)

    @property
    def is_int(self) -> bool:
        return self.kind != Kind.FLOAT

    @property
    def is_float(self) -> bool:
        return self.kind == Kind.FLOAT

    @property
    def signed(self) -> bool:
        return self.kind == Kind.INT

    @property
    def rank(self) -> int:
        """Triton's kind order for weak scalars: bool < integer (either sign) < float."""
        return {Kind.BOOL: 0, Kind.UINT: 1, Kind.INT: 1, Kind.FLOAT: 2}[self.kind]

    def int_range(self) -> tuple[int, int]:
        if self.kind == Kind.BOOL:
            return (0, 1)
        if self.signed:
            return (-(2 ** (self.bits - 1)), 2 ** (self.bits - 1) - 1)
        return (0, 2**self.bits - 1)


def _table() -> dict[str, DType]:
    rows = [DType("int1", Kind.BOOL, 1, "bool")]
    for bits in (8, 16, 32, 64):
        rows.append(DType(f"int{bits}", Kind.INT, bits, f"int{bits}"))
        rows.append(DType(f"uint{bits}", Kind.UINT, bits, f"uint{bits}"))
    rows += [
        DType("float16", Kind.FLOAT, 16, "float16"),
        DType("bfloat16", Kind.FLOAT, 16, "bfloat16"),
        DType("float32", Kind.FLOAT, 32, "float32"),
        DType("float64", Kind.FLOAT, 64, "float64"),
    ]
    return {d.name: d for d in rows}


DTYPES = _table()
BOOL, I32, I64, U32, U64 = (DTYPES[n] for n in ("int1", "int32", "int64", "uint32", "uint64"))
F16, BF16, F32, F64 = (DTYPES[n] for n in ("float16", "bfloat16", "float32", "float64"))
INTS = [
    DTYPES[n] for n in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
]
FLOATS = [F16, BF16, F32, F64]
MANTISSA = {"float16": 10, "bfloat16": 7, "float32": 23, "float64": 52}


def scalar_dtype(value: bool | int | float) -> DType:
    """The dtype Triton gives a Python scalar operand (a literal or a constexpr)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        if -(2**31) <= value < 2**31:
            return I32
        if value < 2**32 and value >= 0:
            return U32
        if -(2**63) <= value < 2**63:
            return I64
        if 0 <= value < 2**64:
            return U64
        raise Rejected(f"nonrepresentable integer {value}")
    mag = abs(value)
    if mag in (0.0, float("inf")) or value != value or 2.0**-126 <= mag <= 3.4028234663852886e38:
        return F32
    return F64


def arg_dtype(value: int) -> DType:
    """The dtype of a runtime integer argument (Triton's launch: no uint32)."""
    if -(2**31) <= value < 2**31:
        return I32
    return U64 if value >= 2**63 else I64


def integer_promote(a: DType, b: DType) -> DType:
    """C's usual arithmetic conversions between two integer dtypes."""
    if a.signed == b.signed:
        return a if a.bits > b.bits else b
    unsigned, signed = (a, b) if not a.signed else (b, a)
    return unsigned if unsigned.bits >= signed.bits else signed


def computation_type(a: DType, a_weak: bool, b: DType, b_weak: bool, div_or_mod: bool) -> DType:
    """The common dtype of a binary op; a weak (Python scalar) operand of a lower or equal kind
    takes the block's dtype (f16/bf16 still go to f32 for / and %)."""
    if a_weak != b_weak:
        scalar, block = (a, b) if a_weak else (b, a)
        if scalar.rank <= block.rank:
            if div_or_mod and block in (F16, BF16):
                return F32
            return block
    if F64 in (a, b):
        return F64
    if F32 in (a, b):
        return F32
    if F16 in (a, b):
        return F32 if div_or_mod else F16
    if a == BF16 and b == BF16:
        return F32 if div_or_mod else BF16
    if BF16 in (a, b):
        return F32
    if div_or_mod and a.signed != b.signed:
        raise Rejected("/, // or % between different signedness")
    return integer_promote(a, b)


def check_scalars(result: DType, scalars: list[bool | int | float]) -> None:
    """Triton's range checks of Python scalar operands against the computation dtype."""
    for s in scalars:
        if result.kind in (Kind.UINT, Kind.BOOL) and s < 0:
            raise Rejected("negative scalar with an unsigned block")
        if result.is_int:
            lo, hi = result.int_range()
            if not lo <= s <= hi:
                raise Rejected(f"scalar {s} out of range for {result.name}")
