"""Float -> integer conversions of values out of range and of NaN, as Triton 3.6's kernels
compute them on the H200 (measured: `.to()` of each value, every source and target dtype):
truncate toward zero and saturate to 16, 32 or 64 bits; an 8-bit target is the low byte of the
16-bit result (LLVM converts through i16); NaN gives 0 from f16/bf16/f32 into at most 32 bits,
else the top-bit pattern. The interpreter, gpusim and both GPU backends must all agree."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

VALUES = [135.0, 300.7, -200.0, -129.5, 1e10, -1e10, float("nan"), 70000.0, -40000.0, 3e9, -1.0]

# what Triton 3.6 stored on the H200 for VALUES (uint32 read as int32)
MEASURED = {
    ("float32", "int8"): [-121, 44, 56, 127, -1, 0, 0, -1, 0, -1, -1],
    ("float32", "int16"): [135, 300, -200, -129, 32767, -32768, 0, 32767, -32768, 32767, -1],
    ("float32", "int32"): [
        135,
        300,
        -200,
        -129,
        2**31 - 1,
        -(2**31),
        0,
        70000,
        -40000,
        2**31 - 1,
        -1,
    ],
    ("float32", "int64"): [
        135,
        300,
        -200,
        -129,
        10**10,
        -(10**10),
        -(2**63),
        70000,
        -40000,
        3 * 10**9,
        -1,
    ],
    ("float32", "uint8"): [135, 44, 0, 0, 255, 0, 0, 255, 0, 255, 0],
    ("float32", "uint16"): [135, 300, 0, 0, 65535, 0, 0, 65535, 0, 65535, 0],
    ("float32", "uint32"): [135, 300, 0, 0, -1, 0, 0, 70000, 0, -1294967296, 0],
    ("float64", "int8"): [-121, 44, 56, 127, -1, 0, 0, -1, 0, -1, -1],
    ("float64", "int16"): [135, 300, -200, -129, 32767, -32768, -32768, 32767, -32768, 32767, -1],
    ("float64", "int32"): [
        135,
        300,
        -200,
        -129,
        2**31 - 1,
        -(2**31),
        -(2**31),
        70000,
        -40000,
        2**31 - 1,
        -1,
    ],
    ("float64", "uint16"): [135, 300, 0, 0, 65535, 0, 32768, 65535, 0, 65535, 0],
    ("float64", "uint32"): [135, 300, 0, 0, -1, 0, -(2**31), 70000, 0, -1294967296, 0],
    ("float16", "int64"): [
        135,
        300,
        -200,
        -129,
        2**63 - 1,
        -(2**63),
        -(2**63),
        2**63 - 1,
        -40000,
        2**63 - 1,
        -1,
    ],
    ("float16", "int8"): [-121, 44, 56, 127, -1, 0, 0, -1, 0, -1, -1],
}


@triton.jit
def convert_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m).to(out.dtype.element_ty), mask=m)


@pytest.mark.parametrize(("src", "dst"), list(MEASURED), ids=lambda p: str(p))
def test_out_of_range_and_nan_as_triton_on_the_gpu(run: Any, src: str, dst: str) -> None:
    with np.errstate(over="ignore", invalid="ignore"):
        x = np.array(VALUES, np.float64).astype(src)
    out = np.zeros(len(VALUES), dst)
    run(convert_kernel, (1,), x, out, len(VALUES), BLOCK=16)
    got = out.view(np.int32) if dst == "uint32" else out
    np.testing.assert_array_equal(got.astype(np.int64), np.array(MEASURED[src, dst], np.int64))
