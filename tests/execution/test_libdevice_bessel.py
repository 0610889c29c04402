"""libdevice's Bessel functions ``j0 j1 y0 y1 cyl_bessel_i1`` on every backend.

The references are Bessel's integrals, independent of the series and asymptotic expansions the
implementation sums: ``J_n(x) = (1/2pi) int_0^2pi cos(n t - x sin t) dt`` and ``I_1(x) = (1/pi)
int_0^pi exp(x cos t) cos t dt`` (its series below 1) by the trapezoidal rule (exact to rounding for a smooth periodic
integrand), ``Y_n(x) = (1/pi) int_0^pi sin(x sin t - n t) dt - (1/pi) int_0^inf (e^(nt) +
(-1)^n e^(-nt)) e^(-x sinh t) dt`` by composite Gauss-Legendre. ``J`` and ``Y`` are checked to an absolute
error (CUDA documents theirs that way: the relative one is unbounded at their zeros).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice

pytestmark = pytest.mark.execution

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(32)


def _gauss(f: Any, low: float, high: float, panels: int = 64) -> float:
    """``int_low^high f`` by 32-point Gauss-Legendre on each of ``panels`` equal panels."""
    edges = np.linspace(low, high, panels + 1)
    half = (edges[1:] - edges[:-1])[:, None] / 2
    t = half * _NODES + (edges[1:] + edges[:-1])[:, None] / 2
    return math.fsum((half * _WEIGHTS * f(t)).ravel())


def _j(n: int, x: float) -> float:
    t = np.arange(512) * (2 * math.pi / 512)
    return math.fsum(np.cos(n * t - x * np.sin(t))) / 512


def _y(n: int, x: float) -> float:
    oscillating = _gauss(lambda t: np.sin(x * np.sin(t) - n * t), 0.0, math.pi)
    end = math.asinh(800.0 / x)  # e^(-x sinh t) < e^-800 beyond
    decaying = _gauss(
        lambda t: (np.exp(n * t) + (-1) ** n * np.exp(-n * t)) * np.exp(-x * np.sinh(t)), 0.0, end
    )
    return (oscillating - decaying) / math.pi


def _i1(x: float) -> float:
    if abs(x) < 1:  # the integral's terms cancel to ~x/2: the series instead
        return math.fsum(
            (x / 2) ** (2 * k + 1) / (math.factorial(k) * math.factorial(k + 1)) for k in range(20)
        )
    t = np.arange(4096) * (2 * math.pi / 4096)
    return float(np.sum(np.exp(x * np.cos(t)) * np.cos(t)) / 4096)


@triton.jit
def _bessel_kernel(x_ptr, j0_ptr, j1_ptr, y0_ptr, y1_ptr, i1_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(j0_ptr + offs, libdevice.j0(x))
    tl.store(j1_ptr + offs, libdevice.j1(x))
    tl.store(y0_ptr + offs, libdevice.y0(x))
    tl.store(y1_ptr + offs, libdevice.y1(x))
    tl.store(i1_ptr + offs, libdevice.cyl_bessel_i1(x))


def _all(run: Any, x: np.ndarray) -> dict[str, np.ndarray]:
    outs = {name: np.zeros_like(x) for name in ("j0", "j1", "y0", "y1", "i1")}
    run(_bessel_kernel, (1,), x, *outs.values(), BLOCK=x.size)
    return outs


# |x| from tiny to the asymptotic range, both signs, across the series/expansion switch at 25
POINTS = np.concatenate(
    [
        np.random.default_rng(7).uniform(-40.0, 40.0, 40),
        [1e-3, 0.25, 2.404825557695773, 3.8317059702075125, 8.0, 24.999, 25.0, 33.0],
        [-1e-3, -0.25, -2.5, -7.0, -12.0, -25.5, -30.0, -48.0],
        [0.5, 1.0, 1.5, 4.0, 5.5, 10.0, 15.0, 20.0],
    ]
)


#: the absolute error CUDA's libdevice allows its double J and Y beyond their series range (its
#: asymptotic expansions: the H100 went past 8 ulp at |x| 19-48), far above the interpreter's ~1 ulp
LIBDEVICE_F64_ABS_ERROR = 5e-12


def _device_abs_error(run: Any, dtype: Any) -> float:
    """The absolute error allowed beside 8 ulp: libdevice's on the GPU backends for float64."""
    on_gpu = run.backend in ("cuda", "mlir")
    return LIBDEVICE_F64_ABS_ERROR if on_gpu and dtype == np.float64 else 0.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
def test_bessel_functions_match_their_integrals(run: Any, dtype: Any) -> None:
    x = POINTS.astype(dtype)
    got = _all(run, x)
    wide = x.astype(np.float64)
    eps = float(np.finfo(dtype).eps)
    for name, ref in (
        ("j0", lambda v: _j(0, v)),
        ("j1", lambda v: _j(1, v)),
        ("y0", lambda v: _y(0, v) if v > 0 else math.nan),
        ("y1", lambda v: _y(1, v) if v > 0 else math.nan),
    ):
        expected = np.array([ref(float(v)) for v in wide])
        err = np.abs(got[name].astype(np.float64) - expected)
        bound = np.maximum(
            8 * eps * np.maximum(np.abs(expected), 1.0), _device_abs_error(run, dtype)
        )
        ok = (err <= bound) | (np.isnan(expected) & np.isnan(got[name]))
        assert ok.all(), (name, wide[~ok], got[name][~ok], expected[~ok])
    expected_i1 = np.array([_i1(float(v)) for v in wide])
    np.testing.assert_allclose(got["i1"], expected_i1, rtol=8 * eps, atol=0)


def test_bessel_special_values(run: Any) -> None:
    """CUDA's documented values at zeros, infinities, NaN and negative arguments of ``Y``."""
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1e-300, 750.0])
    got = _all(run, x)
    expected = {
        "j0": [1.0, 1.0, 0.0, 0.0, np.nan, _j(0, 1.0), 1.0],
        "j1": [0.0, -0.0, 0.0, -0.0, np.nan, -_j(1, 1.0), 5e-301],
        "y0": [-np.inf, -np.inf, 0.0, np.nan, np.nan, np.nan],
        "y1": [-np.inf, -np.inf, 0.0, np.nan, np.nan, np.nan, -2 / (math.pi * 1e-300)],
        "i1": [0.0, -0.0, np.inf, -np.inf, np.nan, -_i1(1.0), 5e-301, np.inf],
    }
    for name, values in expected.items():
        want = np.array(values)
        have = got[name][: want.size]
        same = np.where(
            np.isnan(want),
            np.isnan(have),
            np.isclose(have, want, rtol=1e-15, atol=0) & (np.signbit(have) == np.signbit(want)),
        )
        assert same.all(), (name, have, want)


def test_large_arguments_keep_their_phase(run: Any) -> None:
    """``x = 1e6``: the phase ``x - pi/4`` rounded in f64 would be off by ~1e-10 relative;
    ``J0^2 + Y0^2 ~ 2 / (pi x)`` and the Wronskian hold to an ulp."""
    x = np.array([1e6, 1e8 + 0.5, 123456.75, 98765.25])
    got = _all(run, x)
    j0, j1, y0, y1 = got["j0"], got["j1"], got["y0"], got["y1"]
    err = _device_abs_error(run, np.float64)  # each value's absolute error, propagated
    amplitude = j0**2 + y0**2
    np.testing.assert_allclose(
        amplitude,
        2 / (np.pi * x) * (1 - 1 / (8 * x * x)),
        rtol=1e-13,
        atol=2 * err * (abs(j0) + abs(y0)).max(),
    )
    wronskian = j1 * y0 - j0 * y1
    np.testing.assert_allclose(
        wronskian,
        2 / (np.pi * x),
        rtol=1e-13,
        atol=err * (abs(j0) + abs(j1) + abs(y0) + abs(y1)).max(),
    )
