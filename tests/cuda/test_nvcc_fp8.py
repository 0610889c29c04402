"""The printed CUDA C++ converts fp8e4nv/fp8e5 as Triton 3.6 does on sm_89+: one paired ``cvt``
as inline PTX per two values (``tests/fp8_cvt_samples.py``), which nvcc keeps; for sm_80 the
integer code, no fp8 instruction."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.cuda.test_nvcc import assert_compiles, nvcc_ptx
from tests.fp8_cvt_samples import IDS, PAIRED, compile_for, fp8_cvt_count


@pytest.mark.parametrize(("src", "dst"), list(PAIRED), ids=IDS)
def test_fp8_conversion_instruction(
    nvcc: str, tmp_path: Path, cuda_backend: object, src: str, dst: str
) -> None:
    source = compile_for(src, dst, 90).asm["cuda"]
    want = PAIRED[(src, dst)]
    assert source.count(f'asm("{want} %0, %1') == 1, source  # one pair a thread
    ptx = nvcc_ptx(nvcc, source, tmp_path / "cvt.cu")
    found = re.findall(r"\bcvt\.rn\.(?:satfinite\.e\w+x2\.f(?:32|16x2)|f16x2\.e\w+x2)\b", ptx)
    assert found == [want], found


@pytest.mark.parametrize("pair", [("fp32", "fp8e5"), ("fp8e5", "fp32"), ("bf16", "fp8e5")])
def test_no_fp8_instruction_before_sm_89(
    nvcc: str, tmp_path: Path, cuda_backend: object, pair: tuple[str, str]
) -> None:
    source = compile_for(*pair, 80).asm["cuda"]
    assert fp8_cvt_count(source) == 0
    assert_compiles(nvcc, source, tmp_path / "cvt80.cu")
