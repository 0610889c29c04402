"""TorchInductor's own static CUDA launcher on kernels mytriton compiled (``compat/static_launch.py``,
``MYTRITON_STATIC_LAUNCH=1``): Inductor's check (``StaticTritonCompileResult.can_statically_launch``)
accepts each kernel whose launch it would do as mytriton does, with the same parameter kinds,
entry, threads and shared memory, reading the cubin mytriton compiled; a kernel whose scalar
Inductor would pass in one byte (``i8``) is left to ``CompiledKernel.run``. On a GPU, a compiled
graph runs with the static launch made strict and matches eager.

The first test needs a backend that makes cubins here (the mlir backend with ptxas); the second
a GPU.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mytriton.backends.mlir.providers import configured_providers
from mytriton.backends.mlir.toolkit import find_cuda_toolkit
from tests.child_env import switch_hook_folder

torch = pytest.importorskip("torch", reason="the torch.compile suite needs torch ([torch] extra)")

from tests.gpu_required import require_gpu  # noqa: E402 (after the torch check)

ROOT = Path(__file__).resolve().parents[2]
#: what each Inductor scalar code is as the ABI's kind (a pointer, or a C type's width and kind)
CODE_KINDS = {"O": "ptr", "i": "i32", "I": "i32", "l": "i64", "K": "i64", "f": "f32", "d": "f64"}


def _cubins_here() -> str | None:
    """Why the mlir backend cannot make cubins here (None: it can)."""
    if not any(p.unavailable_reason() is None for p in configured_providers()):
        return "no MLIR provider here"
    toolkit = find_cuda_toolkit()
    if toolkit is None or toolkit.ptxas is None:
        return "no ptxas here: the mlir backend makes PTX only"
    return None


def probe(tmp: Path, mode: str, *args: str, backend: str = "mlir") -> list[dict[str, Any]]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("MYTRITON_INTERPRET", "TRITON_INTERPRET")
    }
    env.update(
        MYTRITON_AS_TRITON="1",
        MYTRITON_STATIC_LAUNCH="1",
        MYTRITON_BACKEND=backend,
        TRITON_CACHE_DIR=str(tmp / "triton"),
        TORCHINDUCTOR_CACHE_DIR=str(tmp / "inductor"),
    )
    hook = switch_hook_folder(tmp)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (hook, str(ROOT), env.get("PYTHONPATH", "")) if p
    )
    proc = subprocess.run(
        [sys.executable, "-m", "tests.inductor.static_launch_probe", mode, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


@pytest.mark.skipif(_cubins_here() is not None, reason=str(_cubins_here()))
def test_inductor_launches_mytriton_kernels_statically_as_mytriton_does(tmp_path: Path) -> None:
    records = {r["kernel"]: r for r in probe(tmp_path, "kernels", "90")}
    assert set(records) == {"pointwise", "pointwise_u32_fp64", "row_sum", "matmul", "small_int"}
    for name, r in records.items():
        assert r["cubin"], name
        if name == "small_int":  # Inductor passes an i8 in one byte; the ABI takes an i32
            assert not r["static"]
            continue
        assert r["static"], name
        params, codes = r["params"], r["arg_tys"]
        # the kernel's parameters (a launch adds a null pointer per scratch flag, as Triton 3.6
        # kernels take two: more than the kernel declares, and the driver reads its own)
        assert [CODE_KINDS[c] for c in codes] == params, name
        assert r["name"] == r["entry"], name
        assert [32 * r["num_warps"], 1, 1] == r["block"], name
        assert r["shared"] == r["abi_shared"], name
        assert r["cubin_matches"], name


@pytest.mark.parametrize("gpu_backend", ["cuda", "mlir"])
def test_a_graph_launched_statically_matches_eager(tmp_path: Path, gpu_backend: str) -> None:
    require_gpu("torch")
    assert probe(tmp_path, "graph", backend=gpu_backend) == [{"graph": "ok"}]
