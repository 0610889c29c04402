"""Tensor descriptor atomics compile to PTX through upstream MLIR without a GPU: relaxed
``atom`` instructions (``atom.relaxed.gpu.X`` is PTX's ``atom.X``) with no fences around."""

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
