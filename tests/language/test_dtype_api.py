"""The dtype API of ``tl`` against Triton 3.6: every expected value below was read from Triton
3.6.0 itself (``triton.language`` evaluated on the GPU machine, and its ``core.py`` source)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelValueError
from mytriton.language import core

# What ``triton.language`` 3.6 exports that is a dtype instance.
TRITON_DTYPE_EXPORTS = {
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "float8e4b15",
    "float8e4b8",
    "float8e4nv",
    "float8e5",
    "float8e5b16",
    "int1",
    "int16",
    "int32",
    "int64",
    "int8",
    "pi32_t",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "void",
}

S, U = core.dtype.SIGNEDNESS.SIGNED, core.dtype.SIGNEDNESS.UNSIGNED
# tl name: (str, mangle, primitive_bitwidth, int signedness, int min, int max)
INTS: dict[str, tuple[str, str, int, Any, int, int]] = {
    "int1": ("int1", "u1", 1, U, 0, 1),
    "int8": ("int8", "i8", 8, S, -128, 127),
    "int16": ("int16", "i16", 16, S, -32768, 32767),
    "int32": ("int32", "i32", 32, S, -(2**31), 2**31 - 1),
    "int64": ("int64", "i64", 64, S, -(2**63), 2**63 - 1),
    "uint8": ("uint8", "u8", 8, U, 0, 255),
    "uint16": ("uint16", "u16", 16, U, 0, 65535),
    "uint32": ("uint32", "u32", 32, U, 0, 2**32 - 1),
    "uint64": ("uint64", "u64", 64, U, 0, 2**64 - 1),
}
# tl name: (str == mangle, primitive_bitwidth, fp_mantissa_width, exponent_bias)
FLOATS: dict[str, tuple[str, int, int, int]] = {
    "float8e5": ("fp8e5", 8, 2, 15),
    "float8e5b16": ("fp8e5b16", 8, 2, 16),
    "float8e4nv": ("fp8e4nv", 8, 3, 7),
    "float8e4b8": ("fp8e4b8", 8, 3, 8),
    "float8e4b15": ("fp8e4b15", 8, 3, 15),
    "float16": ("fp16", 16, 10, 15),
    "bfloat16": ("bf16", 16, 7, 127),
    "float32": ("fp32", 32, 23, 127),
    "float64": ("fp64", 64, 52, 1023),
}
# The predicates that hold for each dtype (every other ``is_*`` is False; ``is_void`` raises).
TRUE_PREDICATES: dict[str, set[str]] = {
    "int1": {"is_bool", "is_int", "is_int1", "is_int_unsigned"},
    "int8": {"is_int", "is_int8", "is_int_signed"},
    "int16": {"is_int", "is_int16", "is_int_signed"},
    "int32": {"is_int", "is_int32", "is_int_signed"},
    "int64": {"is_int", "is_int64", "is_int_signed"},
    "uint8": {"is_int", "is_int_unsigned", "is_uint8"},
    "uint16": {"is_int", "is_int_unsigned", "is_uint16"},
    "uint32": {"is_int", "is_int_unsigned", "is_uint32"},
    "uint64": {"is_int", "is_int_unsigned", "is_uint64"},
    "float8e5": {"is_floating", "is_fp8", "is_fp8e5"},
    "float8e5b16": {"is_floating", "is_fp8", "is_fp8e5b16"},
    "float8e4nv": {"is_floating", "is_fp8", "is_fp8e4nv"},
    "float8e4b8": {"is_floating", "is_fp8", "is_fp8e4b8"},
    "float8e4b15": {"is_floating", "is_fp8", "is_fp8e4b15"},
    "float16": {"is_floating", "is_fp16", "is_standard_floating"},
    "bfloat16": {"is_bf16", "is_floating", "is_standard_floating"},
    "float32": {"is_floating", "is_fp32", "is_standard_floating"},
    "float64": {"is_floating", "is_fp64", "is_standard_floating"},
    "void": set(),
}
PREDICATES = sorted(
    n for n in dir(core.dtype) if n.startswith("is_") and n not in ("is_void", "is_dtype")
)


def test_tl_exports_the_dtypes_triton_does() -> None:
    exported = {n for n in dir(tl) if isinstance(getattr(tl, n), tl.dtype)}
    assert exported == TRITON_DTYPE_EXPORTS
    assert set(tl.__all__) >= TRITON_DTYPE_EXPORTS


def test_predicate_names_are_tritons() -> None:
    fp = ["is_fp8", *(f"is_fp8e{t}" for t in ("4b15", "4b8", "4nv", "5", "5b16"))]
    fp += ["is_fp16", "is_bf16", "is_fp32", "is_fp64", "is_floating", "is_standard_floating"]
    ints = [f"is_{u}int{w}" for u in ("", "u") for w in (8, 16, 32, 64)]
    ints += ["is_int1", "is_bool", "is_int", "is_int_signed", "is_int_unsigned"]
    assert sorted(PREDICATES) == sorted([*fp, *ints, "is_block", "is_ptr", "is_const"])


def test_class_lists() -> None:
    assert tl.dtype.SINT_TYPES == ["int8", "int16", "int32", "int64"]
    assert tl.dtype.UINT_TYPES == ["int1", "uint8", "uint16", "uint32", "uint64"]
    fp8 = ["fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16"]
    assert tl.dtype.FP_TYPES[:5] == fp8
    assert tl.dtype.FP_TYPES[5:] == tl.dtype.STANDARD_FP_TYPES
    assert tl.dtype.STANDARD_FP_TYPES == ["fp16", "bf16", "fp32", "fp64"]
    assert tl.dtype.OTHER_TYPES == ["void"]
    assert [k.name for k in tl.dtype.KIND] == ["BOOLEAN", "INTEGRAL", "FLOATING"]
    assert [s.value for s in tl.dtype.SIGNEDNESS] == [0, 1]


@pytest.mark.parametrize("name", INTS)
def test_integer_dtype(name: str) -> None:
    text, mangled, width, signedness, lo, hi = INTS[name]
    d = getattr(tl, name)
    assert (str(d), d.name, repr(d)) == (text, text, f"triton.language.{name}")
    assert d.codegen_name() == name and d.cache_key_part == text
    assert d.mangle() == mangled
    assert (d.primitive_bitwidth, d.int_bitwidth, d.itemsize) == (width, width, width // 8)
    assert d.int_signedness is signedness
    assert (d.get_int_min_value(), d.get_int_max_value()) == (lo, hi)
    assert d.kind() is (tl.dtype.KIND.BOOLEAN if name == "int1" else tl.dtype.KIND.INTEGRAL)
    assert not hasattr(d, "fp_mantissa_width") and not hasattr(d, "exponent_bias")


@pytest.mark.parametrize("name", FLOATS)
def test_float_dtype(name: str) -> None:
    text, width, mantissa, bias = FLOATS[name]
    d = getattr(tl, name)
    assert (str(d), d.name, repr(d)) == (text, text, f"triton.language.{name}")
    assert d.codegen_name() == name and d.mangle() == text and d.cache_key_part == text
    assert (d.primitive_bitwidth, d.itemsize) == (width, width // 8)
    assert (d.fp_mantissa_width, d.exponent_bias) == (mantissa, bias)
    assert d.kind() is tl.dtype.KIND.FLOATING
    assert not hasattr(d, "int_signedness") and not hasattr(d, "int_bitwidth")
    with pytest.raises(AssertionError):
        d.get_int_max_value()
    with pytest.raises(AssertionError):
        d.get_int_min_value()


@pytest.mark.parametrize("name", TRUE_PREDICATES)
def test_predicates(name: str) -> None:
    d = getattr(tl, name)
    assert {p for p in PREDICATES if getattr(d, p)()} == TRUE_PREDICATES[name]
    assert d.scalar is d
    with pytest.raises(RuntimeError, match="Not implemented"):
        d.is_void()


def test_void() -> None:
    assert (str(tl.void), repr(tl.void)) == ("void", "triton.language.void")
    assert (tl.void.primitive_bitwidth, tl.void.itemsize) == (0, 0)
    with pytest.raises(RuntimeError, match="Not implemented"):
        tl.void.mangle()
    with pytest.raises(AssertionError):
        tl.void.kind()


@pytest.mark.parametrize("name", sorted(TRITON_DTYPE_EXPORTS - {"pi32_t"}))
def test_constructed_from_triton_name(name: str) -> None:
    d = getattr(tl, name)
    again = tl.dtype(str(d))
    assert again == d and hash(again) == hash(d) and (again != d) is False
    assert tl.dtype(tl.constexpr(str(d))) == d
    assert tl.dtype.is_dtype(str(d))


def test_constructor_rejects_other_names() -> None:
    # Triton asserts: the dtype named "float32" is called "fp32"
    with pytest.raises(AssertionError, match="float32"):
        tl.dtype("float32")
    assert not tl.dtype.is_dtype("float32")


def test_equality() -> None:
    assert tl.int8 != tl.uint8 and tl.float16 != tl.bfloat16
    assert tl.int8 != "int8"
    assert tl.int32 == tl.constexpr(tl.int32)
    assert len({tl.int8, tl.dtype("int8"), tl.uint8}) == 2


def test_mytriton_kind_and_signedness() -> None:
    """The compiler reads ``kind`` as a string: unsigned integers are "int", fp8 is "float"."""
    assert tl.int1.kind == "bool"
    assert all(getattr(tl, n).kind == "int" for n in INTS if n != "int1")
    assert all(getattr(tl, n).kind == "float" for n in FLOATS)
    assert tl.pointer_type(tl.int8).kind == "pointer"
    assert tl.uint32.is_int_unsigned() and not tl.uint32.is_int_signed()


def test_dtypes_table_lists_every_value_dtype() -> None:
    assert set(core.DTYPES) == {str(getattr(tl, n)) for n in [*INTS, *FLOATS]}
    assert all(core.DTYPES[str(d)] is d for d in core.DTYPES.values())


def test_get_int_dtype() -> None:
    got = [core.get_int_dtype(w, s) for w in (1, 8, 16, 32, 64) for s in (True, False)]
    assert got == [
        *(tl.int1, tl.int1, tl.int8, tl.uint8, tl.int16, tl.uint16),
        *(tl.int32, tl.uint32, tl.int64, tl.uint64),
    ]
    with pytest.raises(ValueError, match="Unsupported bitwidth 7 and signedness True"):
        core.get_int_dtype(7, True)


def test_pointer_type() -> None:
    p = tl.pointer_type(tl.float32)
    assert (str(p), repr(p), p.name) == ("pointer<fp32>", "pointer<fp32>", "pointer<fp32>")
    assert p.element_ty is tl.float32 and p.address_space == 1 and not p.const
    assert p.is_ptr() and not p.is_const() and not p.is_floating() and p.scalar is p
    assert p.mangle() == "Pfp32" and p.codegen_name() == "pointer<fp32>"
    assert p == tl.pointer_type(tl.float32) and hash(p) == hash(tl.pointer_type(tl.float32))
    assert p != tl.pointer_type(tl.float32, 3) and p != tl.pointer_type(tl.float16)
    assert p != tl.float32 and tl.float32 != p
    assert str(tl.pointer_type(p)) == "pointer<pointer<fp32>>"
    assert tl.pi32_t == tl.pointer_type(tl.int32)
    with pytest.raises(AssertionError):
        p.kind()


def test_const_pointer_type() -> None:
    c = tl.pointer_type(tl.float32, const=True)
    assert str(c) == "const_pointer<fp32>" and c.is_const()
    assert c != tl.pointer_type(tl.float32)


def test_pointer_to_a_non_dtype_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=re.escape("element_ty has type `int`; expected `dtype`.")):
        tl.pointer_type(3)  # type: ignore[arg-type]


def test_block_type() -> None:
    b = tl.block_type(tl.float32, [4, 8])
    # Triton 3.6 prints the shape as a list of strings
    assert str(b) == repr(b) == "<['4', '8'], fp32>"
    assert b.shape == b.get_block_shapes() == (4, 8)
    assert (b.numel, b.nbytes) == (32, 128)
    assert b.is_block() and not b.is_ptr() and not b.is_floating()
    assert b.scalar is tl.float32 and b.mangle() == "fp32S4_8S"
    assert b == tl.block_type(tl.float32, [4, 8]) and b != tl.block_type(tl.float32, [8, 4])
    assert str(b.with_element_ty(tl.int8)) == "<['4', '8'], int8>"
    assert tl.block_type(tl.float32, [tl.constexpr(16)]).shape == (16,)


@pytest.mark.parametrize(
    ("shape", "error", "message"),
    [
        ([], TypeError, "0d block_type is forbidden"),
        ([3], ValueError, "Shape element 0 must be a power of 2"),
        ([2**21], ValueError, r"numel \(2097152\) exceeds triton maximum tensor numel \(1048576\)"),
    ],
)
def test_block_type_rejects(shape: list[int], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        tl.block_type(tl.float32, shape)


# ---- inside a kernel: the dtype API runs while compiling, as in Triton ----


@triton.jit
def dtype_api_kernel(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.static_assert(X.dtype.is_ptr() and X.dtype.element_ty.is_fp32())
    tl.static_assert(x.dtype.kind() == tl.dtype.KIND.FLOATING)
    tl.static_assert(tl.uint8.get_int_max_value() == 255 and tl.int8.is_block() == False)  # noqa: E712
    tl.static_assert(tl.dtype("fp32") == x.dtype)
    scale = 0
    if x.dtype.is_floating():
        scale = x.dtype.fp_mantissa_width
    tl.store(Y.to(tl.pointer_type(tl.float32)) + tl.arange(0, BLOCK), x * scale)


def test_dtype_api_inside_a_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    x = np.arange(16, dtype=np.float32)
    y = np.zeros_like(x)
    dtype_api_kernel[(1,)](x, y, BLOCK=16)
    np.testing.assert_array_equal(y, x * 23)


@triton.jit
def int_range_of_float_kernel(X):
    tl.static_assert(X.dtype.element_ty.get_int_max_value() > 0)


def test_failing_dtype_method_is_a_kernel_error() -> None:
    with pytest.raises(KernelValueError, match="get_int_max_value"):
        int_range_of_float_kernel.warmup(np.zeros(4, np.float32), grid=(1,))
