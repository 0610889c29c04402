"""The default `tt` pipeline, its MYTRITON_PIPELINE override, and verification between passes."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    FileLineColLoc,
    IntAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i32,
)
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from mytriton.dialects import make_context
from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import PointerType
from mytriton.errors import IRVerificationError, SourceLocation
from mytriton.passes import pipeline
from mytriton.passes.pipeline import (
    DEFAULT_PIPELINE,
    PIPELINE_ENV,
    PipelineSpecError,
    parse_pipeline,
    pipeline_spec,
    run_pipeline,
)
from mytriton.passes.registry import UnknownPassError, available_passes

LOOP_KERNEL = """
func.func @k(%x: !tt.ptr<f32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %z = arith.constant 0.0 : f32
  %acc0 = tt.splat %z : f32 -> tensor<16xf32>
  %res = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %acc0) -> (tensor<16xf32>) : i32 {
    %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
    %a = tt.splat %n : i32 -> tensor<16xi32>
    %b = tt.splat %n : i32 -> tensor<16xi32>
    %s = tt.add %a, %b : tensor<16xi32>
    %o = tt.add %r, %s : tensor<16xi32>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
    %p = tt.addptr %xs, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
    %v = tt.load %p : tensor<16x!tt.ptr<f32>>
    %t = tt.add %acc, %v : tensor<16xf32>
    scf.yield %t : tensor<16xf32>
  }
  func.return %res : tensor<16xf32>
}
"""


def _parse(text: str = LOOP_KERNEL) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def _loop_body(module: ModuleOp) -> list[str]:
    from xdsl.dialects import scf

    loop = next(op for op in module.walk() if isinstance(op, scf.ForOp))
    return [op.name for op in loop.body.block.ops]


# ---------------------------------------------------------------------------------------
# Spec selection
# ---------------------------------------------------------------------------------------


def test_default_pipeline_parses() -> None:
    names = [p.name for p in parse_pipeline(DEFAULT_PIPELINE).passes]
    assert names == ["tt-simplify", "licm", "tt-simplify"]


def test_pipeline_spec_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PIPELINE_ENV, raising=False)
    assert pipeline_spec() == DEFAULT_PIPELINE


def test_pipeline_spec_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PIPELINE_ENV, " cse,dce\n")
    assert pipeline_spec() == "cse,dce"


def test_pipeline_spec_empty_env_means_no_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "")
    assert pipeline_spec() == ""
    module = _parse()
    before = str(module)
    run_pipeline(module)
    assert str(module) == before


# ---------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------


def test_default_pipeline_optimizes_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PIPELINE_ENV, raising=False)
    module = _parse()
    run_pipeline(module)
    # splats merged and hoisted (add of two splats became a scalar add), load stays inside
    assert _loop_body(module) == ["tt.load", "tt.add", "scf.yield"]
    ir = str(module)
    assert "tt.add %n, %n : i32" in ir
    assert ir.count("tt.splat %n") == 0


def test_env_override_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "licm")
    module = _parse()
    run_pipeline(module)
    # licm alone hoists but neither merges the duplicate splats nor folds anything
    assert _loop_body(module) == ["tt.load", "tt.add", "scf.yield"]
    assert str(module).count("tt.splat %n") == 2


def test_explicit_spec_beats_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "licm")
    module = _parse()
    run_pipeline(module, "cse")
    assert "tt.make_range" in _loop_body(module)  # nothing hoisted: licm did not run
    assert str(module).count("tt.splat %n") == 1


def test_given_context_is_used() -> None:
    ctx = make_context()
    module = Parser(ctx, LOOP_KERNEL).parse_module()
    seen: list[Context] = []

    class Spy(ModulePass):
        name = "test-spy"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            seen.append(ctx)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pipeline, "available_passes", lambda: {"test-spy": lambda: Spy})
        run_pipeline(module, "test-spy", ctx=ctx)
    assert seen == [ctx]


# ---------------------------------------------------------------------------------------
# Errors in the spec
# ---------------------------------------------------------------------------------------


def test_unknown_pass_in_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "cse,frobnicate")
    with pytest.raises(UnknownPassError, match=r"unknown pass 'frobnicate'; known passes: .*cse"):
        run_pipeline(_parse())


def test_misspelled_pass_in_env_suggests_the_close_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PIPELINE_ENV, "cse,canonicalise")
    with pytest.raises(
        UnknownPassError, match=r"^unknown pass 'canonicalise' \(did you mean 'canonicalize'\?\);"
    ):
        run_pipeline(_parse())


def test_bad_spec_syntax() -> None:
    with pytest.raises(PipelineSpecError, match=r"invalid pass pipeline 'cse\{'"):
        run_pipeline(_parse(), "cse{")


def test_bad_pass_option() -> None:
    with pytest.raises(PipelineSpecError, match=r"\[\"bogus\"\] not found"):
        run_pipeline(_parse(), "tt-simplify{bogus=1}")


def test_pass_option_is_applied() -> None:
    (p,) = parse_pipeline("tt-simplify{max-iterations=3}").passes
    assert p.max_iterations == 3  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------
# Verification after every pass
# ---------------------------------------------------------------------------------------

KERNEL_PY = "kernel.py"


def _module_with_located_range() -> ModuleOp:
    """``func @k(%p) { %r = tt.make_range 0..16 (at kernel.py:7:5); %q = addptr ...}``."""
    block = Block(arg_types=[PointerType(i32)])
    with ImplicitBuilder(block) as (p,):
        r = tt.MakeRangeOp(0, 16)
        r.location = FileLineColLoc(StringAttr(KERNEL_PY), IntAttr(7), IntAttr(5))
        ps = tt.SplatOp(p, TensorType(PointerType(i32), [16]))
        q = tt.AddPtrOp(ps.result, r.result)
        tt.StoreOp(q.result, tt.LoadOp(q.result).result)
        func.ReturnOp()
    fn = func.FuncOp("k", ([PointerType(i32)], []), Region(block))
    module = ModuleOp([fn])
    module.verify()
    return module


@dataclass(frozen=True)
class BreakRangePass(ModulePass):
    """A buggy pass: makes every tt.make_range 12 elements long (not a power of two)."""

    name = "test-break-range"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for o in op.walk():
            if isinstance(o, tt.MakeRangeOp):
                o.properties["end"] = IntegerAttr(12, i32)


@pytest.fixture
def with_broken_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    passes = available_passes() | {"test-break-range": lambda: BreakRangePass}
    monkeypatch.setattr(pipeline, "available_passes", lambda: passes)


@pytest.mark.usefixtures("with_broken_pass")
def test_bad_rewrite_reports_source_line_and_pass() -> None:
    module = _module_with_located_range()
    with pytest.raises(IRVerificationError) as info:
        run_pipeline(module, "cse,test-break-range,canonicalize")
    err = info.value
    assert err.loc == SourceLocation(KERNEL_PY, 7, 5)
    assert "tt.make_range: range size end - start = 12 must be a power of two" in err.message
    assert "(in the IR produced by pass 'test-break-range')" in err.message
    assert str(err).startswith("kernel.py:7:5: error: tt.make_range: range size")


@pytest.mark.usefixtures("with_broken_pass")
def test_no_pass_runs_after_the_broken_one(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []

    class Recorder(ModulePass):
        name = "test-record"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            ran.append("record")

    passes = pipeline.available_passes() | {"test-record": lambda: Recorder}
    monkeypatch.setattr(pipeline, "available_passes", lambda: passes)
    with pytest.raises(IRVerificationError):
        run_pipeline(_module_with_located_range(), "test-record,test-break-range,test-record")
    assert ran == ["record"]


def test_invalid_input_is_reported_before_any_pass() -> None:
    module = _module_with_located_range()
    rng = next(o for o in module.walk() if isinstance(o, tt.MakeRangeOp))
    rng.properties["start"] = IntegerAttr(-1, i32)
    with pytest.raises(IRVerificationError) as info:
        run_pipeline(module, "cse")
    assert info.value.loc == SourceLocation(KERNEL_PY, 7, 5)
    assert info.value.message == "tt.make_range: start must be non-negative, got -1"


def test_module_verified_before_and_after_every_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = pipeline.verify_module

    def counting(module: ModuleOp) -> None:
        calls.append(1)
        real(module)

    monkeypatch.setattr(pipeline, "verify_module", counting)
    run_pipeline(_parse(), "cse,dce,licm,canonicalize")
    assert len(calls) == 5


def test_compiler_pipelines_verify_input_and_result_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    real = pipeline.verify_module

    def counting(module: ModuleOp) -> None:
        calls.append(1)
        real(module)

    monkeypatch.setattr(pipeline, "verify_module", counting)
    run_pipeline(_parse(), "cse,dce,licm,canonicalize", each_pass=False)
    assert len(calls) == 2


@pytest.mark.usefixtures("with_broken_pass")
def test_compiler_pipelines_name_the_broken_pass_on_replay() -> None:
    # the result fails verification: the pipeline is run again pass by pass on a copy of its
    # input, which reports the error as the per-pass run does
    module = _module_with_located_range()
    with pytest.raises(IRVerificationError) as info:
        run_pipeline(module, "cse,test-break-range,canonicalize", each_pass=False)
    assert info.value.loc == SourceLocation(KERNEL_PY, 7, 5)
    assert "(in the IR produced by pass 'test-break-range')" in info.value.message


def test_a_verified_input_is_not_verified_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # a stage's input that the stage before verified: only the passes' results are verified
    calls: list[int] = []
    real = pipeline.verify_module

    def counting(module: ModuleOp) -> None:
        calls.append(1)
        real(module)

    monkeypatch.setattr(pipeline, "verify_module", counting)
    run_pipeline(_parse(), "cse,dce", each_pass=False, verified=True)
    assert len(calls) == 1
    calls.clear()
    run_pipeline(_parse(), "cse,dce", verified=True)  # after each pass
    assert len(calls) == 2


@pytest.mark.usefixtures("with_broken_pass")
def test_the_replay_runs_on_a_copy_of_the_original() -> None:
    # the caller's unchanged copy of the input spares a copy per run; the replay copies it
    original = _module_with_located_range()
    before = str(original)
    with pytest.raises(IRVerificationError, match="test-break-range"):
        module = original.clone()
        run_pipeline(module, "cse,test-break-range", each_pass=False, original=original)
    assert str(original) == before


def test_compiler_pipelines_replay_a_failing_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    # a pass that crashes on the IR an earlier one broke: the replay reports the broken IR
    runs: list[str] = []

    @dataclass(frozen=True)
    class Crash(ModulePass):
        name = "test-crash"

        def apply(self, ctx: Context, op: ModuleOp) -> None:
            runs.append("crash")
            raise KeyError("no registers")

    passes = available_passes() | {
        "test-break-range": lambda: BreakRangePass,
        "test-crash": lambda: Crash,
    }
    monkeypatch.setattr(pipeline, "available_passes", lambda: passes)
    with pytest.raises(IRVerificationError, match="test-break-range"):
        run_pipeline(_module_with_located_range(), "test-break-range,test-crash", each_pass=False)
    assert runs == ["crash"]  # the replay stopped before it
    with pytest.raises(KeyError):  # not caused by broken IR: the pass's own error
        run_pipeline(_module_with_located_range(), "test-crash", each_pass=False)


def test_rewrites_keep_source_locations() -> None:
    # splat hoisting replaces the block multiply by a scalar one plus a splat: both must still
    # point at the kernel line, or later errors would lose their position
    module = _parse(
        """
        func.func @f(%a: i32, %b: i32) -> tensor<16xi32> {
          %sa = tt.splat %a : i32 -> tensor<16xi32> loc("kernel.py":3:9)
          %sb = tt.splat %b : i32 -> tensor<16xi32> loc("kernel.py":4:9)
          %m = tt.mul %sa, %sb : tensor<16xi32> loc("kernel.py":5:13)
          func.return %m : tensor<16xi32>
        }
        """
    )
    run_pipeline(module)
    body = list(next(o for o in module.walk() if isinstance(o, func.FuncOp)).body.block.ops)
    assert [o.name for o in body] == ["tt.mul", "tt.splat", "func.return"]
    for op in body[:2]:
        assert isinstance(op.location, FileLineColLoc)
        assert (op.location.line.data, op.location.column.data) == (5, 13)


def test_constant_folding_result() -> None:
    module = _parse(
        """
        func.func @f() -> i32 {
          %a = arith.constant 2147483647 : i32
          %b = arith.constant 1 : i32
          %c = tt.add %a, %b : i32
          func.return %c : i32
        }
        """
    )
    run_pipeline(module)
    consts = [o for o in module.walk() if isinstance(o, arith.ConstantOp)]
    assert [c.value for c in consts] == [IntegerAttr(-(2**31), i32)]
