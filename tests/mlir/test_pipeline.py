"""Each sample through each MLIR provider found here, to PTX (and cubin where ptxas exists)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mytriton.backends.mlir import compile_mlir, emit_mlir
from mytriton.backends.mlir.pipeline import pass_pipeline
from mytriton.backends.mlir.toolkit import CudaToolkit, find_cuda_toolkit
from tests.mlir import samples

HAS_PTXAS = (tk := find_cuda_toolkit()) is not None and tk.ptxas is not None

# what each sample must show in PTX besides its .entry (what LLVM's optimiser cannot remove)
PTX_FEATURES = {
    "ids_and_barrier": [r"%ctaid\.y", r"%nctaid\.z", r"bar\.sync\s+0"],
    "int_arith": [],  # LLVM folds most of it: only that it lowers is checked
    "float_arith": [r"\.f32"],
    "compare_select": [r"setp\.\w+\.f32"],
    "conversions": [r"cvt\.rn\.f16\.f32", r"cvt\.f32\.f16", r"cvt\.rzi\.s32\.f32"],
    "math_ops": [r"fma\.rn\.f32", r"abs\.f32"],  # libdevice calls, inlined
    "memory": [
        r"\.shared \.align 4 \.b8 smem_0\[512\]",
        r"st\.shared",
        r"ld\.shared",
        r"bar\.sync",
    ],
    "control_flow": [r"@%p\d+ bra", r"\$L__BB0_\d+:"],
    "shuffle": [r"shfl\.sync\.bfly\.b32"],
    # contractible (enable_fp_fusion, the default): a plain add.f32 ptxas may fuse
    "add_kernel": [r"ld\.global", r"st\.global", r"add\.f32"],
}


def test_every_sample_has_ptx_checks() -> None:
    assert set(PTX_FEATURES) == set(samples.SAMPLES)


@pytest.mark.parametrize("name", sorted(samples.SAMPLES))
def test_sample_lowers_to_ptx(name: str, provider: str) -> None:
    module = samples.SAMPLES[name]()
    build = compile_mlir(emit_mlir(module), kernel=name, cubin=False)
    assert build.provider == provider
    assert re.search(rf"\.visible \.entry {name}\(", build.ptx), build.ptx[:2000]
    block = 32 if name == "shuffle" else 128
    assert f".reqntid {block}, 1, 1" in build.ptx and ".maxntid" not in build.ptx
    assert f".target {build.chip}" in build.ptx
    assert ".extern" not in build.ptx and "__nv_" not in build.ptx, "libdevice was not linked"
    for feature in PTX_FEATURES[name]:
        assert re.search(feature, build.ptx), f"{feature!r} not in the PTX of {name}"


@pytest.mark.skipif(not HAS_PTXAS, reason="no ptxas here: no cubin is built")
@pytest.mark.parametrize("name", ["add_kernel", "math_ops", "memory"])
def test_sample_builds_a_cubin(name: str, provider: str) -> None:
    build = compile_mlir(emit_mlir(samples.SAMPLES[name]()), kernel=name)
    assert build.cubin is not None and build.cubin[:4] == b"\x7fELF"
    assert name.encode() in build.cubin  # the entry's symbol


def test_the_chip_reaches_the_ptx(provider: str) -> None:
    build = compile_mlir(emit_mlir(samples.add_kernel()), chip="sm_80", cubin=False)
    assert build.chip == "sm_80" and ".target sm_80" in build.ptx


def test_pass_pipeline_text() -> None:
    toolkit = CudaToolkit(root=Path("/opt/cuda"), libdevice=None, ptxas=None, source="test")
    assert pass_pipeline("sm_90", "isa", toolkit) == (
        "builtin.module(nvvm-attach-target{chip=sm_90 O=3},"
        "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{index-bitwidth=64},"
        "convert-nvvm-to-llvm,canonicalize,cse),"
        "reconcile-unrealized-casts,gpu-module-to-binary{format=isa toolkit=/opt/cuda})"
    )
    assert pass_pipeline("sm_80", "bin", None).endswith("gpu-module-to-binary{format=bin})")
