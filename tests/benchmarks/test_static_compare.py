"""``benchmarks/static_compare.py``: its specs cover every ``patterns.py`` row and name each
kernel's parameters exactly (a spec that drifts from ``patterns_src`` would compile another
kernel, or fail), and its SASS statistics and flags read what they claim to. Compiling needs
Triton 3.6 and a CUDA toolkit, so the end-to-end run is the script's own (docs/benchmarks.md)."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SPECS: dict[str, dict[str, Any]] = json.loads((BENCHMARKS / "static_specs.json").read_text())
TYPES = re.compile(r"^(\*?(fp16|bf16|fp32|fp8e4nv|i32|i64)|tensordesc<fp16\[\d+, \d+\]>)$")


def _load(name: str) -> ModuleType:
    """A script of ``benchmarks/`` by path (the name ``benchmarks`` is taken by xDSL's)."""
    spec = importlib.util.spec_from_file_location(f"benchmarks_{name}", BENCHMARKS / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


sc = _load("static_compare")


def _parameters(module: str, kernel: str) -> list[str]:
    tree = ast.parse((BENCHMARKS / "patterns_src" / f"{module}.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == kernel:
            return [a.arg for a in node.args.args]
    raise AssertionError(f"no kernel {kernel} in patterns_src/{module}.py")


def test_every_patterns_row_has_specs() -> None:
    rows = set(_load("patterns_rows").ROWS)
    assert {s["row"] for s in SPECS.values()} == rows


@pytest.mark.parametrize("name", sorted(SPECS))
def test_spec_names_the_kernels_parameters(name: str) -> None:
    spec = SPECS[name]
    params = _parameters(spec["module"], spec["kernel"])
    assert sorted([*spec["signature"], *spec["constexprs"]]) == sorted(params)
    assert not set(spec["signature"]) & set(spec["constexprs"])
    bad = {k: t for k, t in spec["signature"].items() if not TYPES.match(t)}
    assert not bad, f"types Triton's signature does not take: {bad}"
    aligned = {k for k, t in spec["signature"].items() if t.startswith("*") or t[0] == "i"}
    assert set(spec.get("div16", [])) <= aligned
    if any(t.startswith("tensordesc") for t in spec["signature"].values()):
        descs = {k for k, t in spec["signature"].items() if t.startswith("tensordesc")}
        assert set(spec["desc_shapes"]) == descs
        assert set(spec["values"]) == set(spec["signature"]) - descs


SASS = """
        /*0080*/                   LDG.E R5, desc[UR18][R2.64] ;
        /*0680*/              @!P0 LDG.E.128 R24, desc[UR18][R34.64] ;
        /*0690*/                   LDG.E.U16 R4, desc[UR4][R2.64] ;
        /*06a0*/                   LDGSTS.E.BYPASS.LTC128B.128 [R1], desc[UR4][R2.64] ;
        /*06b0*/                   STG.E.64 desc[UR4][R2.64], R6 ;
        /*06c0*/                   MUFU.EX2 R0, R0 ;
        /*06d0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*06e0*/                   FCHK P0, R1, R2 ;
        /*10e0*/                   CALL.REL.NOINC 0x1230 ;
"""


def test_sass_stats_counts_families_by_width() -> None:
    ops, families = sc.sass_stats(SASS)
    assert ops == {"LDG": 3, "LDGSTS": 1, "STG": 1, "MUFU": 1, "BAR": 1, "FCHK": 1, "CALL": 1}
    assert families == {
        "LDG.32": 1,
        "LDG.128": 1,
        "LDG.16": 1,
        "LDGSTS.128": 1,
        "STG.64": 1,
        "MUFU.EX2": 1,
        "BAR.SYNC": 1,
    }


def _stats(**kw: Any) -> dict[str, Any]:
    base = {"regs": 32, "local": 0, "static_shared": 1024, "dyn_shared": 0, "n_sass": 100}
    return {**base, "ops": kw.pop("ops", {}), "fam": kw.pop("fam", {}), **kw}


def test_flags_name_what_is_worse() -> None:
    triton = _stats(ops={"LDG": 2, "LDGSTS": 4}, fam={"LDG.128": 2, "LDGSTS.128": 4})
    same = _stats(ops={"LDG": 2, "LDGSTS": 4}, fam={"LDG.128": 2, "LDGSTS.128": 4})
    assert sc.flags(triton, same) == []
    worse = _stats(
        regs=96,
        local=64,
        n_sass=200,
        ops={"LDG": 16, "FCHK": 3, "BAR": 4},
        fam={"LDG.16": 16},
    )
    assert sc.flags(triton, worse) == [
        "narrower LDG (2.0 B/insn vs 16.0)",
        "no cp.async",
        "slow-path divisions (FCHK 3 vs 0)",
        "spills (64 B local vs 0)",
        "more BAR (4 vs 0)",
        "regs 96 vs 32",
        "SASS x2.00",
    ]


def test_programs_per_sm_takes_the_tightest_limit() -> None:
    assert sc.programs_per_sm(_stats(regs=32), 8) == 8  # 64 warps
    assert sc.programs_per_sm(_stats(regs=34), 8) == 6  # 1280 registers a warp
    assert sc.programs_per_sm(_stats(regs=124, dyn_shared=148736), 4) == 1  # shared memory


def test_unknown_row_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        sc.main(["--rows", "no_such_row"])
    assert "unknown rows ['no_such_row']" in capsys.readouterr().err
