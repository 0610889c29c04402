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


def test_constant_operands_of_16_bit_atomics_compile(
    nvcc: str, tmp_path: Path, cuda_backend: object
) -> None:
    """A literal operand (``tl.atomic_cas(int16_ptr, 0, 1)``) is cast to the operand's type: a
    bare ``0`` is a 4-byte ``int``, which a 16-bit ``"h"`` asm operand rejects (NVRTC failed)."""
    import warnings

    from tests.frontend.test_atomic_errors import B, H, S, X, accepted_kernel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launch
        source = accepted_kernel.warmup(X, H, B, S, grid=(1,)).asm["cuda"]
    assert '"h"((short)0), "h"((short)1)' in source
    assert_compiles(nvcc, source, tmp_path / "accepted_kernel.cu")
