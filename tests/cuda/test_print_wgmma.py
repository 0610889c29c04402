"""``nvvm.wgmma.mma_async`` printed as ``wgmma.mma_async`` inline PTX (the form an H200 ran),
its fence, commit and wait ops and ``nvvm.fence.proxy`` as their PTX instructions, the
accumulator structs as field variables; nvcc accepting them for ``sm_90a`` (skipped without
it); NVRTC compiling Hopper kernels for ``compute_90a``; and, on a GPU, the printed kernels
computing what gpusim computes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

import mytriton.language as tl
from mytriton.backends.cuda.compile import nvrtc_arch
from mytriton.backends.cuda.print_wgmma import wgmma_asm_text
from mytriton.backends.cuda.printer import print_cuda, printable_ops
from mytriton.backends.gpusim import run_lowered
from mytriton.dialects.nvgpu.ptx_wgmma import WgmmaRegisterAOp
from mytriton.dialects.nvgpu.wgmma import (
    WGMMA_FORMS,
    FenceProxyOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaFenceAlignedOp,
    WgmmaMmaAsyncOp,
    WgmmaScaleOutAttr,
    WgmmaWaitGroupSyncAlignedOp,
)
from tests.cuda.test_printer_ops import CONTRACT
from tests.wgmma_samples import (
    HARDWARE_CASES,
    WgmmaCase,
    WgmmaOptions,
    wgmma_inputs,
    wgmma_module,
)

IDS = [c.id for c in HARDWARE_CASES]
WGMMA = re.compile(r'asm volatile\("(\{\\n[^"]*)" : (.*?) : (.*?)\);')
#: the PTX instruction of each operand type at n = 64, and its operands after the descriptors
INSTRUCTIONS = {
    "f16": ("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16", "p, 1, 1, 0, 1"),
    "bf16": ("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16", "p, 1, 1, 0, 1"),
    "tf32": ("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32", "p, 1, 1"),
    "s8": ("wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8", "p"),
    "e4m3": ("wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e4m3", "p, 1, 1"),
    "e5m2": ("wgmma.mma_async.sync.aligned.m64n64k32.f32.e5m2.e5m2", "p, 1, 1"),
}


def _statements(source: str) -> list[re.Match[str]]:
    return list(WGMMA.finditer(source))


def test_asm_text_of_each_form() -> None:
    """The exact PTX, as the H200 ran it: the scale-d predicate from operand n/2 + 2, the
    transpose immediates for f16/bf16 only (1: B MN-major)."""
    regs = ", ".join(f"%{i}" for i in range(32))
    for operand, (instruction, tail) in INSTRUCTIONS.items():
        form = WGMMA_FORMS[operand]
        block = Block(arg_types=[form.result(64), i64, i64])
        op = WgmmaMmaAsyncOp(*block.args, 64, operand, form.transposable)
        assert wgmma_asm_text(op) == (
            "{\\n.reg .pred p;\\nsetp.ne.b32 p, %34, 0;\\n"
            f"{instruction} {{{regs}}}, %32, %33, {tail};\\n}}\\n"
        )
    op = WgmmaMmaAsyncOp(*block.args, 64, "f16", False)
    assert wgmma_asm_text(op).endswith("p, 1, 1, 0, 0;\\n}\\n")
    op = WgmmaMmaAsyncOp(*block.args, 64, "e4m3", False, b_operand="e5m2")  # two fp8 formats
    assert "wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2 {%0, " in wgmma_asm_text(op)


@pytest.mark.parametrize("case", HARDWARE_CASES, ids=IDS)
def test_printed_wgmma_statements(case: WgmmaCase) -> None:
    """One ``asm volatile`` per K step, its accumulators ``"+f"`` (``"+r"`` for s32) variables
    (the same ones along the chain), the descriptors ``"l"`` and scale-d ``"r"(1)``."""
    source = print_cuda(wgmma_module(case), line_directives="off")
    form = WGMMA_FORMS[case.operand]
    found = _statements(source)
    assert len(found) == case.k // form.k, source
    n = case.n
    letter, ctype = ("r", "int") if form.integer else ("f", "float")
    first_outputs = None
    for asm in found:
        assert f"{form.ptx(n)} {{%0, %1, " in asm[1]
        assert f"}}, %{n // 2}, %{n // 2 + 1}, p" in asm[1]
        assert f"setp.ne.b32 p, %{n // 2 + 2}, 0;" in asm[1]
        outputs = re.findall(rf'"\+{letter}"\((\w+)\)', asm[2])
        assert len(outputs) == n // 2 and len(set(outputs)) == n // 2
        first_outputs = first_outputs or outputs
        assert outputs == first_outputs  # the chain updates the registers in place
        assert re.fullmatch(r'"l"\(\w+\), "l"\(\w+\), "r"\(1\)', asm[3]), asm[3]
    # the first wgmma's variables start as the loaded C values (undef + insertvalue)
    assert first_outputs is not None
    init = re.search(rf"{ctype} ({first_outputs[0]} = \w+, .*);", source)
    assert init is not None and init[1].count(" = ") == n // 2
    assert re.search(rf"{ctype} undef_\d+ = 0;|{ctype} acc_\d+ = 0;", source)
    for i, name in enumerate(first_outputs):  # llvm.extractvalue [i] is the i-th field
        assert re.search(rf"^\s*\*\w+ = {name};$", source, flags=re.M), (i, name)


def test_printed_fences_commit_and_wait() -> None:
    source = print_cuda(wgmma_module(HARDWARE_CASES[0], WgmmaOptions(pipelined=True)))
    assert source.count('asm volatile("fence.proxy.async.shared::cta;" ::: "memory");') == 1
    assert source.count('asm volatile("wgmma.fence.sync.aligned;" ::: "memory");') == 4
    assert source.count('asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");') == 4
    # a wait names the accumulators written by the wgmmas before it (read and written)
    waits = re.findall(
        r'asm volatile\("wgmma\.wait_group\.sync\.aligned (\d);" :( "\+f"\(\w+\),?)+ :: '
        r'"memory"\);',
        source,
    )
    assert [w[0] for w in waits] == ["1", "1", "1", "0"]
    # the proxy fence before the barrier, the barrier before the first wgmma
    first = source.index("wgmma.fence")
    assert source.index("fence.proxy") < source.index("__syncthreads();") < first


def test_scale_d_zero_passes_0() -> None:
    module = wgmma_module(HARDWARE_CASES[0])
    for op in module.walk():
        if isinstance(op, WgmmaMmaAsyncOp):
            op.properties["scaleD"] = WgmmaScaleOutAttr("zero")
    found = _statements(print_cuda(module, line_directives="off"))
    assert found and all(m[3].endswith('"r"(0)') for m in found)


def test_contract_lists_the_ops() -> None:
    for op in (
        WgmmaMmaAsyncOp,
        WgmmaFenceAlignedOp,
        WgmmaCommitGroupSyncAlignedOp,
        WgmmaWaitGroupSyncAlignedOp,
        FenceProxyOp,
        WgmmaRegisterAOp,
        llvm.UndefOp,
        llvm.InsertValueOp,
    ):
        assert op in printable_ops(), op
    text = CONTRACT.read_text()
    for name in (
        "`nvvm.wgmma.mma_async",
        "`nvvm.wgmma.fence.aligned",
        "`nvvm.wgmma.commit.group.sync.aligned",
        "`nvvm.wgmma.wait.group.sync.aligned",
        "`nvvm.fence.proxy",
        "`ptx.wgmma.mma_async",
        "`llvm.mlir.undef",
        "`llvm.insertvalue",
    ):
        assert name in text, name


class FakeNvrtc:
    """What ``nvrtc_arch`` asks of CuPy's NVRTC module."""

    def __init__(self, archs: list[int], version: tuple[int, int]):
        self.archs, self.version = archs, version

    def getSupportedArchs(self) -> list[int]:
        return self.archs

    def getVersion(self) -> tuple[int, int]:
        return self.version


def test_hopper_compiles_for_compute_90a() -> None:
    archs = [75, 80, 86, 89, 90]
    assert nvrtc_arch(FakeNvrtc(archs, (12, 4)), 90) == "90a"
    assert nvrtc_arch(FakeNvrtc(archs, (11, 8)), 90) == "90"  # an NVRTC without 90a
    assert nvrtc_arch(FakeNvrtc(archs, (12, 4)), 80) == "80"
    # a newer GPU NVRTC does not know: the plain PTX of the newest it knows (90a would not run)
    assert nvrtc_arch(FakeNvrtc(archs, (12, 4)), 100) == "90"


@pytest.mark.parametrize("case", HARDWARE_CASES, ids=IDS)
def test_printed_wgmma_compiles_for_sm_90a(nvcc: str, tmp_path: Path, case: WgmmaCase) -> None:
    """nvcc (ptxas) accepts the printed kernel for sm_90a, without warnings beyond unused
    variables (an undef's zero), and its PTX holds the instructions."""
    cu = tmp_path / f"{case.id}.cu"
    cu.write_text(print_cuda(wgmma_module(case, WgmmaOptions(pipelined=True))))
    ptx = tmp_path / f"{case.id}.ptx"
    for args in (["-cubin", "-o", str(cu.with_suffix(".cubin"))], ["-ptx", "-o", str(ptx)]):
        result = subprocess.run(
            [nvcc, "-arch=sm_90a", "-std=c++17", *args, str(cu)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        warnings = [
            w for w in re.findall(r"warning #\d+-D", result.stderr) if w != "warning #177-D"
        ]
        assert not warnings, result.stderr
    text = ptx.read_text()
    n, form = case.n, WGMMA_FORMS[case.operand]
    assert text.count(f"{form.ptx(n)} ") == case.k // form.k
    for instruction in (
        "wgmma.fence.sync.aligned;",
        "wgmma.commit_group.sync.aligned;",
        "wgmma.wait_group.sync.aligned 1;",
        "wgmma.wait_group.sync.aligned 0;",
        "fence.proxy.async.shared::cta;",
    ):
        assert instruction in text, instruction


@pytest.mark.gpu
@pytest.mark.parametrize("case", HARDWARE_CASES, ids=IDS)
def test_printed_wgmma_on_a_gpu_matches_gpusim(cupy: Any, case: WgmmaCase) -> None:
    """On a Hopper GPU, the hardware computes what gpusim does (up to f32 rounding)."""
    from tests.cuda.test_gpu import launch

    if cupy.cuda.Device().compute_capability != "90":
        pytest.skip("wgmma needs a compute capability 9.0 GPU")
    programs = 2
    module = wgmma_module(case, WgmmaOptions(pipelined=True))
    a, b, c = wgmma_inputs(case, programs, np.random.default_rng(7))
    expected = np.zeros_like(c)
    run_lowered(module, (programs, 1, 1), [a, b, c, expected])
    bits = {1: np.uint8, 2: np.uint16}  # CuPy has no bf16 or fp8 dtypes: their bits
    device = [cupy.asarray(x.view(bits.get(x.dtype.itemsize, x.dtype))) for x in (a, b, c)]
    d = cupy.zeros_like(device[2])
    launch(module, (programs, 1, 1), [*device, d])
    if case.operand == "s8":
        np.testing.assert_array_equal(d.get(), expected)
    elif case.operand in ("e4m3", "e5m2"):  # the chip adds fp8 products with fewer bits
        np.testing.assert_allclose(d.get(), expected, rtol=1e-3, atol=1e-2)
    else:
        np.testing.assert_allclose(d.get(), expected, rtol=1e-4, atol=1e-4)


def _pipelined_matmul_source(
    monkeypatch: pytest.MonkeyPatch, bn: int = 128, out: type = np.float32
) -> str:
    """The CUDA C++ of the tutorial matmul (f16, 128 x ``bn`` x 64 over 8 warps, 3 stages, C of
    dtype ``out``): its K loop keeps the warpgroup MMAs in flight into the next iteration."""
    from tests.execution.test_dot_pipeline import tutorial_matmul

    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    a = np.zeros((256, 256), np.float16)
    c = np.zeros((256, 256), out)
    compiled = tutorial_matmul.warmup(
        a, a, c, 256, 256, 256, 256, 1, 256, 1, 256, 1,
        OUT=tl.float32, LOOP_STAGES=0, BM=128, BN=bn, BK=64,
        num_warps=8, num_stages=3, grid=(1,),
    )  # fmt: skip
    assert "ttg.dot_wait" in compiled.asm["ttg"] and "pendings = 1" in compiled.asm["ttg"]
    return str(compiled.asm["cuda"])


def test_loop_carries_accumulators_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop carries the accumulator structs as field variables, which the wgmmas update in
    place (no copy into fresh variables per iteration); the ``wait_group 1`` in the loop and the
    ``wait_group 0`` after it both name those variables."""
    source = _pipelined_matmul_source(monkeypatch)
    loop = source[source.index("do {") :]
    body_end = loop.index("wgmma.wait_group.sync.aligned 0;")
    first = re.search(r'wgmma\.mma_async[^"]*" : "\+f"\((\w+)\)', loop)
    assert first is not None
    carried = first.group(1)  # the loop's variable for field 0
    assert re.search(rf"float {carried} = ", source[: source.index("do {")])
    assert not re.search(rf"float \w+ = {carried};", loop[:body_end])  # no per-iteration copy
    waits = re.findall(r'wgmma\.wait_group\.sync\.aligned (\d);" : ([^:]*)', source)
    assert [w[0] for w in waits] == ["1", "0"]
    for _, registers in waits:
        assert f'"+f"({carried})' in registers


def test_loop_exit_waits_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wait retiring the last iteration's wgmmas is the first statement on the loop's exit
    edge: the K loop is ``if (lb < ub) { do { ... } while (...); wait }``, with nothing but line
    directives between the ``while`` and the wait (else nvcc may compute the epilogue's indices
    first, and ptxas then serializes every wgmma: ``test_loop_carrying_accumulators_compiles``)."""
    source = _pipelined_matmul_source(monkeypatch)
    lines = [x.strip() for x in source.splitlines() if not x.strip().startswith("#line")]
    end = next(i for i, x in enumerate(lines) if x.startswith("} while (("))
    assert re.fullmatch(r"\} while \(\((\w+) \+= \w+\) < \w+\);", lines[end])
    assert lines[end + 1].startswith('asm volatile("wgmma.wait_group.sync.aligned 0;"')
    assert lines[end + 2] == "}"  # nothing was in flight before the loop: no else
    start = next(i for i, x in enumerate(lines) if x == "do {")
    assert re.fullmatch(r"if \(\w+ < \w+\) \{", lines[start - 2])
    assert re.fullmatch(r"int \w+ = \w+;", lines[start - 1])


@pytest.mark.parametrize(("bn", "out"), [(128, np.float32), (256, np.float16)])
def test_loop_carrying_accumulators_compiles(
    nvcc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bn: int, out: type
) -> None:
    """ptxas takes the in-flight loop without serializing the wgmmas (it warns when it must).
    At 128 x 256 into f16 it did, when nvcc computed the epilogue's indices before the wait
    after the loop; the H200 ran that tile at 0.75x of Triton's speed."""
    source = _pipelined_matmul_source(monkeypatch, bn, out)
    _compiles_without_ptxas_warnings(nvcc, tmp_path, source)


def _compiles_without_ptxas_warnings(nvcc: str, tmp_path: Path, source: str) -> None:
    """nvcc builds ``source`` for sm_90a, and ptxas says nothing (e.g. that it serialized
    the wgmmas, which it does where a wgmma's registers are touched while it is in flight)."""
    cu = tmp_path / "kernel.cu"
    cu.write_text(source)
    result = subprocess.run(
        [nvcc, "-arch=sm_90a", "-std=c++17", "-cubin", "-o", str(tmp_path / "k.cubin"), str(cu)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "ptxas" not in result.stderr, result.stderr


def _chained_dots_source(monkeypatch: pytest.MonkeyPatch, backend: str) -> Any:
    """The tutorial-like chain ``(a @ b).to(f16) @ v`` (``test_dot_wgmma.chained_dots``)
    compiled (not run) for ``backend``: its second dot takes A from registers."""
    from tests.execution.test_dot_wgmma import chained_dots

    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    x = np.zeros((64, 64), np.float16)
    o = np.zeros((64, 64), np.float32)
    return chained_dots.warmup(x, x, x, o, M=64, N=64, K=64, D=64, BM=64, grid=(1,))


def test_register_a_printed_as_r_operands(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ptx.wgmma.mma_async``: A's four words are ``"r"`` operands %32-%35 after the 32
    accumulators, then B's descriptor and the scale; no transpose flag for A."""
    source = str(_chained_dots_source(monkeypatch, "cuda").asm["cuda"])
    statements = re.findall(r'asm volatile\("(\{\\n[^"]*)" : (.*?) : (.*?)\);', source)
    register_a = [s for s in statements if "{%32, %33, %34, %35}" in s[0]]
    assert len(register_a) == 4  # K = 64: four k16 steps
    text, outs, ins = register_a[0]
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0," in text
    assert text.endswith("{%32, %33, %34, %35}, %36, p, 1, 1, 1;\\n}\\n")
    assert outs.count('"+f"') == 32 and ins.count('"r"(') == 5 and ins.count('"l"(') == 1


def test_register_a_compiles(nvcc: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = str(_chained_dots_source(monkeypatch, "cuda").asm["cuda"])
    _compiles_without_ptxas_warnings(nvcc, tmp_path, source)


def test_register_a_verifier() -> None:
    """Four i32 words of f16/bf16, and an accumulator struct of n / 2 f32."""
    block = Block(arg_types=[WGMMA_FORMS["f16"].result(64), *([i32] * 4), i64])
    acc, words, desc = block.args[0], list(block.args[1:5]), block.args[5]
    WgmmaRegisterAOp(acc, words, desc, 64, "f16", True).verify()
    with pytest.raises(VerifyException, match="4 i32 registers"):
        WgmmaRegisterAOp(acc, words[:3], desc, 64, "f16", True).verify()
    with pytest.raises(VerifyException, match="f16 or bf16"):
        WgmmaRegisterAOp(acc, words, desc, 64, "tf32", False).verify()
    with pytest.raises(VerifyException, match="64 f32 fields"):
        WgmmaRegisterAOp(acc, words, desc, 128, "f16", True).verify()
