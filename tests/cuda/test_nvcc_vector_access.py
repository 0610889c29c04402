"""A vector access of the lowered IR is one global access in the PTX nvcc makes of the printed
C++ (NVRTC's options, as ``benchmarks/static_compare.py`` compiles it here): a 16-byte
``vector<8xf16>`` is one ``ld``/``st.global.v4.b32``, not four 32-bit accesses (issue 36:
nvcc split ``*(uint4*)p = v`` once it saw the 16-bit pieces ``v`` was built of)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, bf16, f16, f32, i8, i16, i32
from xdsl.ir import Attribute

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.cuda.compile import NVRTC_OPTIONS
from mytriton.backends.cuda.printer import print_cuda
from tests.gpu_ir_samples import vector_copy_module, vector_reverse_module

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
_BYTES = {f16: 2, bf16: 2, i8: 1, i16: 2, f32: 4, i32: 4}
_NAMES = {f16: "f16", bf16: "bf16", i8: "i8", i16: "i16", f32: "f32", i32: "i32"}
#: a global access of the PTX: (ld|st), its vector shape (``.v4``, or none) and its bits
_ACCESS = re.compile(r"\b(ld|st)\.global(?:\.nc)?(?:\.L1::\w+)?(\.v[248])?\.[bsuf](8|16|32|64)\b")


def _ptx(nvcc: str, module: ModuleOp | str, path: Path) -> str:
    """The PTX nvcc makes of ``module``'s C++ (or of the C++ itself)."""
    path.write_text(module if isinstance(module, str) else print_cuda(module))
    ptx = path.with_suffix(".ptx")
    cmd = [nvcc, "-ptx", "-arch=compute_90a", *NVRTC_OPTIONS, str(path), "-o", str(ptx)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return ptx.read_text()


def _accesses(ptx: str, kind: str) -> list[str]:
    """Each global ``kind`` (ld or st) of the PTX as ``v4.32`` / ``v1.16`` (shape.bits)."""
    return [
        f"{(m.group(2) or '.v1')[1:]}.{m.group(3)}"
        for m in _ACCESS.finditer(ptx)
        if m.group(1) == kind
    ]


def _one_access(nbytes: int) -> str:
    """The one access moving ``nbytes`` bytes: 32-bit words, or one 16- or 8-bit word."""
    if nbytes >= 4:
        return f"v{nbytes // 4}.32"
    return f"v1.{nbytes * 8}"


def _label(element: Attribute, lanes: int) -> str:
    return f"{lanes}x{_NAMES[element]}"


# every vector the contract allows (2 to 16 elements, at most 16 bytes), one per case
VECTORS = [
    (element, lanes)
    for element in (f16, bf16, i8, i16, f32, i32)
    for lanes in (2, 4, 8, 16)
    if lanes * _BYTES[element] <= 16
]


@pytest.mark.parametrize(("element", "lanes"), VECTORS, ids=[_label(e, n) for e, n in VECTORS])
def test_rebuilt_vector_is_one_store_and_one_load(
    nvcc: str, tmp_path: Path, element: Attribute, lanes: int
) -> None:
    """A vector loaded, taken apart and rebuilt element by element (reversed), then stored:
    one load and one store of the vector's size (16 bytes: ``v4.b32``)."""
    ptx = _ptx(nvcc, vector_reverse_module(lanes, element), tmp_path / "reverse.cu")
    want = _one_access(lanes * _BYTES[element])
    assert _accesses(ptx, "ld") == [want], ptx
    assert _accesses(ptx, "st") == [want], ptx


@pytest.mark.parametrize(("element", "lanes"), VECTORS, ids=[_label(e, n) for e, n in VECTORS])
def test_masked_vector_copy_is_one_load_and_one_store(
    nvcc: str, tmp_path: Path, element: Attribute, lanes: int
) -> None:
    ptx = _ptx(nvcc, vector_copy_module(lanes, element), tmp_path / "copy.cu")
    want = _one_access(lanes * _BYTES[element])
    assert _accesses(ptx, "ld") == [want], ptx
    assert _accesses(ptx, "st") == [want], ptx


def _attention_kernels() -> ModuleType:
    """``benchmarks/attention_src.py`` under mytriton, through compare.py's own loader (by path:
    the name ``benchmarks`` is taken by xDSL's package in site-packages)."""
    spec = importlib.util.spec_from_file_location("benchmarks_compare", BENCHMARKS / "compare.py")
    assert spec and spec.loader
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    return compare.load_kernels("nvcc_vector_attention", triton, tl, "attention_src.py")


def test_attention_output_stores_are_v4_b32(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    """The benchmark's flash attention (d64): its f16 output leaves a layout conversion through
    shared memory as 8 rebuilt ``vector<8xf16>``, each one ``st.global.v4.b32``; a plain
    ``*(uint4*)p = v`` was 4 ``st.global.u32`` each (issue 36)."""
    q = np.zeros((1, 1, 128, 64), np.float16)
    s = [e // 2 for e in q.strides[:3]]
    kernel = _attention_kernels().attn_fwd.warmup(
        q, q, q, q, 0.1, *s, *s, *s, *s, 1, 128,
        HEAD_DIM=64, BLOCK_M=128, BLOCK_N=64, CAUSAL=False, num_warps=4, grid=(1,),
    )  # fmt: skip
    ptx = _ptx(nvcc, kernel.asm["cuda"], tmp_path / "attention.cu")
    assert _accesses(ptx, "st") == ["v4.32"] * 8
