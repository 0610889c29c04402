"""A warpgroup MMA left in flight across a loop's back edge (attention's P @ V,
``ttg-pipeline``'s deferred dots) in CUDA C++: C++ cannot copy registers the tensor cores still
write, so the wgmmas write the loop's own variables (the rescaled accumulator is assigned to
them first), the body's first ``wgmma.wait_group`` names those variables (the previous
iteration's wgmmas may still write them), and so does the wait after the loop. nvcc compiles
it for sm_90a, and ptxas keeps the wgmmas pipelined (no serialization warning)."""

from __future__ import annotations

import re
import subprocess
import warnings
from pathlib import Path

import numpy as np

from tests.execution.test_attention import attn_fwd


def _source() -> str:
    q = np.zeros((256, 64), np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kernel = attn_fwd.warmup(
            q, q, q, np.zeros((256, 64), np.float32), 256, 0.125,
            grid=(4,), D=64, BM=64, BN=64, CAUSAL=False, num_warps=4,
        )  # fmt: skip
    return str(kernel.asm["cuda"])


def _registers(statement: str) -> list[str]:
    return re.findall(r'"\+f"\((\w+)\)', statement)


def test_deferred_wgmma_writes_the_loop_variables(cuda_backend: object) -> None:
    source = _source()
    loop = source[source.index("do {") :]  # (the loop retires its wgmmas on its exit edge)
    body, after = loop[: loop.index("} while")], loop[loop.index("} while") :]
    waits = [line for line in body.splitlines() if "wgmma.wait_group.sync.aligned 0" in line]
    mmas = [line for line in body.splitlines() if "wgmma.mma_async" in line]
    p_v = _registers(mmas[-1])  # P @ V's last k step: the value the loop carries
    assert len(p_v) == 32 and len(set(p_v)) == 32
    carried = set(p_v)
    assert carried <= set(_registers(waits[0]))  # the first wait, after Q @ K^T
    for mma in mmas[len(mmas) // 2 :]:  # every k step of P @ V updates them in place
        assert set(_registers(mma)) == carried
    for name in carried:  # declared before the loop, assigned the rescaled values in it
        assert re.search(rf"^ +float {name} = ", source[: source.index("do {")], re.M)
        assert re.search(rf"^ +{name} = \w+;$", body, re.M)
    final = [line for line in after.splitlines() if "wgmma.wait_group.sync.aligned 0" in line]
    assert carried <= set(_registers(final[0]))


def test_deferred_wgmma_compiles_unserialized(
    cuda_backend: object, nvcc: str, tmp_path: Path
) -> None:
    path = tmp_path / "attn.cu"
    path.write_text(_source())
    command = [nvcc, "-arch=sm_90a", "-std=c++17", "-cubin", "-Xptxas", "-v", str(path)]
    result = subprocess.run(
        [*command, "-o", str(path.with_suffix(".cubin"))],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Used " in result.stderr  # ptxas reported (-v), without
    assert "Performance Loss" not in result.stderr, result.stderr
