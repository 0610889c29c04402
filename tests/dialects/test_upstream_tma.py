"""The TMA ops of ``upstream_tma`` (mbarriers, the bulk tensor copy, ``llvm.addrspacecast``):
what their constructors build verifies and prints in upstream MLIR 22's syntax, which
``mlir-opt-22`` parses (both forms), prints back the same and lowers with
``convert-nvvm-to-llvm`` (skipped without an ``mlir-opt``); the verifiers refuse what the
printers and gpusim do not model."""

from __future__ import annotations

import io
import re
import subprocess

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import IntAttr, ModuleOp, i32
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mytriton.backends.mlir.provider_config import find_mlir_opt
from mytriton.dialects import make_context
from mytriton.dialects.nvgpu.nvvm import GLOBAL_POINTER, SHARED_POINTER
from mytriton.dialects.nvgpu.tma import (
    GENERIC_POINTER,
    SHARED_CLUSTER_POINTER,
    AddrSpaceCastOp,
    CpAsyncBulkTensorGlobalToSharedClusterOp,
    FenceMBarrierInitOp,
    MBarrierArriveExpectTxOp,
    MBarrierInitOp,
    MBarrierTryWaitParityOp,
)


def tile_load_module(rank: int = 2) -> ModuleOp:
    """``func.func @k(map, bar, dst, coordinates...)``: one tile load, built with the ops'
    constructors (as the lowering builds them)."""
    inputs = [GLOBAL_POINTER, SHARED_POINTER, SHARED_POINTER, *[i32] * rank, i32]
    block = Block(arg_types=inputs)
    map_, bar, dst, *coords = block.args
    phase = coords.pop()
    with ImplicitBuilder(block):
        count = arith.ConstantOp.from_int_and_width(1, 32).result
        MBarrierInitOp(bar, count)
        FenceMBarrierInitOp()
        tx = arith.ConstantOp.from_int_and_width(8192, 32).result
        MBarrierArriveExpectTxOp(bar, tx)
        d7 = AddrSpaceCastOp(dst, SHARED_CLUSTER_POINTER).res
        g = AddrSpaceCastOp(map_, GENERIC_POINTER).res
        CpAsyncBulkTensorGlobalToSharedClusterOp(d7, g, bar, coords)
        ticks = llvm.ConstantOp(llvm.IntegerAttr(10_000_000, i32), i32).result
        MBarrierTryWaitParityOp(bar, phase, ticks)
        func.ReturnOp()
    fn = func.FuncOp("k", (inputs, []), Region(block))
    return ModuleOp([fn])


def _print(module: ModuleOp, generic: bool) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


@pytest.mark.parametrize("rank", [1, 2, 5])
def test_constructed_ops_verify_and_print_upstream_syntax(rank: int) -> None:
    module = tile_load_module(rank)
    module.verify()
    text = _print(module, generic=False)
    coords = ", ".join(["%v"] * rank)
    expected = [
        "nvvm.mbarrier.init %v, %v : !llvm.ptr<3>, i32",
        "nvvm.fence.mbarrier.init",
        "nvvm.mbarrier.arrive.expect_tx %v, %v : !llvm.ptr<3>, i32",
        "%v = llvm.addrspacecast %v : !llvm.ptr<3> to !llvm.ptr<7>",
        "%v = llvm.addrspacecast %v : !llvm.ptr<1> to !llvm.ptr",
        f"nvvm.cp.async.bulk.tensor.shared.cluster.global %v, %v, %v, box[{coords}] : "
        "!llvm.ptr<7>, !llvm.ptr",
        "nvvm.mbarrier.try_wait.parity %v, %v, %v : !llvm.ptr<3>, i32, i32",
    ]
    assert _tma_lines(text) == expected, text
    again = Parser(make_context(), text).parse_module()
    again.verify()
    assert _print(again, generic=False) == text


def _tma_lines(text: str) -> list[str]:
    """The lines of the TMA ops, every SSA name ``%v``."""
    lines = [x.strip() for x in text.splitlines() if "nvvm." in x or "addrspacecast" in x]
    return [re.sub(r"%\w+", "%v", x) for x in lines]


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
def test_mlir_opt_parses_what_we_print_and_prints_it_back(generic: bool) -> None:
    module = tile_load_module(3)
    text = _print(module, generic)
    upstream = _mlir_opt(text)  # upstream's custom form
    ours = _print(Parser(make_context(), upstream).parse_module(), generic=False)

    assert len(_tma_lines(upstream)) == 7, upstream
    assert _tma_lines(ours) == _tma_lines(upstream)


def test_mlir_opt_lowers_the_ops() -> None:
    """``convert-nvvm-to-llvm`` turns the PTX-builder ops into inline asm (the wait into its
    loop, the ticks an ``"n"`` immediate); the rest become intrinsics at translation."""
    lowered = _mlir_opt(_print(tile_load_module(2), generic=True), "--convert-nvvm-to-llvm")
    assert "mbarrier.try_wait.parity" in lowered and '"r,r,n"' in lowered, lowered
    assert "mbarrier.arrive.expect_tx" in lowered, lowered
    assert "nvvm.cp.async.bulk.tensor.shared.cluster.global" in lowered, lowered


def test_addrspacecast_spaces() -> None:
    block = Block(arg_types=[SHARED_POINTER])
    op = AddrSpaceCastOp(block.args[0], llvm.LLVMPointerType(IntAttr(7)))
    assert op.spaces == (3, 7)
    assert AddrSpaceCastOp(block.args[0], GENERIC_POINTER).spaces == (3, 0)


def test_wrong_coordinate_count_and_types_fail() -> None:
    block = Block(arg_types=[SHARED_CLUSTER_POINTER, GENERIC_POINTER, SHARED_POINTER, i32])
    d7, g, bar, c = block.args
    with pytest.raises(VerifyException, match=r"a box has 1 to 5 coordinates, not 6"):
        CpAsyncBulkTensorGlobalToSharedClusterOp(d7, g, bar, [c] * 6).verify()
    with pytest.raises(VerifyException, match=r"a box has 1 to 5 coordinates, not 0"):
        CpAsyncBulkTensorGlobalToSharedClusterOp(d7, g, bar, []).verify()
    with pytest.raises(VerifyException, match=r"the destination must be an !llvm.ptr<7>"):
        CpAsyncBulkTensorGlobalToSharedClusterOp(bar, g, bar, [c]).verify()
    with pytest.raises(VerifyException, match=r"the tensor map must be a generic !llvm.ptr"):
        CpAsyncBulkTensorGlobalToSharedClusterOp(d7, bar, bar, [c]).verify()
    CpAsyncBulkTensorGlobalToSharedClusterOp(d7, g, bar, [c] * 5).verify()


def test_try_wait_ticks_must_be_constant() -> None:
    block = Block(arg_types=[SHARED_POINTER, i32])
    bar, x = block.args
    with pytest.raises(VerifyException, match=r"ticks must come from an arith.constant"):
        MBarrierTryWaitParityOp(bar, x, x).verify()
    ticks = arith.ConstantOp.from_int_and_width(100, 32)
    block.add_op(ticks)
    op = MBarrierTryWaitParityOp(bar, x, ticks.result)
    op.verify()
    assert op.suspend_hint == 100
