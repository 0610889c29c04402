"""Hopper's TMA tile stores printed as inline PTX (``print_tma``): the instruction and operand
constraints of each op, ``.read`` only on a read wait; and nvcc accepting the kernel for
``sm_90a`` (skipped without nvcc)."""

from __future__ import annotations

from pathlib import Path

from mytriton.backends.cuda.print_tma import bulk_store_asm_text
from mytriton.backends.cuda.printer import print_cuda, printable_ops
from mytriton.dialects.nvgpu.tma_store import TMA_STORE_OPS
from tests.cuda.test_nvcc import assert_compiles
from tests.tma_store_samples import tma_store_module


def _lines(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines()]


def test_every_tma_store_op_has_a_printer() -> None:
    for op in TMA_STORE_OPS:
        assert op in printable_ops(), op


def test_bulk_store_text_of_each_rank() -> None:
    assert bulk_store_asm_text(1) == (
        "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [%0, {%2}], [%1];"
    )
    assert bulk_store_asm_text(5).endswith("[%0, {%2, %3, %4, %5, %6}], [%1];")


def test_printed_statements() -> None:
    source = print_cuda(tma_store_module(), line_directives="off")
    lines = _lines(source)
    store = next(line for line in lines if "cp.async.bulk.tensor.2d" in line)
    assert store.startswith(
        'asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group '
        '[%0, {%2, %3}], [%1];" :: "l"('
    )
    assert store.endswith('"r"(x0), "r"(x1) : "memory");')
    assert 'asm volatile("cp.async.bulk.commit_group;" ::: "memory");' in lines
    assert 'asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");' in lines
    full = _lines(print_cuda(tma_store_module(read=False), line_directives="off"))
    assert 'asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");' in full


def test_nvcc_compiles_the_store(nvcc: str, tmp_path: Path) -> None:
    assert_compiles(nvcc, print_cuda(tma_store_module()), tmp_path / "tma_store.cu")
