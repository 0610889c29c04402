"""A tensor map built in the kernel through the MLIR backend: ``ptx.tensormap.replace`` becomes
``llvm.inline_asm`` of the CUDA printer's PTX (``inline_tensormap``: ``l`` for the map and the
64-bit values, ``r`` for i32, the ordinal and immediates literals, side effects and a memory
clobber), the proxy fences keep upstream's names; the pipeline asks for PTX ISA 8.6 and the
kernel compiles to PTX with every instruction (skipped without a provider), which ptxas
accepts where one is found."""

from __future__ import annotations

import re

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Block

from mytriton.backends.mlir.emit import emit_mlir
from mytriton.backends.mlir.inline_tensormap import replace_asm
from mytriton.backends.mlir.pipeline import FP8_MMA_TEXT, mlir_to_ptx, ptx_features, ptx_to_cubin
from mytriton.dialects.nvgpu.ptx_tensormap import GLOBAL, TensormapReplaceOp
from tests.mlir.conftest import requires_provider
from tests.tensormap_samples import REPLACED, tensormap_module

_REPLACE = "tensormap.replace.tile"


def test_replace_asm_of_each_value_kind() -> None:
    block = Block(arg_types=[GLOBAL, GLOBAL, i32, i64])
    map_, src, dim, stride = block.args
    swizzle = arith.ConstantOp.from_int_and_width(3, 32)
    block.add_op(swizzle)
    cases = [
        (TensormapReplaceOp(map_, "global_address", src), "global_address.global.b1024.b64 "
         "[$0], $1;", "l,l,~{memory}", [map_, src]),
        (TensormapReplaceOp(map_, "rank", dim), "rank.global.b1024.b32 [$0], $1;",
         "l,r,~{memory}", [map_, dim]),
        (TensormapReplaceOp(map_, "box_dim", dim, 4), "box_dim.global.b1024.b32 [$0], 4, $1;",
         "l,r,~{memory}", [map_, dim]),
        (TensormapReplaceOp(map_, "global_stride", stride, 2), "global_stride.global.b1024.b64 "
         "[$0], 2, $1;", "l,l,~{memory}", [map_, stride]),
        (TensormapReplaceOp(map_, "swizzle_mode", swizzle.result), "swizzle_mode.global.b1024."
         "b32 [$0], 3;", "l,~{memory}", [map_]),
    ]  # fmt: skip
    for op, text, constraints, operands in cases:
        op.verify()
        assert replace_asm(op) == (f"{_REPLACE}.{text}", constraints, operands)


def _asm_lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if '"llvm.inline_asm"' in line]


def test_emitted_replace_is_inline_asm_and_fences_keep_upstream_names() -> None:
    text = emit_mlir(tensormap_module(), locations=False)
    assert "ptx.tensormap.replace" not in text
    lines = _asm_lines(text)
    assert len(lines) == len(REPLACED)
    for line, (field, _, value) in zip(lines, REPLACED, strict=True):
        assert f'asm_string = "{_REPLACE}.{field}.global.b1024.' in line, line
        assert "has_side_effects" in line and "~{memory}" in line, line
        assert line.startswith('"llvm.inline_asm"(%map') and line.endswith("-> ()"), line
        immediate = field in ("elemtype", "interleave_layout", "swizzle_mode", "fill_mode")
        assert (f", {value})" in line) != immediate, line
    assert lines[4] == (
        f'"llvm.inline_asm"(%map, %d0) <{{asm_string = "{_REPLACE}.global_dim.global.b1024.b32 '
        '[$0], 0, $1;", constraints = "l,r,~{memory}", has_side_effects, '
        "tail_call_kind = #llvm.tailcallkind<none>}> : (!llvm.ptr<1>, i32) -> ()"
    )
    assert '"nvvm.fence.proxy.release"() <{scope = #nvvm.mem_scope<gpu>}> : () -> ()' in text
    assert (
        '"nvvm.fence.proxy.acquire"(%g, %bytes) <{scope = #nvvm.mem_scope<gpu>}> : '
        "(!llvm.ptr, i32) -> ()"
    ) in text


def test_ptx_features() -> None:
    assert ptx_features("") is None
    text = emit_mlir(tensormap_module())
    assert ptx_features(text) == "+ptx86"
    fences_only = "\n".join(line for line in text.splitlines() if _REPLACE not in line)
    assert ptx_features(fences_only) == "+ptx86"
    assert ptx_features(text + FP8_MMA_TEXT) == "+ptx86"  # the higher of both
    assert ptx_features(FP8_MMA_TEXT) == "+ptx84"


@requires_provider
def test_tensormap_build_compiles_to_ptx() -> None:
    ptx = mlir_to_ptx(emit_mlir(tensormap_module()), kernel="k", chip="sm_90a")
    assert ".version 8.6" in ptx and ".target sm_90a" in ptx
    for field, ordinal, _ in REPLACED:
        at = "" if ordinal is None else f"{ordinal}, "
        found = re.search(rf"{_REPLACE}\.{field}\.global\.b1024\.b(32|64) \[%rd\d+\], {at}", ptx)
        assert found, (field, ptx)
    assert f"{_REPLACE}.global_dim.global.b1024.b32 [%rd1], 1, %r" in ptx
    assert f"{_REPLACE}.swizzle_mode.global.b1024.b32 [%rd1], 3;" in ptx
    assert "fence.proxy.tensormap::generic.release.gpu;" in ptx
    assert re.search(r"fence\.proxy\.tensormap::generic\.acquire\.gpu \[%rd\d+\], 128;", ptx)
    ptx_to_cubin(ptx, "sm_90a", "k")  # None without ptxas; raises if ptxas rejects it


@pytest.mark.parametrize("scope", ["cta", "sys"])
@requires_provider
def test_fence_scopes_compile(scope: str) -> None:
    ptx = mlir_to_ptx(emit_mlir(tensormap_module(scope)), kernel="k", chip="sm_90a")
    assert f"fence.proxy.tensormap::generic.release.{scope};" in ptx
    assert f"fence.proxy.tensormap::generic.acquire.{scope} [" in ptx
