"""A tensor-core dot's result, stored through contiguous pointers, leaves the printed CUDA C++
in 16-byte vectors: nvcc's PTX holds ``st.global.v4`` stores only (as Triton's)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path


def test_dot_results_store_16_bytes(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_dot_store_vectors import dot_store_warmups

    for i, kernel in enumerate(dot_store_warmups()):
        source, ptx = tmp_path / f"dot_{i}.cu", tmp_path / f"dot_{i}.ptx"
        source.write_text(kernel.asm["cuda"])
        subprocess.run(
            [nvcc, "-arch=sm_90a", "-std=c++17", "-ptx", str(source), "-o", str(ptx)],
            check=True,
            capture_output=True,
        )
        stores = set(re.findall(r"st\.global[\w.]*", ptx.read_text()))
        assert stores and all(s.startswith("st.global.v4.") for s in stores), stores
