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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import f32
from xdsl.ir import Attribute

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
    )
}
