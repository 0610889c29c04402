"""One kernel calling every math function of ``tl``, ``tl.math`` and ``libdevice``, for the
compile checks of the printed CUDA C++ (nvcc) and of the MLIR pipeline (PTX)."""

from __future__ import annotations

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice


@triton.jit
def all_math_kernel(x_ptr, y_ptr, out_ptr, flags_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    v = tl.erf(x) + tl.sqrt_rn(y) + tl.div_rn(x, y) + tl.fma(x, y, x) + tl.math.rsqrt(y)
    v += libdevice.tanh(x) + libdevice.expm1(x) + libdevice.log1p(y) + libdevice.log10(y)
    v += libdevice.tan(x) + libdevice.asin(x) + libdevice.acos(x) + libdevice.atan(x)
    v += libdevice.sinh(x) + libdevice.cosh(x) + libdevice.asinh(x) + libdevice.acosh(y)
    v += libdevice.atanh(x) + libdevice.cbrt(x) + libdevice.trunc(x) + libdevice.round(x)
    v += libdevice.rint(x) + libdevice.fabs(x) + libdevice.pow(y, x) + libdevice.atan2(x, y)
    v += libdevice.copysign(x, y) + libdevice.fmod(x, y) + libdevice.fmin(x, y)
    v += libdevice.fmax(x, y) + libdevice.fast_expf(x) + libdevice.fast_logf(y)
    v += libdevice.fast_dividef(x, y) + tl.extra.cuda.libdevice.sqrt(y)
    tl.store(out_ptr + offs, v)
    flags = libdevice.isnan(v) + libdevice.isinf(v)
    flags = tl.umulhi(flags, flags) + tl.umulhi(flags.to(tl.int64), flags.to(tl.int64)).to(tl.int32)
    tl.store(flags_ptr + offs, flags)
