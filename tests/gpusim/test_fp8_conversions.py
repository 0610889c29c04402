"""The fp8 conversions of the lowering on gpusim for both kinds of chip: sm_89 and later convert
e4m3/e5m2 with paired ``cvt`` instructions (``fp8_cvt``), older ones with integer code
(``fp8``); both must give ``tt_fp8``'s results (tests/execution/test_fp8.py's reference) for
every byte decoded and every rounding boundary, saturation and special value encoded, also
where a thread holds an odd number of values or a scalar."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.gpusim import run_lowered
from mytriton.dialects.printing import print_module
from mytriton.passes.gpu_lowering.lower_to_gpu import lower_to_gpu
from tests.execution.test_fp8 import (
    BF16,
    FORMATS,
    assert_same_floats,
    decode_kernel,
    decoded,
    encode_kernel,
    encoded,
    fp8_array,
    odd_kernel,
    odd_values,
    sweep,
)

HARDWARE = [f for f in FORMATS if f.name in ("fp8e4nv", "fp8e5")]
FLOATS = [np.dtype(np.float32), np.dtype(np.float16), BF16]
CASES = [(cap, fmt, t) for cap in (80, 89, 90) for fmt in HARDWARE for t in FLOATS]
IDS = [f"sm{cap}-{fmt.name}-{t.name}" for cap, fmt, t in CASES]


def simulate(
    kernel: Any, grid: tuple[int, ...], capability: int, *args: Any, num_warps: int = 4, **kw: Any
) -> str:
    """Lower ``kernel`` for a chip of ``capability``, run it on gpusim; the lowered IR."""
    compiled = kernel.warmup(*args, grid=grid, num_warps=num_warps, **kw)
    module = lower_to_gpu(compiled.module, num_warps, capability=capability)
    run_lowered(module, (*grid, 1, 1)[:3], kernel.runtime_arguments(*args, **kw))
    return print_module(module)


def assert_instructions(ir: str, capability: int, name: str) -> None:
    """The paired instructions where the chip has them, none where it has not."""
    assert (name in ir) == (capability >= 89), (capability, name)


@pytest.mark.parametrize(("capability", "fmt", "dst"), CASES, ids=IDS)
def test_every_byte_decodes(capability: int, fmt: Any, dst: np.dtype) -> None:
    bits = np.arange(256, dtype=np.uint8).view(np.int8)
    out = np.zeros(256, dst)
    ir = simulate(decode_kernel, (1,), capability, bits, out, DT=fmt.dtype, BLOCK=256)
    assert_same_floats(out.astype(np.float64), decoded(fmt).astype(dst))
    assert_instructions(ir, capability, "x2.to.f16x2.rn")


@pytest.mark.parametrize(("capability", "fmt", "src"), CASES, ids=IDS)
def test_rounding_boundaries_encode(capability: int, fmt: Any, src: np.dtype) -> None:
    """Values, ties (to even), their f32 neighbours, subnormals, beyond the largest (saturated:
    448, 57344, an infinity too), NaN (0x7f), both signs."""
    with np.errstate(over="ignore"):
        x = sweep(fmt).astype(src)
    out = np.zeros(len(x), np.int8)
    grid = (triton.cdiv(len(x), 256),)
    ir = simulate(encode_kernel, grid, capability, x, out, len(x), DT=fmt.dtype, BLOCK=256)
    np.testing.assert_array_equal(out.view(np.uint8), encoded(fmt, x.astype(np.float64)))
    assert_instructions(ir, capability, ".to.e")


@pytest.mark.parametrize("capability", [80, 90])
@pytest.mark.parametrize("fmt", HARDWARE, ids=[f.name for f in HARDWARE])
def test_odd_register_counts_and_scalars(capability: int, fmt: Any) -> None:
    x = odd_values()
    out_bytes, out_back = np.zeros(33, np.int8), np.zeros(33, np.float32)
    simulate(odd_kernel, (1,), capability, x, out_bytes, out_back, num_warps=1, DT=fmt.dtype)
    want = encoded(fmt, x.astype(np.float64))
    np.testing.assert_array_equal(out_bytes.view(np.uint8), want)
    assert_same_floats(out_back, decoded(fmt)[want])


def test_fp8_operand_array_round_trips() -> None:
    """A decoded then re-encoded byte is itself (NaN: the format's NaN; an infinity: the
    largest finite value, satfinite), on the paired path."""
    for fmt in HARDWARE:
        bits = np.arange(256, dtype=np.uint8)
        back = np.zeros(256, np.int8)
        x = fp8_array(fmt, bits)
        simulate(roundtrip_kernel, (1,), 90, x, back, DT=fmt.dtype)
        values = decoded(fmt)
        want = np.where(np.isinf(values), fmt.largest | (bits & 0x80), bits)
        want = np.where(np.isnan(values), fmt.nan_byte, want)
        np.testing.assert_array_equal(back.view(np.uint8), want)


@triton.jit
def roundtrip_kernel(x, out, DT: tl.constexpr):
    offs = tl.arange(0, 256)
    v = tl.load(x + offs).to(tl.float16).to(DT)
    tl.store(out + offs, v.to(tl.int8, bitcast=True))
