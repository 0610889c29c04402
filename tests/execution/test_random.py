"""Triton's random numbers (``tl.rand``, ``tl.randn``, ``tl.randint``, ``tl.randint4x``,
``tl.rand4x``, ``tl.randn4x``, ``tl.philox``, ``tl.uint_to_uniform_float``) on every backend: the
same numbers as real Triton for the same seed and offsets.

``random_reference.npz`` holds Triton's outputs for these kernels (the same source, written
against ``triton``): ``make_random_reference.py`` wrote it, run under Triton 3.6's CPU
interpreter (``TRITON_INTERPRET=1``, torch CPU). Its seeds are 0, small, int32's top, negative,
int64, above 2**32 and uint64; its offsets int32 (from 0, near the top, negative), int64 (above
2**32, negative), uint32 and uint64 blocks, and runtime scalars. Integers and ``rand`` must be
bit-exact (``rand`` is exact float arithmetic on the bits); ``randn`` goes through log/cos/sin,
which may differ from Triton's by an ulp or so.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution

REFERENCE = np.load(Path(__file__).with_name("random_reference.npz"))
N, BLOCK = 70, 32  # as in make_random_reference.py
STREAMS_INTS, STREAMS_FLOATS = 5, 10
NORMAL_ROWS = [1, 6, 7, 8, 9]  # the rows of `floats` that are randn / randn4x


@triton.jit
def streams_kernel(seed, offsets, ints, floats, n, N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    off = tl.load(offsets + i, mask=m)
    r0, r1, r2, r3 = tl.randint4x(seed, off, N_ROUNDS)
    tl.store(ints + 0 * n + i, r0, mask=m)
    tl.store(ints + 1 * n + i, r1, mask=m)
    tl.store(ints + 2 * n + i, r2, mask=m)
    tl.store(ints + 3 * n + i, r3, mask=m)
    tl.store(ints + 4 * n + i, tl.randint(seed, off, N_ROUNDS), mask=m)
    tl.store(floats + 0 * n + i, tl.rand(seed, off, N_ROUNDS), mask=m)
    tl.store(floats + 1 * n + i, tl.randn(seed, off, N_ROUNDS), mask=m)
    u0, u1, u2, u3 = tl.rand4x(seed, off, N_ROUNDS)
    tl.store(floats + 2 * n + i, u0, mask=m)
    tl.store(floats + 3 * n + i, u1, mask=m)
    tl.store(floats + 4 * n + i, u2, mask=m)
    tl.store(floats + 5 * n + i, u3, mask=m)
    g0, g1, g2, g3 = tl.randn4x(seed, off, N_ROUNDS)
    tl.store(floats + 6 * n + i, g0, mask=m)
    tl.store(floats + 7 * n + i, g1, mask=m)
    tl.store(floats + 8 * n + i, g2, mask=m)
    tl.store(floats + 9 * n + i, g3, mask=m)


@triton.jit
def scalar_offset_kernel(seed, base, ints, floats):
    pid = tl.program_id(0)
    off = base + pid
    tl.store(ints + pid, tl.randint(seed, off))
    tl.store(floats + pid, tl.rand(seed, off))


@triton.jit
def constexpr_seed_kernel(ints, SEED: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(ints + i, tl.randint(SEED, i))


@triton.jit
def philox_kernel(seed, counters, out, n, N_ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    m = i < n
    c0 = tl.load(counters + 0 * n + i, mask=m)
    c1 = tl.load(counters + 1 * n + i, mask=m)
    c2 = tl.load(counters + 2 * n + i, mask=m)
    c3 = tl.load(counters + 3 * n + i, mask=m)
    r0, r1, r2, r3 = tl.philox(seed, c0, c1, c2, c3, N_ROUNDS)
    tl.store(out + 0 * n + i, r0, mask=m)
    tl.store(out + 1 * n + i, r1, mask=m)
    tl.store(out + 2 * n + i, r2, mask=m)
    tl.store(out + 3 * n + i, r3, mask=m)


@triton.jit
def uniform_kernel(x, out, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    m = i < n
    tl.store(out + i, tl.uint_to_uniform_float(tl.load(x + i, mask=m)), mask=m)


def _cases(group: str) -> list[str]:
    return sorted({k.split("/")[1] for k in REFERENCE.files if k.startswith(group + "/")})


def _assert_normals_close(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("case", _cases("streams"))
def test_streams_match_triton(run: Any, case: str) -> None:
    ref = {
        k.split("/")[2]: REFERENCE[k] for k in REFERENCE.files if k.startswith(f"streams/{case}/")
    }
    ints = np.zeros(STREAMS_INTS * N, np.uint32)
    floats = np.zeros(STREAMS_FLOATS * N, np.float32)
    seed, rounds = int(str(ref["seed"])), int(ref["rounds"])
    grid = (triton.cdiv(N, BLOCK),)
    run(streams_kernel, grid, seed, ref["offsets"], ints, floats, N, N_ROUNDS=rounds, BLOCK=BLOCK)
    np.testing.assert_array_equal(ints, ref["ints"])  # randint4x, randint
    got, want = floats.reshape(STREAMS_FLOATS, N), ref["floats"].reshape(STREAMS_FLOATS, N)
    uniform_rows = [r for r in range(STREAMS_FLOATS) if r not in NORMAL_ROWS]
    np.testing.assert_array_equal(got[uniform_rows], want[uniform_rows])  # rand, rand4x: exact
    _assert_normals_close(got[NORMAL_ROWS], want[NORMAL_ROWS])


@pytest.mark.parametrize("case", _cases("scalar"))
def test_scalar_offsets_match_triton(run: Any, case: str) -> None:
    """A runtime scalar offset (int32, or int64 above 2**32) gives scalars."""
    seed, base = (int(str(REFERENCE[f"scalar/{case}/{k}"])) for k in ("seed", "base"))
    ints, floats = np.zeros(8, np.uint32), np.zeros(8, np.float32)
    run(scalar_offset_kernel, (8,), seed, base, ints, floats)
    np.testing.assert_array_equal(ints, REFERENCE[f"scalar/{case}/ints"])
    np.testing.assert_array_equal(floats, REFERENCE[f"scalar/{case}/floats"])


@pytest.mark.parametrize("seed", [int(s) for s in _cases("constexpr")])
def test_constexpr_seed_matches_triton(run: Any, seed: int) -> None:
    """A Python-int seed (here above 2**32: both key halves used) works like a runtime one."""
    ints = np.zeros(64, np.uint32)
    run(constexpr_seed_kernel, (1,), ints, SEED=seed, BLOCK=64)
    np.testing.assert_array_equal(ints, REFERENCE[f"constexpr/{seed}/ints"])


@pytest.mark.parametrize("case", _cases("philox"))
def test_philox_matches_triton(run: Any, case: str) -> None:
    """tl.philox on 32-bit counters (key: the seed's halves) and on 64-bit ones (key: the seed,
    with Philox4x64's constants)."""
    counters = REFERENCE[f"philox/{case}/counters"]
    want = REFERENCE[f"philox/{case}/out"]
    seed, rounds = (
        int(str(REFERENCE[f"philox/{case}/seed"])),
        int(REFERENCE[f"philox/{case}/rounds"]),
    )
    out = np.zeros(4 * N, want.dtype)
    run(philox_kernel, (1,), seed, counters, out, N, N_ROUNDS=rounds, BLOCK=128)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("dtype", _cases("uniform"))
def test_uint_to_uniform_float_matches_triton(run: Any, dtype: str) -> None:
    x = REFERENCE[f"uniform/{dtype}/x"]
    out = np.zeros(N, np.float32)
    run(uniform_kernel, (1,), x, out, N, BLOCK=128)
    np.testing.assert_array_equal(out, REFERENCE[f"uniform/{dtype}/out"])
    assert ((out >= 0) & (out < 1)).all()


@triton.jit
def sample_kernel(seed, ints, uniform, normal, BLOCK: tl.constexpr):
    off = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(ints + off, tl.randint(seed, off))
    tl.store(uniform + off, tl.rand(seed, off))
    tl.store(normal + off, tl.randn(seed, off))


def test_statistics_of_64k_samples(run: Any) -> None:
    """Each bit of randint is set half the time; rand is U(0, 1) and randn N(0, 1) (within a few
    standard errors of 64k samples)."""
    n, block = 1 << 16, 1024
    ints, uniform, normal = np.zeros(n, np.uint32), np.zeros(n, np.float32), np.zeros(n, np.float32)
    run(sample_kernel, (n // block,), 20240601, ints, uniform, normal, BLOCK=block)
    bits = (ints[:, None] >> np.arange(32, dtype=np.uint32)) & 1
    assert np.abs(bits.mean(axis=0) - 0.5).max() < 0.01  # 5 standard errors: 0.002 each
    assert ((uniform >= 0) & (uniform < 1)).all()
    assert abs(uniform.mean() - 0.5) < 0.006 and abs(uniform.var() - 1 / 12) < 0.003
    assert abs(normal.mean()) < 0.02 and abs(normal.var() - 1) < 0.03
    assert np.isfinite(normal).all()
    assert len(np.unique(ints)) > n - 10  # no short cycle across offsets


def test_rand_compiles_to_plain_tt_ops(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generators are inlined @jit code: Philox's rounds unrolled into umulhi/mul/xor/add
    on uint32, no dedicated op."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    ir = sample_kernel.warmup(
        5,
        np.zeros(64, np.uint32),
        np.zeros(64, np.float32),
        np.zeros(64, np.float32),
        BLOCK=64,
        grid=(1,),
    ).asm["tt"]
    ops = set(re.findall(r"= (tt\.\w+|arith\.\w+)", ir))
    assert ops <= {
        "tt.make_range",
        "tt.splat",
        "tt.addptr",
        "tt.umulhi",
        "tt.mul",
        "tt.xor",
        "tt.add",
        "tt.cast",
        "tt.bitcast",
        "tt.shr",
        "tt.and",
        "tt.cmp",
        "tt.select",
        "tt.neg",
        "tt.sub",
        "tt.maximum",
        "tt.log",
        "tt.sqrt",
        "tt.cos",
        "tt.sin",
        "tt.constant",
        "tt.get_program_id",
        "arith.constant",
    }, ops
    assert ir.count("tt.umulhi") == 2 * 10 * 3  # two per round, ten rounds, three generators
    assert "tensor<64xui32>" in ir


def random_warmups() -> list[Any]:
    """The kernels above compiled once (compile-only: tests/cuda and tests/mlir check the C++
    and the PTX): 32- and 64-bit offsets and counters, runtime and constexpr seeds."""
    ints, floats = np.zeros(STREAMS_INTS * N, np.uint32), np.zeros(STREAMS_FLOATS * N, np.float32)
    out = [
        streams_kernel.warmup(
            2**40, np.zeros(N, dt), ints, floats, N, N_ROUNDS=10, BLOCK=BLOCK, grid=(3,)
        )
        for dt in (np.int32, np.int64)
    ]
    out.append(scalar_offset_kernel.warmup(7, 2**35, np.zeros(8, np.uint32), floats, grid=(8,)))
    out.append(constexpr_seed_kernel.warmup(np.zeros(64, np.uint32), SEED=5, BLOCK=64, grid=(1,)))
    out.append(
        philox_kernel.warmup(
            3,
            np.zeros(4 * N, np.uint64),
            np.zeros(4 * N, np.uint64),
            N,
            N_ROUNDS=6,
            BLOCK=128,
            grid=(1,),
        )
    )
    return out
