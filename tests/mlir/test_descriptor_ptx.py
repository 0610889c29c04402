"""Tensor descriptor kernels compile to PTX through upstream MLIR without a GPU: atomics as
relaxed ``atom`` instructions (``atom.relaxed.gpu.X`` is PTX's ``atom.X``) with no fences around;
descriptors remade in loops."""

from __future__ import annotations

import re

from tests.mlir.conftest import requires_provider


@requires_provider
def test_descriptor_atomics_compile_to_relaxed_atoms(mlir_backend: object) -> None:
    from tests.execution.test_descriptor_atomics import descriptor_atomic_warmups

    for kernel, instruction in zip(
        descriptor_atomic_warmups(),
        (
            "atom.global.add.noftz.bf16",
            "atom.global.add.f32",
            "atom.global.max.s32",
            "atom.global.xor.b64",
        ),
        strict=True,
    ):
        ptx = kernel.asm["ptx"]
        found = {i.replace("atom.relaxed.gpu.", "atom.") for i in re.findall(r"atom\.[\w.]+", ptx)}
        assert found == {instruction}, (instruction, found)
        assert "fence." not in ptx


@requires_provider
def test_loop_carried_descriptors_compile(mlir_backend: object) -> None:
    """Maps remade in loops lower to their bases: the loops carry pointers, no map is built."""
    from tests.execution.test_descriptor_loop_carried import loop_carried_warmups

    for kernel in loop_carried_warmups():
        ptx = kernel.asm["ptx"]
        assert f".visible .entry {kernel.name}(" in ptx
        assert "tensormap" not in ptx
