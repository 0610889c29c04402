"""The TMA store ops of ``upstream_tma_store``: what their constructors build verifies and
prints in upstream MLIR 22's syntax, which ``mlir-opt-22`` parses (both forms) and lowers with
``convert-nvvm-to-llvm`` and translation to the ``s2g`` intrinsics (skipped without an
``mlir-opt``)."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mytriton.backends.mlir.provider_config import find_mlir_opt
from mytriton.dialects import make_context
from mytriton.dialects.nvgpu.nvvm import SHARED_POINTER
from mytriton.dialects.nvgpu.tma import GENERIC_POINTER
from mytriton.dialects.nvgpu.tma_store import (
    CpAsyncBulkCommitGroupOp,
    CpAsyncBulkTensorSharedCTAToGlobalOp,
    CpAsyncBulkWaitGroupOp,
)


def tile_store_module(rank: int = 2) -> ModuleOp:
    inputs = [GENERIC_POINTER, SHARED_POINTER, *[i32] * rank]
    block = Block(arg_types=inputs)
    map_, src, *coords = block.args
    with ImplicitBuilder(block):
        CpAsyncBulkTensorSharedCTAToGlobalOp(map_, src, coords)
        CpAsyncBulkCommitGroupOp()
        CpAsyncBulkWaitGroupOp(0)
        CpAsyncBulkWaitGroupOp(1, read=False)
        func.ReturnOp()
    return ModuleOp([func.FuncOp("k", (inputs, []), Region(block))])


def _print(module: ModuleOp, generic: bool) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


def _lines(text: str) -> list[str]:
    return [re.sub(r"%\w+", "%v", x.strip()) for x in text.splitlines() if "nvvm." in x]


@pytest.mark.parametrize("rank", [1, 2, 5])
def test_constructed_ops_print_upstream_syntax(rank: int) -> None:
    module = tile_store_module(rank)
    module.verify()
    text = _print(module, generic=False)
    coords = ", ".join(["%v"] * rank)
    assert _lines(text) == [
        f"nvvm.cp.async.bulk.tensor.global.shared.cta %v, %v, box[{coords}] : !llvm.ptr, "
        "!llvm.ptr<3>",
        "nvvm.cp.async.bulk.commit.group",
        "nvvm.cp.async.bulk.wait_group 0 {read}",
        "nvvm.cp.async.bulk.wait_group 1",
    ], text
    again = Parser(make_context(), text).parse_module()
    again.verify()
    assert _print(again, generic=False) == text


def _mlir_opt(text: str, *flags: str) -> str:
    opt = find_mlir_opt(None)
    if opt is None:
        pytest.skip("no mlir-opt on PATH")
    done = subprocess.run(
        [opt, *flags, "-"], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_mlir_opt_parses_what_we_print(generic: bool) -> None:
    upstream = _mlir_opt(_print(tile_store_module(3), generic))
    assert len(_lines(upstream)) == 4, upstream
    assert "wait_group 0 {read}" in upstream


def test_mlir_opt_lowers_to_the_s2g_intrinsics() -> None:
    lowered = _mlir_opt(
        _print(tile_store_module(2), generic=True),
        "--convert-nvvm-to-llvm",
        "--convert-func-to-llvm",
    )
    opt = find_mlir_opt(None)
    assert opt is not None
    translate = shutil.which(opt.replace("mlir-opt", "mlir-translate"))
    if translate is None:
        pytest.skip("no mlir-translate beside mlir-opt")
    done = subprocess.run(
        [translate, "--mlir-to-llvmir", "-"],
        input=lowered,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    ir = done.stdout
    assert "llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d" in ir, ir
    assert "llvm.nvvm.cp.async.bulk.commit.group" in ir
    assert "llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)" in ir
    assert "llvm.nvvm.cp.async.bulk.wait.group(i32 1)" in ir


def test_verifiers_refuse_what_is_not_modelled() -> None:
    block = Block(arg_types=[GENERIC_POINTER, SHARED_POINTER, i32])
    g, s, c = block.args
    with pytest.raises(VerifyException, match=r"a box has 1 to 5 coordinates, not 0"):
        CpAsyncBulkTensorSharedCTAToGlobalOp(g, s, []).verify()
    with pytest.raises(VerifyException, match=r"the source must be an !llvm.ptr<3>"):
        CpAsyncBulkTensorSharedCTAToGlobalOp(g, g, [c]).verify()
    with pytest.raises(VerifyException, match=r"the tensor map must be a generic"):
        CpAsyncBulkTensorSharedCTAToGlobalOp(s, s, [c]).verify()
    with pytest.raises(VerifyException, match=r"0 to 63"):
        CpAsyncBulkWaitGroupOp(64).verify()
