"""The ``cp.async`` ops through the MLIR backend: emitted with upstream MLIR 22's names and
generic syntax (which upstream parses, and prints back the same: checked with ``mlir-opt``
where one is found), their verifiers agreeing with upstream's, and lowered by the project's
pipeline to the PTX ``cp.async``, ``cp.async.commit_group`` and ``cp.async.wait_group``
instructions (skipped without a provider), which ptxas accepts where one is found."""

from __future__ import annotations

import re
import subprocess

import pytest
from xdsl.dialects.builtin import i32, i64
from xdsl.ir import Attribute, Block
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from mytriton.backends.mlir.emit import emit_mlir, print_generic
from mytriton.backends.mlir.pipeline import mlir_to_ptx, ptx_to_cubin
from mytriton.backends.mlir.provider_config import find_mlir_opt
from mytriton.dialects import make_context
from mytriton.dialects.nvgpu.nvvm import (
    GLOBAL_POINTER,
    SHARED_POINTER,
    CpAsyncCommitGroupOp,
    CpAsyncOp,
    CpAsyncWaitGroupOp,
)
from tests.cp_async_samples import CASE_IDS, CASES, cp_async_module
from tests.mlir.conftest import requires_provider

COPY = re.compile(r'"nvvm\.cp\.async\.shared\.global"\(.*')


@pytest.mark.parametrize(("element", "size", "cg"), CASES, ids=CASE_IDS)
def test_emitted_cp_async_uses_upstream_names(element: str, size: int, cg: bool) -> None:
    text = emit_mlir(cp_async_module(element, size, cache_global=cg))
    copies = COPY.findall(text)
    assert len(copies) == 2, text
    for line in copies:
        for part in (
            f"modifier = #nvvm<load_cache_modifier {'cg' if cg else 'ca'}>",
            f"size = {size} : i32",
            ": (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()",
        ):
            assert part in line, (part, line)
    assert text.count('"nvvm.cp.async.commit.group"() : () -> ()') == 2
    assert re.findall(r'"nvvm\.cp\.async\.wait\.group"\(\) <\{n = (\d+) : i32\}>', text) == [
        "1",
        "0",
    ]


def test_emitted_cp_async_without_cp_size() -> None:
    text = emit_mlir(cp_async_module("f32", 8, masked=False))
    for line in COPY.findall(text):
        assert ": (!llvm.ptr<3>, !llvm.ptr<1>) -> ()" in line, line


def _ops_block() -> Block:
    block = Block(arg_types=[SHARED_POINTER, GLOBAL_POINTER, i32])
    dst, src, n = block.args
    for op in (
        CpAsyncOp(dst, src, 16, True, n),
        CpAsyncOp(dst, src, 4, False),
        CpAsyncCommitGroupOp(),
        CpAsyncWaitGroupOp(2),
    ):
        block.add_op(op)
    return block


def test_constructors_and_properties() -> None:
    copy, plain, _, wait = _ops_block().ops
    assert isinstance(copy, CpAsyncOp) and isinstance(plain, CpAsyncOp)
    assert isinstance(wait, CpAsyncWaitGroupOp)
    assert (copy.bytes, copy.cache_global, copy.cpSize is not None) == (16, True, True)
    assert (plain.bytes, plain.cache_global, plain.cpSize) == (4, False, None)
    assert wait.pending == 2
    for op in (copy, plain, wait):
        op.verify()


def test_emitted_text_round_trips_through_xdsl() -> None:
    """The emitted generic form parses (the opaque ``#nvvm<load_cache_modifier cg>`` too) and
    prints back identically."""
    text = emit_mlir(cp_async_module("f16", 16), locations=False)
    assert "modifier = #nvvm<load_cache_modifier cg>" in text
    module = Parser(make_context(), text).parse_module()
    module.verify()
    assert print_generic(module) == text


UPSTREAM_FORM = """\
llvm.func @f(%dst: !llvm.ptr<3>, %src: !llvm.ptr<1>, %n: i32) {
  nvvm.cp.async.shared.global %dst, %src, 16, cache = cg, %n : !llvm.ptr<3>, !llvm.ptr<1>, i32
  nvvm.cp.async.shared.global %dst, %src, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
  nvvm.cp.async.commit.group
  nvvm.cp.async.wait.group 1
  llvm.return
}
"""


def test_upstream_generic_form_parses_and_prints_back() -> None:
    """mlir-opt's generic print of upstream's custom form parses here and prints identically
    (the ops' generic lines, which is all the emitter prints)."""
    opt = find_mlir_opt(None)
    if opt is None:
        pytest.skip("no mlir-opt on PATH")
    done = subprocess.run(
        [opt, "--mlir-print-op-generic", "-"],
        input=UPSTREAM_FORM,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    upstream = [line.strip() for line in done.stdout.splitlines() if '"nvvm.cp.async' in line]
    assert len(upstream) == 4, done.stdout
    module = Parser(make_context(), done.stdout).parse_module()
    module.verify()
    ours = [line.strip() for line in print_generic(module).splitlines() if '"nvvm.cp.async' in line]

    def canonical(line: str) -> str:  # xDSL prints properties in definition order
        line = re.sub(r"%\w+", "%v", line)
        props = re.search(r"<\{(.*)\}>", line)
        if props is None:
            return line
        return line.replace(props[1], ", ".join(sorted(props[1].split(", "))))

    assert [canonical(x) for x in ours] == [canonical(x) for x in upstream]


def test_our_generic_form_is_accepted_by_mlir_opt() -> None:
    opt = find_mlir_opt(None)
    if opt is None:
        pytest.skip("no mlir-opt on PATH")
    text = emit_mlir(cp_async_module("f16", 16))
    done = subprocess.run([opt, "-"], input=text, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "nvvm.cp.async.shared.global %" in done.stdout
    assert "cache =  cg, %" in done.stdout  # upstream's own printer, two spaces and all
    assert "nvvm.cp.async.wait.group 1" in done.stdout


@pytest.mark.parametrize(
    ("size", "cg", "src_type", "message"),
    [
        (8, True, GLOBAL_POINTER, "cg is for 16-byte copies only"),
        (2, False, GLOBAL_POINTER, "size must be 4, 8 or 16"),
        (12, False, GLOBAL_POINTER, "size must be 4, 8 or 16"),
        (16, False, SHARED_POINTER, r"src must be an !llvm.ptr<1>"),
    ],
)
def test_copy_verifier(size: int, cg: bool, src_type: Attribute, message: str) -> None:
    dst = create_ssa_value(SHARED_POINTER)
    src = create_ssa_value(src_type)
    with pytest.raises(VerifyException, match=re.escape(message)):
        CpAsyncOp(dst, src, size, cg).verify()


def test_copy_verifier_checks_dst_and_cp_size() -> None:
    src = create_ssa_value(GLOBAL_POINTER)
    with pytest.raises(VerifyException, match=re.escape("dst must be an !llvm.ptr<3>")):
        CpAsyncOp(create_ssa_value(GLOBAL_POINTER), src, 16, False).verify()
    count = create_ssa_value(i64)
    with pytest.raises(VerifyException, match="cpSize must be an i32"):
        CpAsyncOp(create_ssa_value(SHARED_POINTER), src, 16, False, count).verify()


def test_wait_verifier() -> None:
    with pytest.raises(VerifyException, match="n must be a non-negative i32"):
        CpAsyncWaitGroupOp(-1).verify()


@requires_provider
@pytest.mark.parametrize(("element", "size", "cg"), CASES, ids=CASE_IDS)
def test_cp_async_compiles_to_ptx(element: str, size: int, cg: bool) -> None:
    """Upstream lowers the ops and the shared address chain: one copy per slot with its source
    size operand, a commit after each, the pipeline's waits."""
    module = cp_async_module(element, size, cache_global=cg)
    ptx = mlir_to_ptx(emit_mlir(module), kernel="cp_async", chip="sm_90")
    cache = "cg" if cg else "ca"
    address = r"\[%rd\d+(?:\+\d+)?\]"  # a register, plus an offset
    copies = re.findall(
        rf"cp\.async\.{cache}\.shared\.global {address}, {address}, {size}, %r\d+;", ptx
    )
    assert len(copies) == 2, ptx
    assert ptx.count("cp.async.commit_group;") == 2
    assert re.findall(r"cp\.async\.wait_group\s+(\d+);", ptx) == ["1", "0"]
    ptx_to_cubin(ptx, "sm_90", "cp_async")  # None without ptxas; raises if ptxas rejects it
