"""Tensor descriptor kernels compile to CUDA C++ on machines without a GPU: atomics as one
relaxed ``atom`` per element at gpu scope, descriptors remade in loops (tests/execution checks
values)."""

from __future__ import annotations

from pathlib import Path

from tests.cuda.test_nvcc import assert_compiles


def test_descriptor_atomics_print_relaxed_atoms(cuda_backend: object) -> None:
    from tests.execution.test_descriptor_atomics import descriptor_atomic_warmups

    sources = [kernel.asm["cuda"] for kernel in descriptor_atomic_warmups()]
    for source, instruction in zip(
        sources,
        (
            "atom.relaxed.gpu.global.add.noftz.bf16",
            "atom.relaxed.gpu.global.add.f32",
            "atom.relaxed.gpu.global.max.s32",
            "atom.relaxed.gpu.global.xor.b64",
        ),
        strict=True,
    ):
        assert instruction in source, instruction
        assert "acq_rel" not in source


def test_descriptor_atomics_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_descriptor_atomics import descriptor_atomic_warmups

    for i, kernel in enumerate(descriptor_atomic_warmups()):
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}_{i}.cu")


def test_loop_carried_descriptors_compile_with_nvcc(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    from tests.execution.test_descriptor_loop_carried import loop_carried_warmups

    for kernel in loop_carried_warmups():
        assert_compiles(nvcc, kernel.asm["cuda"], tmp_path / f"{kernel.name}.cu")
