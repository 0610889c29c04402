"""GPU semantics of single ops on hand-written lowered IR: one lane per thread."""

from __future__ import annotations

import numpy as np
import pytest

from mytriton.backends.gpusim import run_lowered
from tests.gpusim.util import gpu_module

pytestmark = pytest.mark.execution

I32_MIN, I32_MAX = -(2**31), 2**31 - 1

TID = """
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %ti = arith.index_cast %t : index to i32"""


def _elementwise(expr: str, a: np.ndarray, b: np.ndarray, out_dtype: type) -> np.ndarray:
    """Thread ``t`` computes ``expr`` (over ``%a``, ``%b``) from ``a[t]``, ``b[t]``."""
    types = {np.float32: "f32", np.int32: "i32", np.bool_: "i1"}
    ta, tb, to = types[a.dtype.type], types[b.dtype.type], types[out_dtype]
    module = gpu_module(
        "%pa: !llvm.ptr<1>, %pb: !llvm.ptr<1>, %po: !llvm.ptr<1>",
        f"{ta}, {tb}, {to}",
        f"""{TID}
      %xa = llvm.getelementptr %pa[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {ta}
      %xb = llvm.getelementptr %pb[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {tb}
      %xo = llvm.getelementptr %po[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, {to}
      %a = llvm.load %xa : !llvm.ptr<1> -> {ta}
      %b = llvm.load %xb : !llvm.ptr<1> -> {tb}
      {expr}
      llvm.store %r, %xo : {to}, !llvm.ptr<1>""",
        threads=a.size,
    )
    out = np.zeros(a.size, out_dtype)
    run_lowered(module, (1, 1, 1), [a, b, out])
    return out


def i32(*v: int) -> np.ndarray:
    return np.array(v, np.int64).astype(np.int32)


def f32(*v: float) -> np.ndarray:
    return np.array(v, np.float32)


def test_i32_arithmetic_wraps() -> None:
    a, b = i32(I32_MAX, I32_MIN, 65536), i32(1, -1, 65536)
    assert list(_elementwise("%r = arith.addi %a, %b : i32", a, b, np.int32)) == [
        I32_MIN,
        I32_MAX,
        131072,
    ]
    assert list(_elementwise("%r = arith.muli %a, %b : i32", a, b, np.int32)) == [
        I32_MAX,
        I32_MIN,
        0,
    ]


def test_division_truncates_like_c() -> None:
    a, b = i32(-7, 7, -7, 7, I32_MIN, 6), i32(2, -2, -2, 2, -1, 3)
    q = _elementwise("%r = arith.divsi %a, %b : i32", a, b, np.int32)
    r = _elementwise("%r = arith.remsi %a, %b : i32", a, b, np.int32)
    assert list(q) == [-3, -3, 3, 3, I32_MIN, 2]
    assert list(r) == [-1, 1, -1, 1, 0, 0]


def test_division_by_zero_does_not_trap() -> None:
    a, b = i32(5, -5), i32(0, 0)
    assert list(_elementwise("%r = arith.divsi %a, %b : i32", a, b, np.int32)) == [-1, -1]
    assert list(_elementwise("%r = arith.remsi %a, %b : i32", a, b, np.int32)) == [5, -5]


def test_shifts() -> None:
    a, b = i32(-8, -8, 1, 1, -1), i32(1, 1, 31, 32, 40)
    assert list(_elementwise("%r = arith.shrui %a, %b : i32", a, b, np.int32)) == [
        0x7FFFFFFC,
        0x7FFFFFFC,
        0,
        0,
        0,
    ]
    assert list(_elementwise("%r = arith.shrsi %a, %b : i32", a, b, np.int32)) == [-4, -4, 0, 0, -1]
    assert list(_elementwise("%r = arith.shli %a, %b : i32", a, b, np.int32)) == [
        -16,
        -16,
        I32_MIN,
        0,
        0,
    ]


def test_signed_and_unsigned_compares_and_extremes() -> None:
    a, b = i32(-1, 1, 3), i32(1, -1, 3)
    assert list(_elementwise("%r = arith.cmpi slt, %a, %b : i32", a, b, np.bool_)) == [
        True,
        False,
        False,
    ]
    assert list(_elementwise("%r = arith.cmpi ult, %a, %b : i32", a, b, np.bool_)) == [
        False,
        True,
        False,
    ]
    assert list(_elementwise("%r = arith.cmpi sge, %a, %b : i32", a, b, np.bool_)) == [
        False,
        True,
        True,
    ]
    assert list(_elementwise("%r = arith.maxsi %a, %b : i32", a, b, np.int32)) == [1, 1, 3]
    assert list(_elementwise("%r = arith.minsi %a, %b : i32", a, b, np.int32)) == [-1, -1, 3]


@pytest.mark.parametrize(
    ("pred", "expected"),
    [
        ("oeq", [True, False, False, False]),
        ("une", [False, True, True, True]),
        ("uno", [False, False, True, True]),
        ("ord", [True, True, False, False]),
        ("olt", [False, True, False, False]),
        ("ult", [False, True, True, True]),
        ("ogt", [False, False, False, False]),
        ("uge", [True, False, True, True]),
        ("one", [False, True, False, False]),
    ],
)
def test_float_compares_ordered_and_unordered(pred: str, expected: list[bool]) -> None:
    nan = float("nan")
    a, b = f32(1.0, 1.0, nan, nan), f32(1.0, 2.0, 1.0, nan)
    got = _elementwise(f"%r = arith.cmpf {pred}, %a, %b : f32", a, b, np.bool_)
    assert list(got) == expected


def test_fptosi_truncates_and_saturates() -> None:
    a = f32(1.9, -1.9, float("nan"), 3e9, -3e9, float("inf"), -0.5)
    got = _elementwise("%r = arith.fptosi %a : f32 to i32", a, a, np.int32)
    assert list(got) == [1, -1, 0, I32_MAX, I32_MIN, I32_MAX, 0]


def test_int_to_float_conversions() -> None:
    a = i32(-1, 16777217, 7)
    assert list(_elementwise("%r = arith.sitofp %a : i32 to f32", a, a, np.float32)) == [
        -1.0,
        16777216.0,
        7.0,
    ]
    assert list(_elementwise("%r = arith.uitofp %a : i32 to f32", a, a, np.float32)) == [
        4294967296.0,
        16777216.0,
        7.0,
    ]


def test_remf_is_fmod_and_f32_stays_f32() -> None:
    a, b = f32(-7.5, 7.5, 1.0), f32(2.0, -2.0, 3.0)
    assert list(_elementwise("%r = arith.remf %a, %b : f32", a, b, np.float32)) == [-1.5, 1.5, 1.0]
    got = _elementwise("%r = arith.divf %a, %b : f32", a, b, np.float32)
    assert got[2] == np.float32(1.0) / np.float32(3.0)


def test_fma_and_select() -> None:
    a, b = f32(1.5, -2.0), f32(2.0, 4.0)
    got = _elementwise("%r = math.fma %a, %b, %a : f32", a, b, np.float32)
    assert list(got) == [4.5, -10.0]
    got = _elementwise(
        "%c = arith.cmpf ogt, %a, %b : f32\n      %r = arith.select %c, %a, %b : f32",
        a,
        b,
        np.float32,
    )
    assert list(got) == [2.0, 4.0]


@pytest.mark.parametrize("offset", [1, 2, 4, 8, 16])
def test_shuffle_xor_within_warps(offset: int) -> None:
    module = gpu_module(
        "%po: !llvm.ptr<1>",
        "i32",
        f"""{TID}
      %off = arith.constant {offset} : i32
      %w = arith.constant 32 : i32
      %s, %ok = "gpu.shuffle"(%ti, %off, %w) <{{mode = #gpu<shuffle_mode xor>}}>
        : (i32, i32, i32) -> (i32, i1)
      %x = llvm.getelementptr %po[%ti] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      llvm.store %s, %x : i32, !llvm.ptr<1>""",
        threads=64,
    )
    out = np.zeros(64, np.int32)
    run_lowered(module, (1, 1, 1), [out])
    assert list(out) == [t ^ offset for t in range(64)]


def test_ids_of_a_3d_grid() -> None:
    module = gpu_module(
        "%po: !llvm.ptr<1>",
        "i32",
        """
      %bx = "gpu.block_id"() <{dimension = #gpu<dim x>}> : () -> index
      %by = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
      %bz = "gpu.block_id"() <{dimension = #gpu<dim z>}> : () -> index
      %gx = "gpu.grid_dim"() <{dimension = #gpu<dim x>}> : () -> index
      %gy = "gpu.grid_dim"() <{dimension = #gpu<dim y>}> : () -> index
      %r0 = arith.muli %bz, %gy : index
      %r1 = arith.addi %r0, %by : index
      %r2 = arith.muli %r1, %gx : index
      %lin = arith.addi %r2, %bx : index
      %li = arith.index_cast %lin : index to i32
      %x = llvm.getelementptr %po[%li] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
      %v = arith.constant 1 : i32
      %old = llvm.load %x : !llvm.ptr<1> -> i32
      %new = arith.addi %old, %v : i32
      %t = "gpu.thread_id"() <{dimension = #gpu<dim x>}> : () -> index
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        llvm.store %new, %x : i32, !llvm.ptr<1>
      }""",
    )
    out = np.zeros(3 * 4 * 5, np.int32)
    run_lowered(module, (3, 4, 5), [out])
    # every program visits its own element exactly once (thread 0 updates it: if every thread
    # did, the read-modify-write would race)
    assert (out == 1).all()


@pytest.mark.parametrize(
    ("name", "ref"),
    [
        ("exp", np.exp),
        ("exp2", np.exp2),
        ("log", np.log),
        ("log2", np.log2),
        ("sqrt", np.sqrt),
        ("rsqrt", lambda x: 1 / np.sqrt(x)),
        ("sin", np.sin),
        ("cos", np.cos),
        ("floor", np.floor),
        ("ceil", np.ceil),
        ("absf", np.abs),
    ],
)
def test_unary_math_in_f32(name: str, ref: object) -> None:
    a = f32(0.25, 1.0, 2.5, 7.75, 30.0)
    got = _elementwise(f"%r = math.{name} %a : f32", a, a, np.float32)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref(a.astype(np.float64)), rtol=5e-7)  # type: ignore[operator]  # a few f32 ulp


def test_absi_and_negf_and_integer_casts() -> None:
    a = i32(-5, 7, I32_MIN)
    assert list(_elementwise("%r = math.absi %a : i32", a, a, np.int32)) == [5, 7, I32_MIN]
    got = _elementwise(
        "%w = arith.extsi %a : i32 to i64\n      %r = arith.trunci %w : i64 to i32", a, a, np.int32
    )
    assert list(got) == [-5, 7, I32_MIN]
    b = f32(1.5, -0.0)
    assert [str(v) for v in _elementwise("%r = arith.negf %a : f32", b, b, np.float32)] == [
        "-1.5",
        "0.0",
    ]
