"""The cuda backend's ``enable_fp_fusion`` and ``maxnreg`` checked with nvcc and ptxas on
machines without a GPU: ``--fmad=false`` (the flag given to NVRTC) removes the FMA of
``x * 1.5 + 1.0``, and the ``.maxnreg`` line ``add_maxnreg`` writes assembles."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.nvidia.ptx_directives import add_maxnreg

FMA = re.compile(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32")


@triton.jit
def _mul_add(X):
    p = X + tl.arange(0, 128)
    tl.store(p, tl.load(p) * 1.5 + 1.0)


def _ptx(nvcc: str, source: str, path: Path, *flags: str) -> str:
    path.write_text(source)
    out = path.with_suffix(".ptx")
    cmd = [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", *flags, str(path), "-o", str(out)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return out.read_text()


def test_fmad_flag_and_maxnreg(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launch
        kernel = _mul_add.warmup(np.zeros(128, np.float32), grid=(1,), enable_fp_fusion=False)
    source = kernel.asm["cuda"]
    fused = _ptx(nvcc, source, tmp_path / "fused.cu")
    unfused = _ptx(nvcc, source, tmp_path / "unfused.cu", "--fmad=false")
    assert FMA.search(fused)
    assert not FMA.search(unfused)

    ptxas = shutil.which("ptxas") or str(Path(nvcc).resolve().parent / "ptxas")
    if not Path(ptxas).exists():
        pytest.skip("ptxas not found")
    limited = tmp_path / "limited.ptx"
    limited.write_text(add_maxnreg(fused, 42))
    result = subprocess.run(
        [ptxas, "-arch=sm_90", str(limited), "-o", str(tmp_path / "limited.cubin")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
