"""A tensor map built in the kernel, printed as inline PTX (``print_tensormap``): every field
kind of ``ptx.tensormap.replace`` (a register value ``r`` or ``l``, the ordinal and the
immediate fields' values literals in the instruction) and both proxy fences; and nvcc accepting
the kernel for ``sm_90a`` (skipped without nvcc)."""

from __future__ import annotations

from pathlib import Path

from mytriton.backends.cuda.printer import print_cuda, printable_ops
from mytriton.dialects.nvgpu.ptx_tensormap import TENSORMAP_OPS
from mytriton.dialects.nvgpu.tensormap import TENSORMAP_FENCE_OPS
from tests.cuda.test_nvcc import assert_compiles
from tests.tensormap_samples import tensormap_module

_REPLACE = "tensormap.replace.tile"


def _lines() -> list[str]:
    source = print_cuda(tensormap_module(), line_directives="off")
    return [line.strip() for line in source.splitlines()]


def test_every_tensormap_op_has_a_printer() -> None:
    for op in (*TENSORMAP_OPS, *TENSORMAP_FENCE_OPS):
        assert op in printable_ops(), op


def _asm(text: str, operands: str) -> str:
    return f'asm volatile("{text}" :: {operands} : "memory");'


def test_printed_statements() -> None:
    lines = _lines()
    expected = [
        _asm(f"{_REPLACE}.global_address.global.b1024.b64 [%0], %1;", '"l"(map), "l"(src)'),
        _asm(f"{_REPLACE}.rank.global.b1024.b32 [%0], %1;", '"l"(map), "r"(1)'),
        _asm(f"{_REPLACE}.box_dim.global.b1024.b32 [%0], 0, %1;", '"l"(map), "r"(64)'),
        _asm(f"{_REPLACE}.box_dim.global.b1024.b32 [%0], 1, %1;", '"l"(map), "r"(16)'),
        _asm(f"{_REPLACE}.global_dim.global.b1024.b32 [%0], 0, %1;", '"l"(map), "r"(d0)'),
        _asm(f"{_REPLACE}.global_dim.global.b1024.b32 [%0], 1, %1;", '"l"(map), "r"(d1)'),
        _asm(f"{_REPLACE}.global_stride.global.b1024.b64 [%0], 0, %1;", '"l"(map), "l"(stride1)'),
        _asm(f"{_REPLACE}.element_stride.global.b1024.b32 [%0], 0, %1;", '"l"(map), "r"(1)'),
        _asm(f"{_REPLACE}.element_stride.global.b1024.b32 [%0], 1, %1;", '"l"(map), "r"(1)'),
        _asm(f"{_REPLACE}.elemtype.global.b1024.b32 [%0], 1;", '"l"(map)'),
        _asm(f"{_REPLACE}.interleave_layout.global.b1024.b32 [%0], 0;", '"l"(map)'),
        _asm(f"{_REPLACE}.swizzle_mode.global.b1024.b32 [%0], 3;", '"l"(map)'),
        _asm(f"{_REPLACE}.fill_mode.global.b1024.b32 [%0], 0;", '"l"(map)'),
        'asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");',
    ]
    first = lines.index(expected[0])
    assert lines[first : first + len(expected)] == expected, "\n".join(lines)
    acquire = _asm("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;", '"l"(g_3)')
    after = lines.index("__syncthreads();")
    assert lines[after + 1 : after + 3] == ["long long* g_3 = map;", acquire]


def test_fence_scope_is_printed() -> None:
    source = print_cuda(tensormap_module(scope="cta"), line_directives="off")
    assert "fence.proxy.tensormap::generic.release.cta;" in source
    assert "fence.proxy.tensormap::generic.acquire.cta [%0], 128;" in source


def test_nvcc_compiles_tensormap_build(nvcc: str, tmp_path: Path) -> None:
    assert_compiles(nvcc, print_cuda(tensormap_module()), tmp_path / "tensormap.cu")
