"""``tt-simplify``: canonicalize + CSE to a fixpoint."""

from __future__ import annotations

import pytest
from xdsl.parser import Parser
from xdsl.passes import PassPipeline

from mytriton.dialects import make_context
from mytriton.passes.registry import available_passes
from mytriton.passes.tt import simplify
from mytriton.passes.tt.simplify import SimplifyPass

# Needs canonicalize, cse, canonicalize, cse, canonicalize (see lit_tests/passes/tt-simplify.mlir)
ALTERNATING = """
func.func @f(%a: tensor<16xf32>, %b: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %r = tt.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32>
  %n1 = tt.splat %n : i32 -> tensor<16xi32>
  %n2 = tt.splat %n : i32 -> tensor<16xi32>
  %m1 = tt.cmp lt, %r, %n1 : tensor<16xi32>
  %m2 = tt.cmp lt, %r, %n2 : tensor<16xi32>
  %both = tt.and %m1, %m2 : tensor<16xi1>
  %u = tt.select %m1, %a, %b : tensor<16xf32>
  %w = tt.select %both, %a, %b : tensor<16xf32>
  %mx = tt.maximum %u, %w : tensor<16xf32>
  func.return %mx : tensor<16xf32>
}
"""


def _run(spec: str) -> str:
    ctx = make_context()
    module = Parser(ctx, ALTERNATING).parse_module()
    PassPipeline.parse_spec(available_passes(), spec).apply(ctx, module)
    module.verify()
    return str(module)


def _ops(ir: str) -> list[str]:
    return [line.split("=")[1].split()[0] for line in ir.splitlines() if " = tt." in line]


def test_reaches_fixpoint() -> None:
    assert _ops(_run("tt-simplify")) == ["tt.make_range", "tt.splat", "tt.cmp", "tt.select"]


def test_fixed_pipeline_stops_short() -> None:
    assert "tt.maximum" in _ops(_run("canonicalize,cse,canonicalize,cse"))


def test_is_idempotent() -> None:
    once = _run("tt-simplify")
    assert _run("tt-simplify,tt-simplify") == once


def test_max_iterations_bounds_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    rounds: list[bool] = []
    real = simplify.eliminate_common_subexpressions

    def counting(module):  # type: ignore[no-untyped-def]
        changed = real(module)
        rounds.append(changed)
        return changed

    monkeypatch.setattr(simplify, "eliminate_common_subexpressions", counting)
    _run("tt-simplify{max-iterations=1}")
    assert rounds == [True]
    rounds.clear()
    _run("tt-simplify")
    assert rounds[-1] is False  # stopped because CSE found nothing more
    assert len(rounds) == 3


def test_spec_round_trip() -> None:
    spec = str(SimplifyPass(max_iterations=3).pipeline_pass_spec())
    assert spec == "tt-simplify{max_iterations=3}"
    (again,) = PassPipeline.parse_spec(available_passes(), spec).passes
    assert again == SimplifyPass(max_iterations=3)
    assert SimplifyPass().max_iterations == 10
