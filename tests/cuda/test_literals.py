"""Constants print as exact C++ literals (floats round-trip bit for bit)."""

from __future__ import annotations

import struct

import pytest

from mytriton.backends.cuda.literals import float_literal, int_literal


@pytest.mark.parametrize(
    ("value", "width", "text"),
    [
        (0, 32, "0"),
        (-7, 32, "-7"),
        (2**31 - 1, 32, "2147483647"),
        (-(2**31), 32, "(-2147483647 - 1)"),
        (2**32 - 1, 32, "-1"),  # signless bits read as two's complement
        (2**63 - 1, 64, "9223372036854775807LL"),
        (-(2**63), 64, "(-9223372036854775807LL - 1)"),
        (5, 64, "5LL"),
        (1, 1, "true"),
        (0, 1, "false"),
        (-1, 1, "true"),
    ],
)
def test_int_literal(value: int, width: int, text: str) -> None:
    assert int_literal(value, width) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1.0f"),
        (0.1, "0.1f"),
        (-0.0, "-0.0f"),
        (1e30, "1e+30f"),
        (3.4028234663852886e38, "3.4028235e+38f"),
        (1e-45, "1e-45f"),
        (float("inf"), "__uint_as_float(0x7f800000u) /* inf */"),
        (float("-inf"), "__uint_as_float(0xff800000u) /* -inf */"),
        (float("nan"), "__uint_as_float(0x7fc00000u) /* nan */"),
    ],
)
def test_f32_literal(value: float, text: str) -> None:
    assert float_literal(value, 32) == text


@pytest.mark.parametrize("value", [0.1, 1 / 3, 2.0**-126, 2.0**-149, 123456.789, -1e-7, 65504.0])
def test_f32_literal_round_trips(value: float) -> None:
    """Reading the printed decimal as a float gives the constant's f32 bits back."""
    text = float_literal(value, 32).removesuffix("f")
    expected = struct.pack("<f", value)
    assert struct.pack("<f", float(text)) == expected


def test_f64_literal() -> None:
    assert float_literal(0.1, 64) == "0.1"
    assert float_literal(2.0, 64) == "2.0"
    assert float_literal(float("inf"), 64) == (
        "__longlong_as_double((long long)0x7ff0000000000000ULL) /* inf */"
    )
