"""The NVVM intrinsics the lowering calls (``llvm.call_intrinsic``): PTX instructions that no
upstream ``math``/``arith`` op means, with their NumPy semantics.

Triton computes some functions with PTX's approximate instructions rather than CUDA's
correctly rounded library functions: ``tl.exp2`` of f32 is ``ex2.approx.ftz.f32`` (its
libdevice is linked with flush-to-zero on), and ``/`` of f32 is ``div.full.f32``. We lower to
the same instructions, so a kernel gets Triton's numbers and Triton's speed: the library's
``exp2f`` costs three more instructions per element (a compare and two multiplies that rescale
subnormal results), which was a third of the attention benchmark's softmax, and CUDA C++'s
``a / b`` is IEEE ``div.rn.f32``, an ``FCHK`` and a call to a slow path per division in SASS.
Each entry says what the intrinsic computes, for gpusim (``rules_intrinsics.py``), the PTX the
CUDA printer writes (``print_intrinsics.py``) and the name LLVM's NVPTX backend selects that
instruction from (the MLIR backend prints the op as is).
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
    with np.errstate(over="ignore", under="ignore"):
        return np.exp2(x)


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

INTRINSICS: dict[str, Intrinsic] = {i.name: i for i in (EX2_APPROX_FTZ, EX2_APPROX, DIV_FULL)}
