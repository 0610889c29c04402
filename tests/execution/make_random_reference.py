"""Writes ``random_reference.npz``: what real Triton's ``tl.rand``/``randn``/``randint``/
``randint4x``/``rand4x``/``randn4x``/``philox``/``uint_to_uniform_float`` give for the inputs of
``test_random.py``. Run it with Triton (3.6, CPU interpreter, torch CPU), not with mytriton:

    TRITON_INTERPRET=1 /path/to/triton-venv/bin/python tests/execution/make_random_reference.py

The kernels are those of ``test_random.py`` (the same source, written against ``triton``).
Each case stores its inputs (seed as a decimal string, offsets or counters) and Triton's outputs;
floats are stored as float32 and compared bit for bit (``randn`` with a tolerance).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
import triton
import triton.language as tl

N, BLOCK = 70, 32  # three programs, the last one masked
STREAMS_INTS, STREAMS_FLOATS = 5, 10


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


# (name, seed, offsets, n_rounds)
_I = np.arange(N, dtype=np.int64)
STREAM_CASES: list[tuple[str, int, np.ndarray, int]] = [
    ("seed0_i32", 0, _I.astype(np.int32), 10),
    ("seed42_i32", 42, _I.astype(np.int32), 10),
    ("seed_i32max_i32", 2**31 - 1, (_I * 7919 + 3).astype(np.int32), 10),
    ("seed_negative_i32", -12345, (_I - 35).astype(np.int32), 10),  # sign-extended key
    ("seed_i64_i32_top", 2**31 + 12345, (2**31 - 1 - _I).astype(np.int32), 10),
    ("seed_above_2_32_i64", 2**40 + 987654321, (2**40 + _I * 3).astype(np.int64), 10),
    ("seed_big_i64_negative", 0x7EDCBA9876543210, (_I * -(2**33) + 5).astype(np.int64), 10),
    ("seed_u64_i64", 2**63 + 2**35 + 5, (_I << 32 | _I).astype(np.int64), 10),
    ("seed7_u32_top", 7, (2**32 - 1 - _I).astype(np.uint32), 10),
    ("seed7_u64", 7, np.uint64(2**63) + (_I * 2**31).astype(np.uint64), 10),
    ("seed1234_rounds7", 1234, _I.astype(np.int32), 7),
]
SCALAR_CASES: list[tuple[str, int, int]] = [
    ("scalar_i32", 99, 1000),
    ("scalar_i64", 2**33 + 1, 2**35 + 11),
]
CONSTEXPR_SEEDS = [5, 2**32 + 5]
# (name, seed, counter dtype, n_rounds)
PHILOX_CASES: list[tuple[str, int, Any, int]] = [
    ("philox32", 2**36 + 77, np.int32, 10),
    ("philox32_u32_rounds3", 3, np.uint32, 3),
    ("philox64", 2**36 + 77, np.int64, 10),
    ("philox64_u64_rounds6", 3, np.uint64, 6),
]


def _torch(a: np.ndarray) -> torch.Tensor:
    """uint32/uint64 inputs go in as the signed type of their width (the same bits)."""
    signed = {np.uint32: np.int32, np.uint64: np.int64}.get(a.dtype.type)
    if signed is not None:
        t = torch.from_numpy(a.view(signed).copy())
        return t.view(torch.uint32 if signed is np.int32 else torch.uint64)
    return torch.from_numpy(a.copy())


def main() -> None:
    out: dict[str, np.ndarray] = {}
    grid = (triton.cdiv(N, BLOCK),)
    for name, seed, offsets, rounds in STREAM_CASES:
        ints = torch.zeros(STREAMS_INTS * N, dtype=torch.int32)
        floats = torch.zeros(STREAMS_FLOATS * N, dtype=torch.float32)
        streams_kernel[grid](seed, _torch(offsets), ints, floats, N, N_ROUNDS=rounds, BLOCK=BLOCK)
        out[f"streams/{name}/seed"] = np.array(str(seed))
        out[f"streams/{name}/rounds"] = np.array(rounds)
        out[f"streams/{name}/offsets"] = offsets
        out[f"streams/{name}/ints"] = ints.numpy().view(np.uint32)
        out[f"streams/{name}/floats"] = floats.numpy()
    for name, seed, base in SCALAR_CASES:
        ints = torch.zeros(8, dtype=torch.int32)
        floats = torch.zeros(8, dtype=torch.float32)
        scalar_offset_kernel[(8,)](seed, base, ints, floats)
        out[f"scalar/{name}/seed"] = np.array(str(seed))
        out[f"scalar/{name}/base"] = np.array(str(base))
        out[f"scalar/{name}/ints"] = ints.numpy().view(np.uint32)
        out[f"scalar/{name}/floats"] = floats.numpy()
    for seed in CONSTEXPR_SEEDS:
        ints = torch.zeros(64, dtype=torch.int32)
        constexpr_seed_kernel[(1,)](ints, SEED=seed, BLOCK=64)
        out[f"constexpr/{seed}/ints"] = ints.numpy().view(np.uint32)
    rng = np.random.default_rng(10)
    for name, seed, dtype, rounds in PHILOX_CASES:
        info = np.iinfo(dtype)
        counters = rng.integers(info.min, info.max, 4 * N, dtype=dtype, endpoint=True)
        result = torch.zeros(4 * N, dtype=torch.int32 if info.bits == 32 else torch.int64)
        philox_kernel[(1,)](seed, _torch(counters), result, N, N_ROUNDS=rounds, BLOCK=128)
        out[f"philox/{name}/seed"] = np.array(str(seed))
        out[f"philox/{name}/rounds"] = np.array(rounds)
        out[f"philox/{name}/counters"] = counters
        out[f"philox/{name}/out"] = result.numpy().view(np.uint32 if info.bits == 32 else np.uint64)
    for dtype in (np.int32, np.uint32, np.int64, np.uint64):
        info = np.iinfo(dtype)
        x = rng.integers(info.min, info.max, N, dtype=dtype, endpoint=True)
        x[:4] = [info.min, info.max, 0, info.max // 2 + 1]
        result = torch.zeros(N, dtype=torch.float32)
        uniform_kernel[(1,)](_torch(x), result, N, BLOCK=128)
        out[f"uniform/{np.dtype(dtype).name}/x"] = x
        out[f"uniform/{np.dtype(dtype).name}/out"] = result.numpy()
    path = Path(__file__).with_name("random_reference.npz")
    np.savez_compressed(path, **out)
    print(f"wrote {len(out)} arrays to {path}")


if __name__ == "__main__":
    main()
