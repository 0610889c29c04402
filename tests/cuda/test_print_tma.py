"""Hopper's TMA tile loads and mbarriers printed as inline PTX (``print_tma``): the instruction
and operand constraints of each op, the wait as a C loop (no PTX labels, so a kernel may wait
twice), the address-space casts as plain copies; and nvcc accepting the kernel for ``sm_90a``
(skipped without nvcc)."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntAttr

from mytriton.backends.cuda.print_tma import TRY_WAIT_ASM, bulk_tensor_asm_text
from mytriton.backends.cuda.printer import print_cuda, printable_ops
from mytriton.dialects.nvgpu.tma import LLVM_TMA_OPS, TMA_OPS, AddrSpaceCastOp
from mytriton.errors import BackendError
from tests.cuda.test_nvcc import assert_compiles
from tests.tma_samples import tma_module


def _source(**flags: object) -> str:
    return print_cuda(tma_module(**flags), line_directives="off")


def _lines(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines()]


def test_every_tma_op_has_a_printer() -> None:
    for op in (*TMA_OPS, *LLVM_TMA_OPS):
        assert op in printable_ops(), op


def test_bulk_tensor_text_of_each_rank() -> None:
    assert bulk_tensor_asm_text(1) == (
        "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
        "[%0], [%1, {%2}], [%3];"
    )
    assert bulk_tensor_asm_text(5).endswith("[%0], [%1, {%2, %3, %4, %5, %6}], [%7];")
    assert bulk_tensor_asm_text(3).startswith("cp.async.bulk.tensor.3d.")


def test_printed_statements() -> None:
    lines = _lines(_source())
    for expected in (
        'asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar_7), "r"(1) : "memory");',
        'asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");',
        'asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" :: "r"(bar_7), '
        '"r"(2048) : "memory");',
        "unsigned d7_9 = dst_4;",
        "long long* g_10 = map;",
        'asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::'
        'complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(d7_9), "l"(g_10), "r"(x0), '
        '"r"(x1), "r"(bar_7) : "memory");',
        "unsigned phase_done_11 = 0;",
        f'do {{ asm volatile("{TRY_WAIT_ASM}" : "=r"(phase_done_11) : "r"(bar_7), "r"(0), '
        '"n"(1000000u) : "memory"); } while (!phase_done_11);',
    ):
        assert expected in lines, (expected, "\n".join(lines))


def test_try_wait_is_a_loop_without_labels() -> None:
    source = _source(waits=2)
    assert source.count("mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;") == 2
    assert "LAB_WAIT" not in source and "bra" not in source
    assert "while (!phase_done_11);" in source and "while (!phase_done_12);" in source


def test_unsupported_cast_is_refused() -> None:
    module = tma_module()
    cast = next(op for op in module.walk() if isinstance(op, AddrSpaceCastOp))
    local = AddrSpaceCastOp(cast.arg, llvm.LLVMPointerType(IntAttr(5)))  # not modelled
    block = cast.parent_block()
    assert block is not None
    block.insert_op_before(local, cast)
    cast.res.replace_all_uses_with(local.res)
    with pytest.raises(BackendError, match=r"only !llvm.ptr<3> -> !llvm.ptr<7> and global"):
        print_cuda(module, line_directives="off")


@pytest.mark.parametrize("element", ["f16", "f32"])
def test_nvcc_compiles_tile_load(nvcc: str, tmp_path: Path, element: str) -> None:
    inner = 128 // (2 if element == "f16" else 4)
    source = print_cuda(tma_module(element, inner, waits=2))
    assert_compiles(nvcc, source, tmp_path / f"tma_{element}.cu")
