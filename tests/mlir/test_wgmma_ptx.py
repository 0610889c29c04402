"""``nvvm.wgmma.mma_async``, its fence, commit and wait ops and ``nvvm.fence.proxy`` through the
MLIR backend: emitted with upstream MLIR 22's names, lowered by the project's pipeline
(``convert-nvvm-to-llvm`` builds their inline PTX) to the PTX ``wgmma`` instructions for
``sm_90a`` (skipped without a provider) and accepted by ptxas where one is found; a 9.0 device
compiles for ``sm_90a``."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator

import pytest

from mytriton.backends.mlir import toolkit
from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.pipeline import mlir_to_ptx, ptx_to_cubin
from mytriton.backends.mlir.toolkit import CHIP_ENV_VAR, device_chip, select_chip
from mytriton.dialects.nvgpu.wgmma import WGMMA_FORMS
from tests.mlir.conftest import requires_provider
from tests.wgmma_samples import HARDWARE_CASES, WgmmaCase, WgmmaOptions, wgmma_module

IDS = [c.id for c in HARDWARE_CASES]


@pytest.mark.parametrize("case", HARDWARE_CASES, ids=IDS)
def test_emitted_wgmma_uses_upstream_names(case: WgmmaCase) -> None:
    text = emit_mlir(wgmma_module(case))
    lines = [line for line in text.splitlines() if '"nvvm.wgmma.mma_async"' in line]
    form = WGMMA_FORMS[case.operand]
    assert len(lines) == case.k // form.k
    acc = "i32" if form.integer else "f32"
    struct = f"!llvm.struct<({', '.join([acc] * (case.n // 2))})>"
    for part in (
        "layoutA = #nvvm.mma_layout<row>",
        f"layoutB = #nvvm.mma_layout<{'row' if case.b_mn_major else 'col'}>",
        "satfinite = #nvvm.mma_int_overflow<wrapped>",
        "scaleA = #nvvm.wgmma_scale_in<one>",
        "scaleB = #nvvm.wgmma_scale_in<one>",
        "scaleD = #nvvm.wgmma_scale_out<one>",
        f"shape = #nvvm.shape<m = 64, n = {case.n}, k = {form.k}>",
        f"typeA = #nvvm.wgmma_type<{case.operand}>",
        f"typeB = #nvvm.wgmma_type<{case.operand}>",
        f"typeD = #nvvm.wgmma_type<{form.accumulator_type}>",
        f": ({struct}, i64, i64) -> {struct}",
    ):
        assert part in lines[0], (part, lines[0])
    for op in (
        '"nvvm.wgmma.fence.aligned"() : () -> ()',
        '"nvvm.wgmma.commit.group.sync.aligned"() : () -> ()',
        '"nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}> : () -> ()',
        '"nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.shared>, '
        "space = #nvvm.shared_space<cta>}> : () -> ()",
        f'"llvm.mlir.undef"() : () -> {struct}',
        '"llvm.insertvalue"(',
    ):
        assert op in text, op


@requires_provider
@pytest.mark.parametrize("case", HARDWARE_CASES, ids=IDS)
def test_wgmma_compiles_to_ptx(case: WgmmaCase) -> None:
    """Every K step one ``wgmma.mma_async`` of the form (transpose immediates as the CUDA
    printer's), and the fences, commits and waits of the pipelined kernel."""
    module = wgmma_module(case, WgmmaOptions(pipelined=True))
    ptx = mlir_to_ptx(emit_mlir(module), kernel="wgmma", chip="sm_90a")
    assert ".target sm_90a" in ptx
    form = WGMMA_FORMS[case.operand]
    found = re.findall(
        rf"{re.escape(form.ptx(case.n))} \{{[^}}]*\}}, %rd\d+, %rd\d+, ([^;]*);", ptx
    )
    assert len(found) == case.k // form.k, ptx
    tail = {"f16": "p,1,1,0,T", "bf16": "p,1,1,0,T", "s8": "p"}.get(case.operand, "p,1,1")
    tail = tail.replace("T", "1" if case.b_mn_major else "0")
    assert {re.sub(r"\s", "", f) for f in found} == {tail}
    assert ptx.count("wgmma.fence.sync.aligned;") == case.k // form.k
    assert ptx.count("wgmma.commit_group.sync.aligned;") == case.k // form.k
    waits = re.findall(r"wgmma\.wait_group\.sync\.aligned\s+(\d+);", ptx)
    assert waits == ["1"] * (case.k // form.k - 1) + ["0"]
    assert "fence.proxy.async.shared::cta;" in ptx
    ptx_to_cubin(ptx, "sm_90a", "wgmma")  # None without ptxas; raises if ptxas rejects it


@pytest.fixture
def fake_cupy(monkeypatch: pytest.MonkeyPatch) -> Iterator[types.SimpleNamespace]:
    """A CuPy whose one device has the compute capability the test sets."""
    device = types.SimpleNamespace(compute_capability="90")
    cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDeviceCount=lambda: 1),
        Device=lambda index=None: device,
    )
    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(cuda=cuda))
    device_chip.cache_clear()
    yield device
    device_chip.cache_clear()


def test_a_hopper_device_compiles_for_sm_90a(
    fake_cupy: types.SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CHIP_ENV_VAR, raising=False)
    assert select_chip() == ("sm_90a", "CUDA device")
    assert select_chip("sm_90") == ("sm_90", "explicit")  # an explicit choice stays
    fake_cupy.compute_capability = "80"
    toolkit.device_chip.cache_clear()
    assert select_chip() == ("sm_80", "CUDA device")


def _chained_dots_gpu(monkeypatch: pytest.MonkeyPatch) -> str:
    """The lowered IR of ``(a @ b).to(f16) @ v`` (``test_dot_wgmma.chained_dots``): its second
    dot is a ``ptx.wgmma.mma_async`` (A in registers)."""
    import numpy as np

    from tests.execution.test_dot_wgmma import chained_dots

    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros((64, 64), np.float16)
    o = np.zeros((64, 64), np.float32)
    compiled = chained_dots.warmup(x, x, x, o, M=64, N=64, K=64, D=64, BM=64, grid=(1,))
    return str(compiled.asm["gpu"])


def test_register_a_wgmma_becomes_inline_ptx(monkeypatch: pytest.MonkeyPatch) -> None:
    """Upstream's wgmma op reads A through a descriptor only: ``ptx.wgmma.mma_async`` is
    emitted as ``llvm.inline_asm``, each accumulator an ``=f`` output tied to its input (so the
    PTX numbers A's words after both: ``$64`` to ``$67`` for 32 accumulators)."""
    from mytriton.backends.stages import parse_module

    text = emit_mlir(parse_module(_chained_dots_gpu(monkeypatch)))
    assert "ptx.wgmma.mma_async" not in text
    asm = [line for line in text.splitlines() if '"llvm.inline_asm"' in line and "wgmma" in line]
    assert len(asm) == 4  # K = 64: four k16 steps
    assert "{$64, $65, $66, $67}, $68, p, 1, 1, 1;" in asm[0]
    constraints = ",".join([*(["=f"] * 32), *(str(i) for i in range(32)), "r", "r", "r", "r"])
    assert constraints + ",l,r,~{memory}" in asm[0]


@requires_provider
def test_register_a_wgmma_compiles_for_sm_90a(monkeypatch: pytest.MonkeyPatch) -> None:
    from mytriton.backends.stages import parse_module

    text = emit_mlir(parse_module(_chained_dots_gpu(monkeypatch)))
    ptx = mlir_to_ptx(text, chip="sm_90a")
    instruction = r"wgmma\.mma_async\.sync\.aligned\.m64n64k16\.f32\.f16\.f16"
    found = re.findall(instruction + r" \{[^}]*\}, (\{[^}]*\})", ptx)
    assert len(found) >= 4 and any(a.count("%r") == 4 for a in found)  # A's four words
    ptx_to_cubin(ptx, "sm_90a")  # ptxas (where found) accepts it
