"""NumPy semantics of libdevice's Bessel functions ``j0 j1 y0 y1 cyl_bessel_i1`` (f64 in and out).

Below ``_SERIES_BELOW`` the power series (DLMF 10.2.2, 10.8.1), summed in 50-digit decimals:
the alternating terms of ``J``/``Y`` grow to ~``I0(x)`` before they cancel, which in f64 would
cost up to 1e-6 absolute at 25; in decimals the result is the exact one rounded once. From there
on Hankel's asymptotic expansion (DLMF 10.17.3) in f64, whose error falls below ~e^-2x, far under
an ulp; the phase ``x - (2n+1) pi/4`` is taken through ``cos x`` and ``sin x`` so that a large
``x`` keeps its accuracy. ``I1`` is a series of positive terms, exact enough in f64, and its
asymptotic expansion above 50. Special values as CUDA documents them: ``j0(+-inf) = j1(+-inf) =
+-0``, ``y*(+-0) = -inf``, ``y*(x < 0) = NaN``, ``y*(+inf) = +0``, ``i1(+-inf) = +-inf``.
"""

from __future__ import annotations

import decimal
import math

import numpy as np

Array = np.ndarray
F64 = np.float64

_SERIES_BELOW = 25.0
_I1_SERIES_BELOW = 50.0
_DIGITS = decimal.Context(prec=50)
_PI = decimal.Decimal("3.14159265358979323846264338327950288419716939937511")
_EULER_GAMMA = decimal.Decimal("0.57721566490153286060651209008240243104215933593992")
_EPSILON = decimal.Decimal("1e-45")


def _series(order: int, x: float) -> tuple[float, float]:
    """``(J_order(x), Y_order(x))`` of ``0 < x`` by their power series (``order`` 0 or 1)."""
    with decimal.localcontext(_DIGITS):
        half = decimal.Decimal(x) / 2
        q = -half * half  # -(x/2)^2
        # term_k = q^k / (k! (k+order)!) * (x/2)^order
        term = half if order else decimal.Decimal(1)
        harmonic_k = decimal.Decimal(0)  # H_k
        harmonic_n = decimal.Decimal(order)  # H_{k+order}
        j = decimal.Decimal(0)
        psi_sum = decimal.Decimal(0)  # sum of (psi(k+1) + psi(k+order+1)) term_k
        k = 0
        while True:
            j += term
            psi_sum += (harmonic_k + harmonic_n - 2 * _EULER_GAMMA) * term
            k += 1
            term = term * q / (k * (k + order))
            harmonic_k += decimal.Decimal(1) / k
            harmonic_n += decimal.Decimal(1) / (k + order)
            if abs(term) * (harmonic_k + harmonic_n + 1) < _EPSILON:
                break
        log_half = half.ln()
        y = (2 * log_half * j - psi_sum) / _PI
        if order:
            y -= 1 / (_PI * half)
        return float(j), float(y)


def _hankel(order: int, x: Array) -> tuple[Array, Array]:
    """``(J_order(x), Y_order(x))`` of ``x >= _SERIES_BELOW`` by Hankel's expansion."""
    mu = 4.0 * order * order
    p = np.ones_like(x)
    q = np.zeros_like(x)
    term = np.ones_like(x)
    for k in range(1, 30):  # a_k(order) / x^k, signs (-1)^(k//2) into P (even k) and Q (odd k)
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        sign = -1.0 if (k // 2) % 2 else 1.0
        if k % 2:
            q = q + sign * term
        else:
            p = p + sign * term
    # omega = x - (2 order + 1) pi / 4: cos/sin of it from those of x and of the exact offset
    offset = (2 * order + 1) * math.pi / 4
    c, s = np.cos(x), np.sin(x)
    cos_w = c * math.cos(offset) + s * math.sin(offset)
    sin_w = s * math.cos(offset) - c * math.sin(offset)
    scale = np.sqrt(2.0 / (math.pi * x))
    return scale * (p * cos_w - q * sin_w), scale * (p * sin_w + q * cos_w)


def _bessel(order: int, x: Array) -> tuple[Array, Array]:
    """``(J_order(|x|), Y_order(|x|))`` for finite nonzero ``x``; other elements are junk."""
    a = np.abs(np.asarray(x, dtype=F64))
    big = np.isfinite(a) & (a >= _SERIES_BELOW)
    with np.errstate(all="ignore"):
        j, y = _hankel(order, np.where(big, a, _SERIES_BELOW))
    j, y = np.where(big, j, 0.0), np.where(big, y, 0.0)
    flat_j, flat_y, flat_a = j.reshape(-1), y.reshape(-1), a.reshape(-1)  # views
    for i in np.flatnonzero(~big & np.isfinite(a) & (a > 0)):
        flat_j[i], flat_y[i] = _series(order, float(flat_a[i]))
    return j, y


def j0(x: Array) -> Array:
    j, _ = _bessel(0, x)
    return np.where(np.isnan(x), np.nan, np.where(np.isinf(x), 0.0, np.where(x == 0, 1.0, j)))


def j1(x: Array) -> Array:
    j, _ = _bessel(1, x)
    j = np.where(np.isinf(x) | (x == 0), np.copysign(0.0, x), np.where(x < 0, -j, j))
    return np.where(np.isnan(x), np.nan, j)


def _y(order: int, x: Array) -> Array:
    _, y = _bessel(order, x)
    y = np.where(x == 0, -np.inf, np.where(x == np.inf, 0.0, y))
    return np.where(np.isnan(x) | (x < 0), np.nan, y)


def y0(x: Array) -> Array:
    return _y(0, x)


def y1(x: Array) -> Array:
    return _y(1, x)


def cyl_bessel_i1(x: Array) -> Array:
    """``I1(x)``: odd, +-inf beyond ~714 (``exp(x)`` alone overflows earlier, so the large-x
    expansion multiplies by ``exp(x / 2)`` twice)."""
    a = np.abs(np.asarray(x, dtype=F64))
    with np.errstate(all="ignore"):
        small = np.where(a < _I1_SERIES_BELOW, a, 0.0)
        half_sq = (small / 2) ** 2
        term = small / 2
        total = term.copy()
        k = 1
        while np.any(term > 1e-17 * total):
            term = term * half_sq / (k * (k + 1))
            total = total + term
            k += 1
        large = np.where(a >= _I1_SERIES_BELOW, a, _I1_SERIES_BELOW)
        series = np.ones_like(large)
        t = np.ones_like(large)
        for k in range(1, 30):  # I_nu ~ e^x / sqrt(2 pi x) sum (-1)^k a_k(nu) / x^k, nu = 1
            t = t * -(4.0 - (2 * k - 1) ** 2) / (k * 8.0 * large)
            series = series + t
        root = np.exp(large / 2)  # x / 2 is exact, so is the argument
        asymptotic = root * (root / np.sqrt(2 * math.pi * large) * series)
        result = np.where(a < _I1_SERIES_BELOW, total, np.where(a == np.inf, a, asymptotic))
    return np.where(np.isnan(x), np.nan, np.copysign(result, x))
