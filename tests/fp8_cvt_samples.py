"""The fp8 conversions Triton 3.6 compiles to paired ``cvt`` instructions on sm_89 and later
(read from its PTX for sm_90), and a kernel of each, compiled for a chip (``compile_for``): shared
by the CUDA printer's and the MLIR backend's compile-only tests.

Triton 3.6's PTX (``triton.compile(..., target=GPUTarget("cuda", 90, 32))``, 1024 values):
f32 -> e4m3/e5m2 ``cvt.rn.satfinite.{e4m3,e5m2}x2.f32``; f16 -> ``cvt.rn.satfinite.*x2.f16x2``;
bf16 -> ``cvt.f32.bf16`` then the f32 form; e4m3/e5m2 ->
f16 ``cvt.rn.f16x2.*x2``, -> f32 the same then ``cvt.f32.f16``, e4m3 -> bf16 the same then
``cvt.bf16.f16`` (here through f32: exact either way). Not paired: e5m2 -> bf16 (Triton's bit
trick, here the paired f16 conversion), toward zero (``cvt.rz.f16.f32`` and the f16's high
byte); before sm_89 Triton has no fp8e4nv and converts fp8e5 with integer code.
"""

from __future__ import annotations

import warnings
from typing import Any

import mytriton
import mytriton.language as tl
from mytriton.compiler import ASTSource
from mytriton.compiler import compile as triton_compile
from mytriton.runtime.driver import GPUTarget

TYPES: dict[str, Any] = {
    "fp32": tl.float32,
    "fp16": tl.float16,
    "bf16": tl.bfloat16,
    "fp8e4nv": tl.float8e4nv,
    "fp8e5": tl.float8e5,
}
BLOCK = 256  # 4 warps: two values a thread, one paired instruction

#: (source, destination) -> the paired instruction its kernel has once per thread on sm_89+
PAIRED: dict[tuple[str, str], str] = {
    **{(s, "fp8e4nv"): "cvt.rn.satfinite.e4m3x2.f32" for s in ("fp32", "bf16")},
    ("fp16", "fp8e4nv"): "cvt.rn.satfinite.e4m3x2.f16x2",
    ("fp16", "fp8e5"): "cvt.rn.satfinite.e5m2x2.f16x2",
    **{(s, "fp8e5"): "cvt.rn.satfinite.e5m2x2.f32" for s in ("fp32", "bf16")},
    **{("fp8e4nv", d): "cvt.rn.f16x2.e4m3x2" for d in ("fp16", "bf16", "fp32")},
    **{("fp8e5", d): "cvt.rn.f16x2.e5m2x2" for d in ("fp16", "bf16", "fp32")},
}
IDS = [f"{s}-{d}" for s, d in PAIRED]
#: every fp8 conversion instruction's PTX name starts so (none is left on sm_80)
FP8_CVT_PREFIXES = ("cvt.rn.satfinite.e", "cvt.rn.f16x2.e")


@mytriton.jit
def cvt_kernel(x, y, DST: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y + offs, tl.load(x + offs).to(DST))


def compile_for(src: str, dst: str, capability: int) -> Any:
    """``cvt_kernel`` from ``src`` to ``dst`` compiled for ``sm_<capability>`` (no GPU needed:
    the backend is ``MYTRITON_BACKEND``'s)."""
    signature = {"x": f"*{src}", "y": f"*{dst}", "DST": "constexpr", "BLOCK": "constexpr"}
    source = ASTSource(cvt_kernel, signature, {"DST": TYPES[dst], "BLOCK": BLOCK})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the mlir backend's note that no cubin is made
        return triton_compile(source, target=GPUTarget("cuda", capability, 32))


def fp8_cvt_count(ptx: str) -> int:
    return sum(ptx.count(p) for p in FP8_CVT_PREFIXES)
