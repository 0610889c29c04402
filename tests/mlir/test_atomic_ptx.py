"""The atomics kernels compile to PTX through upstream MLIR on machines without a GPU (CI).

LLVM 22's NVPTX keeps a ``cmpxchg``'s ordering (``atom.acq_rel.gpu.global.cas``) but drops an
``atomicrmw``'s, so the emitted MLIR puts an ordered atomicrmw between fences
(``backends/mlir/atomic_fences.py``): the PTX must show them around the relaxed ``atom``.
"""

from __future__ import annotations

import re

from tests.mlir.conftest import requires_provider


def _instructions(ptx: str) -> list[str]:
    """The atom and fence instructions, ``atom.relaxed.gpu.X`` written ``atom.X`` (PTX's
    defaults: LLVM 22 prints the short form, the LLVM of the MLIR Python bindings the long)."""
    found = re.findall(r"^\s*((?:atom|fence)\.[\w.]+)", ptx, flags=re.M)
    return [i.replace("atom.relaxed.gpu.", "atom.") for i in found]


@requires_provider
def test_atomic_kernels_compile_to_ptx(mlir_backend: object) -> None:
    from tests.execution.test_atomics import atomic_warmups

    compiled = atomic_warmups()
    by_name: dict[str, list[list[str]]] = {}
    for kernel in compiled:
        assert f".visible .entry {kernel.name}(" in kernel.asm["ptx"]
        by_name.setdefault(kernel.name, []).append(_instructions(kernel.asm["ptx"]))
    everything = [i for lists in by_name.values() for found in lists for i in found]
    for expected in (
        "atom.global.add.u32",
        "atom.global.add.f32",
        "atom.global.add.noftz.f16",
        "atom.global.add.noftz.bf16",
        "atom.global.add.f64",
        "atom.global.max.s32",
        "atom.global.min.u32",
        "atom.global.exch.b32",
        "atom.acq_rel.gpu.global.cas.b32",
    ):
        assert expected in everything, (expected, sorted(set(everything)))
    # acq_rel add at gpu scope: fences on both sides; relaxed at cta: none; release at sys:
    # one before
    # (a back end that keeps an atomicrmw's scope prints it on the relaxed atom)
    relaxed, release = by_name["ticket_kernel"]
    assert relaxed in (["atom.global.add.u32"], ["atom.relaxed.cta.global.add.u32"])
    assert release[0] == "fence.acq_rel.sys"
    assert release[1:] in (["atom.global.add.u32"], ["atom.relaxed.sys.global.add.u32"])
    masked = by_name["masked_add_kernel"][0]
    assert masked[:3] == ["fence.acq_rel.gpu", "atom.global.add.u32", "fence.acq_rel.gpu"]


def test_emitted_atomicrmw_is_relaxed_between_fences() -> None:
    """What MLIR is given (no mlir-opt needed): the ordering as fences, the module unchanged."""
    from xdsl.dialects import llvm
    from xdsl.dialects.builtin import IntAttr, ModuleOp, i32
    from xdsl.ir import Block, Region

    from mytriton.backends.mlir.atomic_fences import fence_atomicrmw
    from mytriton.backends.mlir.emit import print_generic
    from mytriton.dialects.nvgpu.atomic import AtomicBinOp, AtomicOrdering, AtomicRMWOp

    block = Block(arg_types=[llvm.LLVMPointerType(IntAttr(1)), i32])
    p, v = block.args
    ops = [
        AtomicRMWOp(AtomicBinOp.ADD, p, v, AtomicOrdering.ACQ_REL, "device"),
        AtomicRMWOp(AtomicBinOp.XCHG, p, v, AtomicOrdering.RELEASE, "block"),
        AtomicRMWOp(AtomicBinOp.MAX, p, v, AtomicOrdering.ACQUIRE),
        AtomicRMWOp(AtomicBinOp.UMIN, p, v, AtomicOrdering.MONOTONIC, "device"),
    ]
    block.add_ops(ops)
    module = ModuleOp(Region(block))
    for op in ops:
        fence_atomicrmw(op)
    text = print_generic(module)
    lines = [ln.strip() for ln in text.splitlines() if '"llvm.' in ln]
    assert [ln.split('"')[1] for ln in lines] == [
        "llvm.fence",
        "llvm.atomicrmw",
        "llvm.fence",
        "llvm.fence",
        "llvm.atomicrmw",
        "llvm.atomicrmw",
        "llvm.fence",
        "llvm.atomicrmw",
    ]
    assert all("ordering = 2 : i64" in ln for ln in lines if "atomicrmw" in ln)
    assert 'ordering = 5 : i64, syncscope = "device"' in lines[0]  # release before
    assert 'ordering = 4 : i64, syncscope = "device"' in lines[2]  # acquire after
    assert 'ordering = 5 : i64, syncscope = "block"' in lines[3]
    assert lines[6] == '"llvm.fence"() <{ordering = 4 : i64}> : () -> ()'
