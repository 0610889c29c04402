"""The epilogue of a tensor-core dot: the accumulator, cast to the output type, moves from the
MMA's layout to the store's through shared memory (``convert_wide``: 16-byte stores and
``ldmatrix`` where the layouts allow it, element by element elsewhere), on every backend,
against NumPy.

Cases cover warpgroup MMAs (4 and 8 warps) and ``mma.sync`` tiles (too small for a warpgroup),
f16, bf16 and f32 outputs, masked M/N/K edges and several programs; on gpusim the shared-memory
round trip is also checked for races and uninitialised reads.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl

pytestmark = pytest.mark.execution


@triton.jit
def epilogue_kernel(
    a, b, out, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr
):  # fmt: skip
    """``out = (a @ b)`` in ``out``'s type, over ``BM x BN`` tiles with masked edges."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        a_tile = tl.load(
            a + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0
        )
        b_tile = tl.load(
            b + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0
        )
        acc = tl.dot(a_tile, b_tile, acc)
    c = acc.to(out.dtype.element_ty)
    tl.store(out + rm[:, None] * N + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


OUTS = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}
# (M, N, K, BM, BN, BK, warps, MMA, wide): masked edges in M, N and K (N a multiple of 16, so
# that the store is vectorised and needs the store layout); "wide" where the 16-bit epilogue
# goes through 16-byte stores and ldmatrix (an accumulator over warps along N holds its pairs
# 16 columns apart: element by element)
SHAPES = [
    (100, 144, 40, 64, 64, 32, 4, "wgmma", True),
    (130, 208, 64, 128, 128, 32, 8, "wgmma", True),
    (70, 48, 16, 64, 32, 16, 4, "mma.sync", True),
    (40, 80, 16, 16, 64, 16, 1, "mma.sync", True),
    (50, 80, 24, 32, 64, 16, 4, "mma.sync", False),
    (70, 48, 16, 64, 32, 16, 8, "mma.sync", False),
]


def _epilogue_ldmatrix(gpu: str, mma: str) -> bool:
    """Whether an ``ldmatrix`` follows the kernel's last MMA (the operands' come before it)."""
    last = gpu.rindex("nvvm.wgmma.mma_async" if mma == "wgmma" else "nvvm.mma.sync")
    return "nvvm.ldmatrix" in gpu[last:]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s[:7])))
@pytest.mark.parametrize("out_kind", list(OUTS))
def test_epilogue(run: Any, out_kind: str, shape: tuple[Any, ...]) -> None:
    m, n, k, bm, bn, bk, warps, mma, wide = shape
    rng = np.random.default_rng(m + 3 * n + k + warps)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    dtype = OUTS[out_kind]
    out = np.full((m, n), 77, dtype)
    grid = (triton.cdiv(m, bm), triton.cdiv(n, bn))
    compiled = run(epilogue_kernel, grid, a, b, out, m, n, k, BM=bm, BN=bn, BK=bk, num_warps=warps)
    if run.backend == "gpusim":  # the chip gpusim models: sm_90
        gpu = compiled.asm["gpu"]
        assert ("nvvm.wgmma.mma_async" in gpu) == (mma == "wgmma")
        assert "ttg.convert_layout" in compiled.asm["ttg"]
        assert _epilogue_ldmatrix(gpu, mma) == (wide and out_kind != "f32")
    ref = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32).astype(dtype)
    tol = {"f16": 2e-3, "bf16": 1e-2, "f32": 1e-5}[out_kind]
    np.testing.assert_allclose(
        out.astype(np.float64), ref.astype(np.float64), rtol=tol, atol=tol * np.sqrt(k)
    )
