"""Scalar parameters typed by their annotation (``runtime/annotated_types.py``), as compiled
Triton types them (Triton's interpreter ignores annotations): ``s: tl.int64`` computes in
64 bits whatever value is passed (mytriton computed ``s * 4096`` in int32 and wrapped),
``v: tl.int8`` and ``u: tl.uint8`` wrap as those types, ``h: tl.float16`` is the value rounded
to f16, ``b: bool`` is a boolean (a pointer offset of 0 or 1). A value the type cannot hold is
a typed error, on the first launch and on later ones alike.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ArgumentOverflowError, LaunchError
from mytriton.runtime.annotated_types import scalar_annotation

pytestmark = pytest.mark.execution


@triton.jit
def wide_kernel(out, s: tl.int64):
    tl.store(out, s * 4096)


@triton.jit
def narrow_kernel(out, v: tl.int8, u: tl.uint8, w: tl.int16):
    tl.store(out, v + 1)
    tl.store(out + 1, u + 100)
    tl.store(out + 2, w * 2)


@triton.jit
def float_bool_kernel(out, x, h: tl.float16, b: bool, f: float):
    tl.store(out, h)
    tl.store(out + 1, f)
    tl.store(x + b, 7.0)


def test_an_int64_annotation_computes_in_64_bits(run: Any) -> None:
    out = np.zeros(1, np.int64)
    run(wide_kernel, (1,), out, 2**20)
    assert out[0] == 2**32


def test_narrow_integer_annotations_wrap_as_their_types(run: Any) -> None:
    out = np.zeros(3, np.int32)
    run(narrow_kernel, (1,), out, 127, 200, 20000)
    assert out.tolist() == [-128, 44, -25536]
    run(narrow_kernel, (1,), out, -3, 1, 5)  # again, 1 included: runtime values, not constants
    assert out.tolist() == [-2, 101, 10]


def test_float_and_bool_annotations(run: Any) -> None:
    out = np.zeros(2, np.float32)
    x = np.zeros(4, np.float32)
    run(float_bool_kernel, (1,), out, x, 1 / 3, 3, 2)  # the int 2 is a float parameter
    assert out.tolist() == [float(np.float16(1 / 3)), 2.0]
    assert x.tolist() == [0.0, 7.0, 0.0, 0.0]


def test_annotated_types_reach_the_kernel_parameters() -> None:
    out = np.zeros(3, np.int32)
    kernel = narrow_kernel.warmup(out, 1, 2, 3, grid=(1,))
    assert "%v: i8" in kernel.asm["tt"] and "%u: ui8" in kernel.asm["tt"]
    assert "%w: i16" in kernel.asm["tt"]
    x = np.zeros(4, np.float32)
    kernel = float_bool_kernel.warmup(out, x, 1.0, True, 2, grid=(1,))
    assert "%h: f16" in kernel.asm["tt"] and "%b: i1" in kernel.asm["tt"]
    assert "%f: f32" in kernel.asm["tt"]


def test_an_annotated_one_is_keyed_apart_but_passed_at_run_time() -> None:
    """Triton's rule (its test_cache's test_annotation): 1, 8 and 16 give three kernels."""

    @triton.jit
    def store_i(X, i: tl.int32):
        tl.store(X, i)

    x = np.zeros(1, np.int32)
    for i in (1, 8, 16, 17):
        store_i.warmup(x, i, grid=(1,))
    assert len(store_i.cache) == 3
    assert all("%i: i32" in k.asm["tt"] for k in store_i.cache.values())


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((300, 1, 1), ArgumentOverflowError, r"`v` = 300 does not fit its annotation int8"),
        ((1, -1, 1), ArgumentOverflowError, r"`u` = -1 does not fit its annotation uint8"),
        ((1, 1, 2.5), LaunchError, r"`w` is annotated int16 and needs an integer, got 2.5"),
    ],
)
def test_a_value_its_annotation_cannot_hold_is_refused(
    run: Any, args: tuple[Any, ...], error: type[Exception], message: str
) -> None:
    out = np.zeros(3, np.int32)
    run(narrow_kernel, (1,), out, 3, 3, 3)  # a plan for in-range values first
    with pytest.raises(error, match=message):
        run(narrow_kernel, (1,), out, *args)


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (tl.int8, "int8"),
        ("tl.uint16", "uint16"),
        ("int16_t", "int16"),
        ("i64", "int64"),
        (int, "int32"),
        (float, "fp32"),
        (bool, "int1"),
        ("half", "fp16"),
        ("bfloat16", "bf16"),
        ("double", "fp64"),
    ],
)
def test_annotation_spellings(annotation: Any, expected: str) -> None:
    d = scalar_annotation(annotation)
    assert d is not None and d.name == expected


@pytest.mark.parametrize("annotation", ["*fp32", "torch.Tensor", tl.pointer_type(tl.int8), None])
def test_other_annotations_type_nothing(annotation: Any) -> None:
    assert scalar_annotation(annotation) is None
