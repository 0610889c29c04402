"""Liger-Kernel (``pip install --no-deps liger-kernel``) on mytriton: its kernels forward and
backward on CPU tensors, against eager torch, on the interpreter and on gpusim."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.libraries.conftest import CPU_BACKENDS, require, run_example, run_python

# every case of examples/liger_kernels.py that runs on CPU tensors (dyt's backward and the
# MLP's autograd function need CUDA)
CASES = {
    "rms_norm",
    "rms_norm_gemma_bf16",
    "layer_norm",
    "swiglu",
    "geglu",
    "cross_entropy_smooth_ignore",
    "cross_entropy_softcap_sum",
    "fused_linear_cross_entropy",
    "rope",
    "kl_div",
    "jsd",
    "softmax",
    "sparsemax",
    "group_norm",
    "dyt_forward",
    "fused_moe",
    "mlp_gemm_swiglu_bf16",
}


@pytest.mark.parametrize("backend", CPU_BACKENDS)
def test_liger_kernels_match_torch(backend: str) -> None:
    require("torch", "liger_kernel")
    rows = run_example("liger_kernels.py", backend)
    assert set(rows) == CASES
    for name, row in rows.items():
        assert row["runner"] == f"mytriton {backend}"
        assert row["ok"], f"{name}: {row['error'] or row['errors']}"


CACHE_MANAGER = """
import torch
from liger_kernel.triton import apply_liger_triton_cache_manager
from liger_kernel.triton.monkey_patch import LigerTritonFileCacheManager as Manager
from liger_kernel.ops.swiglu import _swiglu_forward_kernel
from triton import knobs

written = []
put = Manager.put
Manager.put = lambda self, data, name, binary=True: written.append(name) or put(self, data, name)
apply_liger_triton_cache_manager()
assert knobs.cache.manager_class is Manager
a = torch.randn(4, 64)
_swiglu_forward_kernel.warmup(a, a, torch.empty_like(a), 64, 64, 1.0, BLOCK_SIZE=64, grid=(4,))
print(written)
"""


def test_liger_cache_manager_stores_the_disk_cache(tmp_path: Path) -> None:
    """``apply_liger_triton_cache_manager()`` names a ``FileCacheManager`` subclass in
    ``TRITON_CACHE_MANAGER``: it imports, and mytriton's disk cache writes through it (the
    cuda backend compiles CPU tensors without running them)."""
    require("torch", "liger_kernel")
    cache = tmp_path / "cache"
    proc = run_python(["-W", "ignore", "-c", CACHE_MANAGER], "cuda", MYTRITON_CACHE_DIR=str(cache))
    assert proc.returncode == 0, proc.stderr[-4000:]
    [written] = ast.literal_eval(proc.stdout.strip())
    [entry] = cache.rglob("*.kernel")
    assert entry.name == written
