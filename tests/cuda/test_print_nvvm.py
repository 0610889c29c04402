"""``nvvm.mma.sync`` printed as ``mma.sync.aligned`` inline PTX, ``nvvm.ldmatrix`` as
``ldmatrix.sync.aligned`` and the ``cp.async`` ops as ``cp.async``, ``cp.async.commit_group`` and
``cp.async.wait_group``: the instruction and operand constraints of each form, ptxas accepting
them (nvcc, skipped without it), and, on a GPU, the printed kernels computing what gpusim
computes (mma, cp.async) and what the PTX ISA describes (ldmatrix)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mytriton.backends.cuda.printer import print_cuda, printable_ops
from mytriton.backends.gpusim import run_lowered
from mytriton.backends.gpusim.dtypes import dtype_of
from mytriton.dialects.nvgpu.nvvm import (
    MMA_FORMS,
    CpAsyncCommitGroupOp,
    CpAsyncOp,
    CpAsyncWaitGroupOp,
    LdMatrixOp,
    MmaSyncOp,
)
from tests.cp_async_samples import (
    CASE_IDS,
    CASES,
    ELEMENTS,
    cp_async_inputs,
    cp_async_module,
    cp_async_reference,
)
from tests.cuda.test_nvcc import assert_compiles
from tests.cuda.test_printer_ops import CONTRACT
from tests.ldmatrix_samples import ldmatrix_inputs, ldmatrix_module, ldmatrix_reference
from tests.mma_samples import FP8_KINDS, mma_inputs, mma_module, unwritten

KINDS = [*MMA_FORMS, *FP8_KINDS]  # fp8: ``ptx.mma.sync``
INSTRUCTIONS = {
    "e4m3": "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
    "e5m2": "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",
    "e4m3.e5m2": "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32",
    "f16": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
    "bf16": "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
    "tf32": "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
    "s8": "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
}
OPERANDS = "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"


def mma_statement(source: str) -> re.Match[str]:
    """The ``asm`` statement of the mma, split into instruction, outputs and inputs."""
    found = re.search(r'asm\("(mma[^"]*)" : (.*?) : (.*)\);', source)
    assert found is not None, source
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_printed_instruction_and_constraints(kind: str) -> None:
    source = print_cuda(mma_module(kind), line_directives="off")
    asm = mma_statement(source)
    assert asm[1] == f"{INSTRUCTIONS[kind]} {OPERANDS}"
    acc, ctype = ("r", "int") if kind == "s8" else ("f", "float")  # s32 or f32 accumulators
    outputs = re.findall(rf'"={acc}"\((\w+)\)', asm[2])
    assert len(outputs) == 4 and len(set(outputs)) == 4
    assert re.search(rf"{ctype} {', '.join(outputs)};", source)
    inputs = re.findall(r'"(\w)"\(', asm[3])
    assert inputs == ["r"] * 6 + [acc] * 4
    registers = re.findall(r'"r"\((.*?)\), ', asm[3])[:6]  # A and B (s8: C too)
    if kind == "f16":  # the packed uint1 of a vector<2xf16>: its word
        assert all(re.fullmatch(r"\w+\.x", r) for r in registers), registers
    else:
        assert all(re.fullmatch(r"\(\(unsigned\)\w+\)", r) for r in registers), registers
    for i, name in enumerate(outputs):  # llvm.extractvalue [i] is the i-th output
        assert re.search(rf"^\s*\*\w+ = {name};$", source, flags=re.M), (i, name)


def test_contract_lists_the_op() -> None:
    assert MmaSyncOp in printable_ops()
    assert "`nvvm.mma.sync" in CONTRACT.read_text()


@pytest.mark.parametrize("kind", KINDS)
def test_printed_mma_compiles(nvcc: str, tmp_path: Path, kind: str) -> None:
    """ptxas accepts the inline PTX for sm_90 (a cubin), and the PTX holds the instruction."""
    source = print_cuda(mma_module(kind, warps=2))
    assert_compiles(nvcc, source, tmp_path / f"mma_{kind}.cu")
    ptx = tmp_path / f"mma_{kind}.ptx"
    result = subprocess.run(
        [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", str(tmp_path / f"mma_{kind}.cu"), "-o", ptx],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert INSTRUCTIONS[kind] in ptx.read_text()


@pytest.mark.gpu
@pytest.mark.parametrize("kind", KINDS)
def test_printed_mma_on_a_gpu_matches_gpusim(cupy: Any, kind: str) -> None:
    """The hardware's fragment layouts are gpusim's; sums may differ in the last f32 bits (the
    tensor core accumulates in its own order and precision)."""
    from tests.cuda.test_gpu import launch

    warps, programs = 2, 3
    module = mma_module(kind, warps)
    a, b, c = mma_inputs(kind, warps * programs, np.random.default_rng(7))
    expected = unwritten(c)
    run_lowered(module, (programs, 1, 1), [a, b, c, expected])
    bits = {1: np.uint8, 2: np.uint16}  # CuPy has no bf16 or fp8 dtypes: their bits
    device = [cupy.asarray(x.view(bits.get(x.dtype.itemsize, x.dtype))) for x in (a, b, c)]
    d = cupy.asarray(unwritten(c))
    launch(module, (programs, 1, 1), [*device, d])
    np.testing.assert_allclose(d.get(), expected, rtol=1e-5, atol=1e-5)


LDMATRIX_CASES = [(num, t) for num in (1, 2, 4) for t in (False, True)]
LDMATRIX_IDS = [f"x{num}{'-trans' if t else ''}" for num, t in LDMATRIX_CASES]


@pytest.mark.parametrize(("num", "transposed"), LDMATRIX_CASES, ids=LDMATRIX_IDS)
def test_printed_ldmatrix(nvcc: str, tmp_path: Path, num: int, transposed: bool) -> None:
    """``ldmatrix`` as volatile inline PTX on the ``unsigned`` shared address (the array's
    ``__cvta_generic_to_shared`` plus bytes), the staging row as one ``uint4`` store; ptxas
    accepts it for sm_90."""
    source = print_cuda(ldmatrix_module(num, transposed), line_directives="off")
    trans = ".trans" if transposed else ""
    regs = ",".join(f"%{i}" for i in range(num))
    found = re.search(
        r'asm volatile\("(ldmatrix[^"]*)" : (.*?) : "r"\((\w+)\) : "memory"\);', source
    )
    assert found is not None, source
    assert found[1] == f"ldmatrix.sync.aligned.m8n8.x{num}{trans}.shared.b16 {{{regs}}}, [%{num}];"
    assert len(re.findall(r'"=r"\(\w+\)', found[2])) == num
    assert re.search(rf"unsigned {found[3]} = \w+ \+ \(unsigned\)\(\w+\) \* 2u;", source), source
    assert "(long long)__cvta_generic_to_shared(staged)" in source
    assert re.search(r"\*\(uint4\*\)&staged\[\w+\] = \w+;", source)
    assert_compiles(nvcc, source, tmp_path / "ldmatrix.cu")


def test_contract_lists_ldmatrix() -> None:
    assert LdMatrixOp in printable_ops()
    for name in ("`nvvm.ldmatrix", "`memref.extract_aligned_pointer_as_index", "`vector.store"):
        assert name in CONTRACT.read_text(), name


@pytest.mark.gpu
@pytest.mark.parametrize(("num", "transposed"), LDMATRIX_CASES, ids=LDMATRIX_IDS)
def test_printed_ldmatrix_on_a_gpu(cupy: Any, num: int, transposed: bool) -> None:
    """The hardware hands out the elements as the PTX ISA (and gpusim) says."""
    from tests.cuda.test_gpu import launch

    src, rows = ldmatrix_inputs(np.random.default_rng(11 + num))
    out = cupy.zeros(32 * num, cupy.int32)
    launch(
        ldmatrix_module(num, transposed), (1, 1, 1), [cupy.asarray(src), cupy.asarray(rows), out]
    )
    np.testing.assert_array_equal(out.get(), ldmatrix_reference(src, rows, num, transposed))


CP_ASYNC = re.compile(
    r'asm volatile\("cp\.async\.(c[ag])\.shared\.global \[%0\], \[%1\], (\d+)(, %2)?;" :: '
    r'"r"\((\w+)\), "l"\((\w+)\)(?:, "r"\((\w+)\))? : "memory"\);'
)


@pytest.mark.parametrize(("element", "size", "cg"), CASES, ids=CASE_IDS)
def test_printed_cp_async(nvcc: str, tmp_path: Path, element: str, size: int, cg: bool) -> None:
    """Each copy as volatile inline PTX on the ``unsigned`` shared address and the global
    pointer, with the bytes to read; a commit after each, the waits for the pipeline's groups;
    ptxas accepts it for sm_90."""
    source = print_cuda(cp_async_module(element, size, cache_global=cg), line_directives="off")
    copies = CP_ASYNC.findall(source)
    assert len(copies) == 2, source
    for cache, nbytes, has_count, dst, src, count in copies:
        assert (cache, int(nbytes), has_count) == ("cg" if cg else "ca", size, ", %2")
        assert re.search(rf"unsigned {dst} = \w+ \+ \(unsigned\)\(\w+\) \* \d+u;", source)
        assert re.search(rf"\w+\* {src} = src \+ \w+;", source), source
        assert re.search(rf"int {count} = \w+ \? {size} : 0;", source), source
    assert source.count('asm volatile("cp.async.commit_group;" ::: "memory");') == 2
    waits = re.findall(r'asm volatile\("cp\.async\.wait_group (\d+);" ::: "memory"\);', source)
    assert waits == ["1", "0"]
    assert_compiles(nvcc, source, tmp_path / "cp_async.cu")


def test_printed_cp_async_without_cp_size(nvcc: str, tmp_path: Path) -> None:
    """Without ``cpSize`` the instruction has no source size operand."""
    source = print_cuda(cp_async_module("f32", 8, masked=False), line_directives="off")
    copies = CP_ASYNC.findall(source)
    assert [c[:3] for c in copies] == [("ca", "8", "")] * 2 and not any(c[5] for c in copies)
    assert_compiles(nvcc, source, tmp_path / "cp_async.cu")


def test_printed_cp_async_ptx(nvcc: str, tmp_path: Path) -> None:
    """nvcc's PTX holds the three instructions as written."""
    cu, ptx = tmp_path / "cp_async.cu", tmp_path / "cp_async.ptx"
    cu.write_text(print_cuda(cp_async_module("f16", 16)))
    result = subprocess.run(
        [nvcc, "-arch=sm_90", "-std=c++17", "-ptx", str(cu), "-o", str(ptx)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    text = ptx.read_text()
    assert re.search(r"cp\.async\.cg\.shared\.global \[%r\d+\], \[%rd\d+\], 16, %r\d+;", text)
    assert "cp.async.commit_group;" in text
    assert "cp.async.wait_group 1;" in text and "cp.async.wait_group 0;" in text


def test_contract_lists_cp_async() -> None:
    for op in (CpAsyncOp, CpAsyncCommitGroupOp, CpAsyncWaitGroupOp):
        assert op in printable_ops()
    for name in (
        "`nvvm.cp.async.shared.global",
        "`nvvm.cp.async.commit.group",
        "`nvvm.cp.async.wait.group",
    ):
        assert name in CONTRACT.read_text(), name


@pytest.mark.gpu
@pytest.mark.parametrize(("element", "size", "cg"), CASES, ids=CASE_IDS)
def test_printed_cp_async_on_a_gpu(cupy: Any, element: str, size: int, cg: bool) -> None:
    """The hardware copies, zero-fills where ``cpSize`` is 0 and completes the groups as gpusim
    (and the reference) say."""
    from tests.cuda.test_gpu import launch

    stages, block = 3, 64
    per = size // dtype_of(ELEMENTS[element]).itemsize
    total = stages * block * per
    n, start = total - 5 * per, 2 * per  # the last 5 threads' copies read nothing
    src = cp_async_inputs(element, total + start, np.random.default_rng(size))
    module = cp_async_module(element, size, stages=stages, cache_global=cg, block=block)
    expected = np.full(total, 7, src.dtype)
    run_lowered(module, (1, 1, 1), [src, expected, n, start])
    reference = cp_async_reference(src, n, start, size, stages=stages, block=block)
    np.testing.assert_array_equal(expected.view(np.uint8), reference.view(np.uint8))
    bits = src.view(np.uint16) if src.dtype.itemsize == 2 else src  # f16/bf16 as their bits
    out = cupy.asarray(np.full(total, 7, bits.dtype))
    launch(module, (1, 1, 1), [cupy.asarray(bits), out, n, start])
    np.testing.assert_array_equal(out.get().view(np.uint8), reference.view(np.uint8))
