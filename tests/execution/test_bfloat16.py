"""bfloat16 kernels against NumPy with ml_dtypes' bfloat16 (converts to f32 and rounds once, as
the GPU computes bf16): arithmetic, Triton's promotions, ``/`` and ``%`` in float32, casts with
their ties, reductions and ``tl.dot`` into float32."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import KernelTypeError, LaunchError

ml_dtypes = pytest.importorskip("ml_dtypes")
BF16 = np.dtype(ml_dtypes.bfloat16)

pytestmark = pytest.mark.execution

N, BLOCK = 200, 64


def _bits(a: np.ndarray) -> np.ndarray:
    """bf16 values compared bit for bit (a NaN is its bits, -0.0 is not 0.0)."""
    return np.asarray(a, BF16).view(np.uint16)


def _inputs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(N) * 20).astype(BF16), (rng.standard_normal(N) * 20).astype(BF16)


@triton.jit
def arith_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    tl.store(out + 0 * n + offs, a + b, mask=m)
    tl.store(out + 1 * n + offs, a - b, mask=m)
    tl.store(out + 2 * n + offs, a * b, mask=m)
    tl.store(out + 3 * n + offs, tl.where(a < b, a, b), mask=m)
    tl.store(out + 4 * n + offs, -a, mask=m)
    tl.store(out + 5 * n + offs, tl.maximum(a, b), mask=m)
    tl.store(out + 6 * n + offs, a * 3 - 7, mask=m)


def test_arithmetic_rounds_once_to_bfloat16(run: Any) -> None:
    x, y = _inputs(1)
    out = np.zeros(7 * N, BF16)
    run(arith_kernel, (triton.cdiv(N, BLOCK),), x, y, out, N, BLOCK=BLOCK)
    got = out.reshape(7, N)
    want = [x + y, x - y, x * y, np.where(x < y, x, y), -x, np.maximum(x, y)]
    np.testing.assert_array_equal(_bits(got[:6]), _bits(np.stack(want)))
    # `a * 3 - 7` rounds after each op, or once when the GPU contracts it into an fma
    twice = x * BF16.type(3) - BF16.type(7)
    once = (x.astype(np.float64) * 3 - 7).astype(BF16)
    assert np.all((_bits(got[6]) == _bits(twice)) | (_bits(got[6]) == _bits(once)))


@triton.jit
def promotion_kernel(x, h, f, i, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    with_half = a + tl.load(h + offs)
    with_float = a + tl.load(f + offs)
    with_int = a + tl.load(i + offs)
    tl.static_assert(with_half.dtype == tl.float16)
    tl.static_assert(with_float.dtype == tl.float32)
    tl.static_assert(with_int.dtype == tl.float32)
    tl.static_assert((a + 1).dtype == tl.bfloat16)
    tl.static_assert((a * 1.5).dtype == tl.bfloat16)
    tl.store(out + offs, with_half.to(tl.float32))
    tl.store(out + BLOCK + offs, with_float)
    tl.store(out + 2 * BLOCK + offs, with_int)


def test_triton_promotions(run: Any) -> None:
    """bf16 with f16 is f16, with f32 or an integer tensor f32, with a Python scalar bf16
    (Triton's ``computation_type_impl``)."""
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(BLOCK) * 9).astype(BF16)
    h = (rng.standard_normal(BLOCK) * 9).astype(np.float16)
    f = (rng.standard_normal(BLOCK) * 9).astype(np.float32)
    i = rng.integers(-(2**20), 2**20, BLOCK).astype(np.int32)
    out = np.zeros(3 * BLOCK, np.float32)
    run(promotion_kernel, (1,), x, h, f, i, out, BLOCK=BLOCK)
    x32 = x.astype(np.float32)
    want_half = (x.astype(np.float16) + h).astype(np.float32)
    want = np.concatenate([want_half, x32 + f, x32 + i.astype(np.float32)])
    np.testing.assert_array_equal(out, want)


@triton.jit
def div_mod_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    q = a / b
    r = a % b
    tl.static_assert(q.dtype == tl.float32)
    tl.static_assert(r.dtype == tl.float32)
    tl.store(out + offs, q, mask=m)
    tl.store(out + n + offs, r, mask=m)


@pytest.mark.parametrize("dt", [BF16, np.dtype(np.float16)], ids=lambda d: d.name)
def test_division_and_remainder_of_half_floats_are_float32(run: Any, dt: np.dtype) -> None:
    """Triton computes ``/`` and ``%`` of float16 and bfloat16 in float32: the quotient is not
    rounded to the operands' precision."""
    x, y = _inputs(3)
    x, y = x.astype(dt), y.astype(dt)
    y[y == 0] = 5
    out = np.zeros(2 * N, np.float32)
    run(div_mod_kernel, (triton.cdiv(N, BLOCK),), x, y, out, N, BLOCK=BLOCK)
    a, b = x.astype(np.float32), y.astype(np.float32)
    np.testing.assert_allclose(out[:N], a / b, rtol=2.4e-7)  # 2 ulp: div.full.f32 on a GPU
    np.testing.assert_array_equal(out[N:], np.fmod(a, b))


@triton.jit
def cast_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m).to(out.dtype.element_ty), mask=m)


# values whose conversion to bf16 is a tie or needs exactly one rounding
_TIES = {
    np.dtype(np.float32): [1 + 2**-8, 1 + 3 * 2**-8, -(2 + 2**-7), 3.0e38, 2**-130],
    np.dtype(np.float64): [1 + 2**-8 + 2**-40, 1 + 2**-8, 1 + 2**-8 - 2**-40, 3.4e38, 1e-300],
    np.dtype(np.float16): [65504.0, 1 + 2**-8, 1 + 3 * 2**-8, 2**-24, -0.0],
    np.dtype(np.int32): [257, 259, -(2**24) - 1, 2**31 - 1, -(2**31)],
    np.dtype(np.int64): [2**40 + 2**32 + 1, 2**40 + 2**32, 2**63 - 1, -(2**63), 385],
    np.dtype(np.int8): [127, -128, -1, 0, 1],
}


@pytest.mark.parametrize("src", list(_TIES), ids=lambda d: d.name)
def test_casts_to_bfloat16_round_once(run: Any, src: np.dtype) -> None:
    rng = np.random.default_rng(4)
    if src.kind == "i":
        x = rng.integers(-100, 100, N).astype(src)
    else:
        x = (rng.standard_normal(N) * 50).astype(src)
    x[:5] = np.array(_TIES[src], dtype=src)
    out = np.zeros(N, BF16)
    run(cast_kernel, (triton.cdiv(N, BLOCK),), x, out, N, BLOCK=BLOCK)
    np.testing.assert_array_equal(_bits(out), _bits(x.astype(BF16)))  # round to nearest even


@pytest.mark.parametrize(
    "dst",
    [np.float32, np.float64, np.float16, np.int8, np.int32, np.int64, np.bool_],
    ids=lambda d: np.dtype(d).name,
)
def test_casts_from_bfloat16(run: Any, dst: Any) -> None:
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(N) * 50).astype(BF16)
    if np.dtype(dst).kind == "f":  # f16 overflow and underflow, a tie to f16, -0.0
        x[:5] = np.array([2.0**17, 2.0**-30, 1 + 2**-7, -0.0, -65536.0]).astype(BF16)
    out = np.zeros(N, dst)
    run(cast_kernel, (triton.cdiv(N, BLOCK),), x, out, N, BLOCK=BLOCK)
    wide = x.astype(np.float64)  # exact
    if dst == np.bool_:
        expected = wide != 0
    elif np.dtype(dst).kind == "i":  # toward zero, saturated to 16 bits at least
        bits = max(16, np.dtype(dst).itemsize * 8)
        info = np.iinfo(f"int{bits}")
        expected = np.clip(np.trunc(wide), info.min, info.max).astype(f"int{bits}").astype(dst)
    else:
        with np.errstate(over="ignore"):
            expected = wide.astype(dst)
    np.testing.assert_array_equal(out, expected)


@triton.jit
def row_sum_kernel(x, out, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    v = tl.load(x + row * BLOCK + tl.arange(0, BLOCK))
    tl.store(out + row, tl.sum(v, axis=0))
    tl.store(out + tl.num_programs(0) + row, tl.max(v, axis=0))
    tl.store(out + 2 * tl.num_programs(0) + row, tl.min(v, axis=0))


def test_row_sum_max_min(run: Any) -> None:
    rows = 8
    rng = np.random.default_rng(6)
    x = (rng.integers(-2, 3, (rows, BLOCK)) / 2).astype(BF16)  # every partial sum is exact
    x[0, 5] = 100.5  # a sum that needs all 8 bits
    out = np.zeros(3 * rows, BF16)
    run(row_sum_kernel, (rows,), x.reshape(-1), out, BLOCK=BLOCK)
    wide = x.astype(np.float64)
    expected = np.concatenate([wide.sum(axis=1), wide.max(axis=1), wide.min(axis=1)])
    np.testing.assert_array_equal(out.astype(np.float64), expected)


@triton.jit
def dot_kernel(a, b, c, out, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    x = tl.load(a + rm[:, None] * K + rk[None, :])
    y = tl.load(b + rk[:, None] * N + rn[None, :])
    acc = tl.load(c + rm[:, None] * N + rn[None, :])
    plain = tl.dot(x, y, out_dtype=tl.float16)  # bf16 operands give f32 whatever out_dtype says
    tl.static_assert(plain.dtype == tl.float32)
    tl.store(out + rm[:, None] * N + rn[None, :], plain)
    tl.store(out + M * N + rm[:, None] * N + rn[None, :], tl.dot(x, y, acc))


def test_dot_of_bfloat16_accumulates_in_float32(run: Any) -> None:
    M, Nn, K = 16, 16, 32
    rng = np.random.default_rng(7)
    # products exact in f32, and every partial sum too: the result is the same in any order
    a = (rng.integers(-64, 64, (M, K)) / 8).astype(BF16)
    b = (rng.integers(-64, 64, (K, Nn)) / 4).astype(BF16)
    c = rng.integers(-1000, 1000, (M, Nn)).astype(np.float32) + np.float32(0.25)
    out = np.zeros(2 * M * Nn, np.float32)
    run(dot_kernel, (1,), a, b, c, out, M=M, N=Nn, K=K)
    product = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_array_equal(out[: M * Nn].reshape(M, Nn), product)
    np.testing.assert_array_equal(out[M * Nn :].reshape(M, Nn), product + c)


@triton.jit
def dot_acc_kernel(a, out, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(a + r[:, None] * BLOCK + r[None, :])
    tl.store(out + r[:, None] * BLOCK + r[None, :], tl.dot(x, x, x))


def test_dot_rejects_a_bfloat16_accumulator() -> None:
    a = np.zeros(16 * 16, BF16)
    with pytest.raises(KernelTypeError, match="acc must be a fp32 block"):
        dot_acc_kernel[(1,)](a, np.zeros(16 * 16, BF16), BLOCK=16)


def test_missing_ml_dtypes_is_a_launch_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from mytriton.dialects.tt.semantics import bfloat16_dtype

    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # import ml_dtypes fails
    with pytest.raises(LaunchError, match="pip install ml_dtypes"):
        bfloat16_dtype()


def test_ml_dtypes_that_rounds_twice_is_a_launch_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """ml_dtypes before 0.7 converted float64 to bfloat16 through float32 (two roundings): the
    interpreter would disagree with the GPU's single rounding, so it refuses such a release."""
    import sys
    import types

    import ml_dtypes

    from mytriton.dialects.tt import semantics as tt_semantics

    assert tt_semantics._rounds_once(BF16)  # the installed release rounds once
    fake = types.SimpleNamespace(bfloat16=ml_dtypes.bfloat16, __version__="0.5.1")
    monkeypatch.setitem(sys.modules, "ml_dtypes", fake)
    monkeypatch.setattr(tt_semantics, "_rounds_once", lambda d: False)  # what 0.5.1 does
    with pytest.raises(LaunchError, match=r"ml_dtypes 0.5.1 rounds float64.*ml_dtypes>=0.7"):
        tt_semantics.bfloat16_dtype()


def bfloat16_warmups() -> list[Any]:
    """Every kernel above compiled once for bf16 (compile-only: the GPU backends' C++/PTX
    checks in tests/cuda and tests/mlir)."""
    x, f = np.zeros(256, BF16), np.zeros(256 * 7, np.float32)
    kernels = [
        arith_kernel.warmup(x, x, np.zeros(7 * 256, BF16), 256, grid=(4,), BLOCK=64),
        promotion_kernel.warmup(
            x, np.zeros(64, np.float16), f, np.zeros(64, np.int32), f, grid=(1,), BLOCK=64
        ),
        div_mod_kernel.warmup(x, x, f, 256, grid=(4,), BLOCK=64),
        row_sum_kernel.warmup(x, x, grid=(4,), BLOCK=64),
        dot_kernel.warmup(x, x, f, f, M=16, N=16, K=16, grid=(1,)),
    ]
    for other in [*_TIES, np.dtype(np.bool_)]:
        kernels.append(cast_kernel.warmup(np.zeros(256, other), x, 256, grid=(4,), BLOCK=64))
        kernels.append(cast_kernel.warmup(x, np.zeros(256, other), 256, grid=(4,), BLOCK=64))
    return kernels


def test_cpu_torch_bfloat16_tensors_on_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    """NumPy cannot hold torch's bf16: the CPU backends read its bits as ml_dtypes' bf16."""
    torch = pytest.importorskip("torch")
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    x = torch.tensor([1.5, -2.25, 3.0e38, 1 + 2**-7], dtype=torch.bfloat16)
    out = torch.zeros(4, dtype=torch.float32)
    cast_kernel[(1,)](x, out, 4, BLOCK=4)
    assert out.tolist() == x.float().tolist()
    back = torch.zeros(4, dtype=torch.bfloat16)
    cast_kernel[(1,)](out, back, 4, BLOCK=4)
    assert torch.equal(back, x)
