"""Compares one output of mytriton with Triton's: bit-exact unless the value may legitimately
differ, and then within a tolerance that says why.

* ``exact``: integers bit for bit; floats bit for bit (so -0.0 differs from +0.0), except that
  every NaN equals every NaN (payloads are not portable: NumPy keeps an operand's, GPUs make
  a canonical one).
* ``zero_sign``: a float tl.maximum/minimum/clamp or tl.max/tl.min: exact, except that +0.0
  and -0.0 are equal (which of two zeros min/max returns is free: NumPy returns the first
  operand, PTX's min/max the IEEE 754-2019 order).
* ``math``: a transcendental function (exp, log, sin, erf, ...): libraries round differently.
  Against Triton's interpreter both sides compute in NumPy-like libraries correctly rounded to
  about 1 ulp, so 4 ulp of the result; against compiled Triton the GPU's approximate
  instructions (``ex2.approx``, ``div.full``, ``sqrt.approx``, libdevice with subnormals
  flushed) are allowed 2^-18 relative plus 2^-21 absolute (sin/cos of large arguments are
  absolute-error approximations). These GPU bounds are starting values: check them there.
* ``sum``: a float reduction or scan of additions: the order is free (Triton's interpreter
  uses NumPy's pairwise sum, mytriton's interpreter another tree, the GPU a butterfly), so the
  classic bound n * eps * sum(|x|) over the reduced slice, from the stored operand. A slice
  holding inf/NaN has an order-independent result (compared exactly); one whose sum of |x|
  may overflow is not compared.
* ``prod``: a float ``cumprod``: relative error up to n * eps, plus n smallest normals for
  results that underflow; a slice whose partial products may overflow or underflow is not
  compared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np

from tests.differential.generator import Output
from tests.differential.typerules import MANTISSA


@dataclass
class Difference:
    output: str
    indices: list[tuple[int, ...]]
    expected: list[str]
    actual: list[str]
    count: int

    def describe(self) -> str:
        rows = [
            f"    {idx}: triton {e}  mytriton {a}"
            for idx, e, a in zip(self.indices, self.expected, self.actual, strict=True)
        ]
        return f"  {self.output}: {self.count} elements differ\n" + "\n".join(rows)


def _show(a: np.ndarray, idx: tuple[int, ...]) -> str:
    v = a[idx]
    if a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        bits = np.array(v).view(f"u{a.dtype.itemsize}")
        return f"{float(v)!r} (0x{int(bits):0{2 * a.dtype.itemsize}x})"
    return repr(v.item() if hasattr(v, "item") else v)


def _floats(a: np.ndarray) -> bool:
    return a.dtype.kind == "f" or a.dtype.name == "bfloat16"


def _eps(dtype: np.dtype) -> float:
    return 2.0 ** -MANTISSA[str(dtype)]


def _info(dtype: np.dtype) -> tuple[float, float]:
    info = ml_dtypes.finfo(dtype) if dtype.name == "bfloat16" else np.finfo(dtype)
    return float(info.max), float(info.tiny)


def _same_bits(e: np.ndarray, a: np.ndarray) -> np.ndarray:
    if not _floats(e):
        return np.asarray(e == a)
    bits = f"u{e.dtype.itemsize}"
    nan = np.isnan(e.astype(np.float64)) & np.isnan(a.astype(np.float64))
    return np.asarray((e.view(bits) == a.view(bits)) | nan)


def _close(e64: np.ndarray, a64: np.ndarray, tol: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        both_nan = np.isnan(e64) & np.isnan(a64)
        same = e64 == a64  # equal infinities too
        free = np.isinf(tol)  # not compared (see _tolerance)
        return np.asarray(both_nan | same | free | (np.abs(e64 - a64) <= tol))


def compare(
    out: Output,
    expected: np.ndarray,
    actual: np.ndarray,
    operand: np.ndarray | None,
    reference: str,
) -> Difference | None:
    if expected.dtype != actual.dtype or expected.shape != actual.shape:
        return Difference(
            out.arg,
            [()],
            [f"{expected.dtype}{expected.shape}"],
            [f"{actual.dtype}{actual.shape}"],
            1,
        )
    ok = _same_bits(expected, actual)
    if out.check == "zero_sign" and _floats(expected):
        ok = ok | ((expected == 0) & (actual == 0))
    if out.check in ("math", "sum", "prod") and _floats(expected):
        e64, a64 = expected.astype(np.float64), actual.astype(np.float64)
        ok = ok | _close(e64, a64, _tolerance(out, e64, a64, operand, expected.dtype, reference))
    bad = np.argwhere(~np.asarray(ok).reshape(expected.shape))
    if bad.size == 0:
        return None
    idx = [tuple(int(i) for i in row) for row in bad[:8]]
    return Difference(
        out.arg, idx, [_show(expected, i) for i in idx], [_show(actual, i) for i in idx], len(bad)
    )


def _tolerance(
    out: Output,
    e64: np.ndarray,
    a64: np.ndarray,
    operand: np.ndarray | None,
    dtype: np.dtype,
    reference: str,
) -> np.ndarray:
    eps = _eps(dtype)
    fmax, tiny = _info(dtype)
    mag = np.maximum(np.abs(e64), np.abs(a64))
    with np.errstate(invalid="ignore", over="ignore"):
        if out.check == "math":
            if reference == "interpreter":
                return np.asarray(4 * eps * mag + 4 * tiny * eps)
            return np.asarray(2.0**-18 * mag + 2.0**-21)
        assert operand is not None
        x = np.abs(operand.astype(np.float64))
        n = x.size if out.axis is None else x.shape[out.axis]

        def per_slice(v: np.ndarray, f: Any) -> np.ndarray:
            """A statistic of each reduced slice, shaped like the output."""
            s = f(v, axis=out.axis, keepdims=True)
            return np.broadcast_to(s, e64.shape) if e64.shape == x.shape else s.reshape(e64.shape)

        if out.check == "sum":
            total = per_slice(np.where(np.isfinite(x), x, 0), np.sum)
            tol = 2 * n * eps * total + n * tiny * eps
            free = total * (1 + 2 * n * eps) >= fmax  # may overflow in some order
        else:
            logs = np.log2(np.where(np.isfinite(x) & (x > 0), x, 1))
            big = per_slice(np.maximum(logs, 0), np.sum)
            small = per_slice(np.minimum(logs, 0), np.sum)
            free = (big >= np.log2(fmax) - 1) | (small <= np.log2(tiny) + 1)
            tol = 2 * n * eps * mag + n * tiny
        return np.asarray(np.where(free, np.inf, tol))
