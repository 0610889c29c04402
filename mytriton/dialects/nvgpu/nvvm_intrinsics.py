"""The NVVM intrinsics the lowering calls (``llvm.call_intrinsic``): PTX instructions that no
upstream ``math``/``arith`` op means, with their NumPy semantics.

Triton computes some functions with PTX's approximate instructions rather than CUDA's
correctly rounded library functions (its libdevice is linked with flush-to-zero on, unless
``enable_reflect_ftz=False``): ``tl.exp2`` of f32 is ``ex2.approx.ftz.f32``, ``tl.exp`` is a
multiplication by log2(e) and ``ex2.approx.f32``, ``tl.sqrt`` is ``sqrt.approx.ftz.f32``,
``tl.rsqrt`` is ``rsqrt.approx.ftz.f32``, and ``/`` of f32 is ``div.full.f32``. We lower to
the same instructions, so a kernel gets Triton's numbers and Triton's speed: the library's
``exp2f`` costs three more instructions per element (a compare and two multiplies that rescale
subnormal results), which was a third of the attention benchmark's softmax, ``expf`` about six
more, and CUDA C++'s ``a / b`` and ``sqrtf`` are IEEE (``div.rn.f32``, ``sqrt.rn.f32``):
a check and a branch to a slow path per element in SASS. ``tl.sqrt_rn`` stays IEEE, as
``sqrt.rn.f32`` (the MLIR backend's libdevice ``sqrtf`` is ``sqrt.approx``, so it cannot be
``math.sqrt``). Each entry says what the intrinsic computes, for gpusim
(``rules_intrinsics.py``), the PTX the CUDA printer writes (``print_intrinsics.py``) and the
name LLVM's NVPTX backend selects that instruction from (the MLIR backend prints the op as
is). The error bounds quoted
are those of the CUDA C++ Programming Guide for the functions nvcc compiles to these
instructions (``exp2f`` with ``-ftz``, ``__expf``, ``sqrtf`` with ``-prec-sqrt=false``,
``rsqrtf``); gpusim computes the exact value rounded to f32, within them.

The fp8 conversions of sm_89 and later are here too, as Triton emits them there: two values a
instruction, ``cvt.rn.satfinite.e4m3x2.f32`` (an ``i16`` of two bytes, the second operand's in
the low byte) and ``cvt.rn.f16x2.e4m3x2`` (the low byte's value in element 0); e5m2 likewise.
f16 pairs have their own form (``cvt.rn.satfinite.e4m3x2.f16x2``, element 0 in the low byte).
They compute what ``tt_fp8`` says every backend computes (``passes/gpu_lowering/fp8_cvt.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import Float8E4M3FNType, Float8E5M2Type, VectorType, f16, f32, i16
from xdsl.ir import Attribute

from mytriton.dialects.tt.fp8 import FORMATS, Fp8Format, decode_bytes, encode

F32_TINY = np.finfo(np.float32).tiny  # the smallest normal f32: below it, ``ftz`` flushes


def flush_subnormals(x: np.ndarray) -> np.ndarray:
    """``x`` with subnormal values replaced by zero of the same sign (PTX ``.ftz``)."""
    return np.where(np.abs(x) < F32_TINY, np.copysign(np.zeros_like(x), x), x)


def _ex2_ftz(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", under="ignore"):
        return flush_subnormals(np.exp2(flush_subnormals(x)))


def _ex2(x: np.ndarray) -> np.ndarray:
    """``ex2.approx.f32``: at most 2 ulp from ``2**x`` (``exp2f``'s bound); gpusim uses NumPy's
    f32 ``exp2``. ``tl.exp`` is this of ``x * log2(e)`` rounded to f32 (``LOG2E``),
    which adds the product's rounding: ``__expf``'s bound, ``2 + floor(|1.173 x|)`` ulp."""
    with np.errstate(over="ignore", under="ignore"):
        return np.exp2(x)


def _sqrt_approx(x: np.ndarray) -> np.ndarray:
    """``sqrt.approx.f32`` (``tl.sqrt``): at most 1 ulp from the IEEE square root on sm_52 and
    later (``sqrtf`` with ``-prec-sqrt=false``); ``sqrt(-0) = -0``, a negative number NaN.
    gpusim gives the correctly rounded root."""
    with np.errstate(invalid="ignore"):
        return np.sqrt(x, dtype=np.float32)


def _sqrt_approx_ftz(x: np.ndarray) -> np.ndarray:
    return _sqrt_approx(flush_subnormals(x))  # a normal number's root is normal


def _rsqrt_approx(x: np.ndarray) -> np.ndarray:
    """``rsqrt.approx.f32`` (``tl.rsqrt``): at most 2 ulp from ``1 / sqrt(x)`` (``rsqrtf``);
    ``rsqrt(+-0) = +-inf``, ``rsqrt(inf) = 0``. gpusim rounds the f64 value once to f32."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return (1.0 / np.sqrt(x.astype(np.float64))).astype(np.float32)


def _rsqrt_approx_ftz(x: np.ndarray) -> np.ndarray:
    return _rsqrt_approx(flush_subnormals(x))  # the result of an f32 is never subnormal


def _sqrt_rn(x: np.ndarray) -> np.ndarray:
    """``sqrt.rn.f32`` (``tl.sqrt_rn``): the IEEE square root, rounded to nearest."""
    with np.errstate(invalid="ignore"):
        return np.sqrt(x, dtype=np.float32)


def _div_full(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """PTX ``div.full.f32``, Triton's f32 ``/``: at most 2 ulp from the IEEE quotient over the
    whole range (its sm_90 SASS scales both operands by 1/4 when ``|b| > 2**126`` and by
    ``2**24`` when ``b`` is subnormal, then multiplies ``a`` by ``MUFU.RCP`` of ``b``; so,
    unlike ``div.approx.f32``, it does not return 0 for ``|b| > 2**126``). gpusim computes the
    correctly rounded f32 quotient, within those 2 ulp; a GPU's last bit may differ, as
    Triton's does (``4.6875 / 0.9375``: 5 here, one ulp above in triton-lang/triton#10661)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        return np.divide(a, b, dtype=np.float32)


def _to_fp8x2(fmt: Fp8Format) -> Callable[..., np.ndarray]:
    """``cvt.rn.satfinite.{e4m3,e5m2}x2.f32 d, a, b``: ``a``'s byte high, ``b``'s low."""

    def semantics(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        high = encode(a.astype(np.float32), fmt).view(np.uint8).astype(np.uint16)
        low = encode(b.astype(np.float32), fmt).view(np.uint8).astype(np.uint16)
        return ((high << 8) | low).view(np.int16)

    return semantics


def _half_pair_to_fp8x2(fmt: Fp8Format) -> Callable[..., np.ndarray]:
    """``cvt.rn.satfinite.{e4m3,e5m2}x2.f16x2 d, a``: element 0 of ``a`` (its low half) in the
    low byte."""

    def semantics(a: np.ndarray) -> np.ndarray:
        low = encode(a[:, 0], fmt).view(np.uint8).astype(np.uint16)
        high = encode(a[:, 1], fmt).view(np.uint8).astype(np.uint16)
        return ((high << 8) | low).view(np.int16)

    return semantics


def _from_fp8x2(fmt: Fp8Format) -> Callable[..., np.ndarray]:
    """``cvt.rn.f16x2.{e4m3,e5m2}x2 d, a``: each byte of ``a`` exactly, the low one first
    (``(lanes, 2)`` f16)."""

    def semantics(a: np.ndarray) -> np.ndarray:
        bits = a.view(np.uint16)
        pair = np.stack([bits & 0xFF, bits >> 8], axis=-1).astype(np.uint8)
        with np.errstate(over="ignore"):
            return decode_bytes(pair, fmt).astype(np.float16)

    return semantics


@dataclass(frozen=True)
class Intrinsic:
    """``llvm.call_intrinsic "name"(operands) : (operand types) -> result``."""

    name: str  # LLVM's, e.g. "llvm.nvvm.ex2.approx.ftz.f"
    ptx: str  # the instruction, e.g. "ex2.approx.ftz.f32"
    operands: tuple[Attribute, ...]
    result: Attribute
    semantics: Callable[..., np.ndarray]  # NumPy arrays of the operand dtypes in, result out


EX2_APPROX_FTZ = Intrinsic(
    "llvm.nvvm.ex2.approx.ftz.f", "ex2.approx.ftz.f32", (f32,), f32, _ex2_ftz
)
#: the same without flushing subnormals (``enable_reflect_ftz=False``)
EX2_APPROX = Intrinsic("llvm.nvvm.ex2.approx.f32", "ex2.approx.f32", (f32,), f32, _ex2)

#: ``x / y`` of f32 (``tl.fdiv`` too); ``tl.div_rn`` stays IEEE (``arith.divf``: ``div.rn.f32``)
DIV_FULL = Intrinsic("llvm.nvvm.div.full", "div.full.f32", (f32, f32), f32, _div_full)

#: ``tl.sqrt`` of f32, and without flushing subnormals; ``tl.sqrt_rn`` is ``SQRT_RN``
SQRT_APPROX_FTZ = Intrinsic(
    "llvm.nvvm.sqrt.approx.ftz.f", "sqrt.approx.ftz.f32", (f32,), f32, _sqrt_approx_ftz
)
SQRT_APPROX = Intrinsic("llvm.nvvm.sqrt.approx.f", "sqrt.approx.f32", (f32,), f32, _sqrt_approx)
SQRT_RN = Intrinsic("llvm.nvvm.sqrt.rn.f", "sqrt.rn.f32", (f32,), f32, _sqrt_rn)

#: ``tl.rsqrt`` of f32, and without flushing subnormals (f64: libdevice's ``rsqrt.approx.f64``)
RSQRT_APPROX_FTZ = Intrinsic(
    "llvm.nvvm.rsqrt.approx.ftz.f", "rsqrt.approx.ftz.f32", (f32,), f32, _rsqrt_approx_ftz
)
RSQRT_APPROX = Intrinsic("llvm.nvvm.rsqrt.approx.f", "rsqrt.approx.f32", (f32,), f32, _rsqrt_approx)

#: the f32 multiplier of ``tl.exp`` (``exp(x) = ex2.approx.f32(x * LOG2E)``, as Triton)
LOG2E = float(np.float32(1.4426950408889634))

E4M3, E5M2 = FORMATS[Float8E4M3FNType], FORMATS[Float8E5M2Type]
F16X2 = VectorType(f16, [2])
#: f32 pairs into e4m3/e5m2 bytes (sm_89+): round to nearest even, satfinite, NaN the format's
TO_E4M3X2 = Intrinsic(
    "llvm.nvvm.ff.to.e4m3x2.rn", "cvt.rn.satfinite.e4m3x2.f32", (f32, f32), i16, _to_fp8x2(E4M3)
)
TO_E5M2X2 = Intrinsic(
    "llvm.nvvm.ff.to.e5m2x2.rn", "cvt.rn.satfinite.e5m2x2.f32", (f32, f32), i16, _to_fp8x2(E5M2)
)
#: f16 pairs into e4m3/e5m2 bytes (sm_89+), as the f32 ones (every f16 is an f32)
HALVES_TO_E4M3X2 = Intrinsic(
    "llvm.nvvm.f16x2.to.e4m3x2.rn",
    "cvt.rn.satfinite.e4m3x2.f16x2",
    (F16X2,),
    i16,
    _half_pair_to_fp8x2(E4M3),
)
HALVES_TO_E5M2X2 = Intrinsic(
    "llvm.nvvm.f16x2.to.e5m2x2.rn",
    "cvt.rn.satfinite.e5m2x2.f16x2",
    (F16X2,),
    i16,
    _half_pair_to_fp8x2(E5M2),
)
#: byte pairs to f16 pairs (sm_89+): exact
FROM_E4M3X2 = Intrinsic(
    "llvm.nvvm.e4m3x2.to.f16x2.rn", "cvt.rn.f16x2.e4m3x2", (i16,), F16X2, _from_fp8x2(E4M3)
)
FROM_E5M2X2 = Intrinsic(
    "llvm.nvvm.e5m2x2.to.f16x2.rn", "cvt.rn.f16x2.e5m2x2", (i16,), F16X2, _from_fp8x2(E5M2)
)
#: the format's conversions, by its IR type: (from f32 pairs, from f16 pairs, to f16 pairs)
FP8_PAIRS: dict[type[Attribute], tuple[Intrinsic, Intrinsic, Intrinsic]] = {
    Float8E4M3FNType: (TO_E4M3X2, HALVES_TO_E4M3X2, FROM_E4M3X2),
    Float8E5M2Type: (TO_E5M2X2, HALVES_TO_E5M2X2, FROM_E5M2X2),
}
#: the first chip with these conversions (Ada)
FP8_CVT_CAPABILITY = 89

INTRINSICS: dict[str, Intrinsic] = {
    i.name: i
    for i in (
        EX2_APPROX_FTZ,
        EX2_APPROX,
        DIV_FULL,
        SQRT_APPROX_FTZ,
        SQRT_APPROX,
        SQRT_RN,
        RSQRT_APPROX_FTZ,
        RSQRT_APPROX,
        *(i for p in FP8_PAIRS.values() for i in p),
    )
}
