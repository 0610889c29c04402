"""The MLIR backend's PTX converts fp8e4nv/fp8e5 as Triton 3.6 does on sm_89+: one paired
``cvt`` per two values (``tests/fp8_cvt_samples.py``; NVPTX selects it from the NVVM intrinsic
the lowering calls); for sm_80 the integer code, no fp8 instruction."""

from __future__ import annotations

import re

import pytest

from mytriton.backends.mlir.backend import MlirBackend
from tests.fp8_cvt_samples import IDS, PAIRED, compile_for, fp8_cvt_count
from tests.mlir.conftest import requires_provider


@requires_provider
@pytest.mark.parametrize(("src", "dst"), list(PAIRED), ids=IDS)
def test_fp8_conversion_instruction(mlir_backend: MlirBackend, src: str, dst: str) -> None:
    ptx = compile_for(src, dst, 90).asm["ptx"]
    found = re.findall(r"\bcvt\.rn\.(?:satfinite\.e\w+x2\.f(?:32|16x2)|f16x2\.e\w+x2)\b", ptx)
    assert found == [PAIRED[(src, dst)]], found


@requires_provider
@pytest.mark.parametrize("pair", [("fp32", "fp8e5"), ("fp8e5", "fp32"), ("bf16", "fp8e5")])
def test_no_fp8_instruction_before_sm_89(mlir_backend: MlirBackend, pair: tuple[str, str]) -> None:
    ptx = compile_for(*pair, 80).asm["ptx"]
    assert fp8_cvt_count(ptx) == 0 and ".visible .entry cvt_kernel(" in ptx
