"""The atomics kernels compile to CUDA C++ (nvcc, sm_90) on machines without a GPU (CI); their
values are checked by tests/execution/test_atomics.py. The printed PTX is Triton's:
``atom.<sem>.<scope>.global.<op>.<type>``."""

from __future__ import annotations

from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_atomic_kernels_compile_with_nvcc(nvcc: str, tmp_path: Path, cuda_backend: object) -> None:
    from tests.execution.test_atomics import atomic_warmups

    compiled = atomic_warmups()
    sources = [kernel.asm["cuda"] for kernel in compiled]
    text = "\n".join(sources)
    for instruction in (
        "atom.acq_rel.gpu.global.add.u32",
        "atom.acq_rel.gpu.global.add.f32",
        "atom.acq_rel.gpu.global.add.noftz.f16",
        "atom.acq_rel.gpu.global.add.noftz.bf16",
        "atom.acq_rel.gpu.global.add.f64",
        "atom.acq_rel.gpu.global.max.s32",
        "atom.acq_rel.gpu.global.min.u32",  # a float min's negative half
        "atom.acq_rel.gpu.global.max.u32",  # uint32
        "atom.acq_rel.gpu.global.exch.b32",
        "atom.acq_rel.gpu.global.and.b32",
        "atom.acq_rel.gpu.global.xor.b64",
        "atom.acq_rel.gpu.global.cas.b32",
        "atom.acq_rel.gpu.global.cas.b16",
        "atom.relaxed.cta.global.add.u32",
        "atom.release.sys.global.add.u32",
    ):
        assert instruction in text, instruction
    for i, (kernel, source) in enumerate(zip(compiled, sources, strict=True)):
        assert_compiles(nvcc, source, tmp_path / f"{kernel.name}_{i}.cu")
