"""Every kernel of ``benchmarks/patterns.py`` (sources in ``benchmarks/patterns_src/``) gives
torch's results at a tiny shape on mytriton's interpreter and on gpusim (the lowered GPU IR),
loaded as the benchmark loads it (``compare.load_kernels``) and checked by the row's own check:
a wrong kernel, or a lowering that gets it wrong, shows here, not after GPU time is spent on
it. The GPU run checks each row again at its production size."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("ml_dtypes")

pytestmark = pytest.mark.execution

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "patterns.py"


def _load_patterns() -> ModuleType:
    """``patterns.py`` by path (the name ``benchmarks`` is taken by xDSL's package)."""
    spec = importlib.util.spec_from_file_location("benchmarks_patterns", SCRIPT)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks_patterns"] = mod
    spec.loader.exec_module(mod)
    return mod


P = _load_patterns()
_MODULES: dict[str, Any] = {}  # each source loaded once under mytriton


def _tiny_case(name: str, monkeypatch: pytest.MonkeyPatch, backend: str = "interpreter") -> Any:
    monkeypatch.delenv("MYTRITON_AS_TRITON", raising=False)
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    if backend == "interpreter":
        monkeypatch.setenv("MYTRITON_INTERPRET", "1")
    else:
        monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
        monkeypatch.setenv("MYTRITON_BACKEND", backend)
    row = P.ROWS[name]
    return row.build(P.make_env(P.INTERPRETER, row, True, "cpu", _MODULES))


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
@pytest.mark.parametrize("name", list(P.ROWS))
def test_pattern_matches_torch(name: str, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    case = _tiny_case(name, monkeypatch, backend)
    ref = case.reference()
    case.launch()
    case.check(ref)
    assert case.torch_fn is not None
    case.torch_fn()  # the torch column runs too


def test_a_wrong_result_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    case = _tiny_case("softmax", monkeypatch)
    ref = case.reference()
    case.launch()
    case.outputs()[0][0, 3] += 0.5
    with pytest.raises(AssertionError, match="max \\|error\\|"):
        case.check(ref)


def test_every_row_names_its_source_shape_and_dtype() -> None:
    sources = {p.name for p in (SCRIPT.parent / "patterns_src").glob("*.py")}
    for row in P.ROWS.values():
        assert row.source in sources and row.shape and row.dtype and row.torch_op, row.name
    assert [r.name for r in P.ROWS.values() if r.autotune] == ["matmul"]


def test_the_table_prints_ratios_and_their_geometric_mean() -> None:
    impls = ["triton", "mytriton-cuda", "torch"]
    results = {
        ("softmax", "triton"): {"ms": 2.0, "ok": True, "cold_s": 1.0},
        ("softmax", "mytriton-cuda"): {"ms": 1.0, "ok": True, "cold_s": 0.5},
        ("matmul", "triton"): {"ms": 1.0, "ok": True, "cold_s": 2.0, "autotune_s": 9.0},
        ("matmul", "mytriton-cuda"): {"ms": 2.0, "ok": True, "cold_s": 1.0},
        ("matmul", "torch"): {"ms": 0.9},
    }
    table = P.format_tables(["softmax", "matmul"], impls, results)
    assert " 2.00x" in table and " 0.50x" in table
    assert "geometric mean of the ratios: mytriton-cuda: 1.00x" in table
    assert "tune 9.0" in table and "tune -" in table


def test_help_runs_without_a_gpu() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert "--dry-run" in out.stdout and "paged_attention" in out.stdout


def test_saved_runs_merge_into_one_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A ``--no-cold`` run's times and a ``--cold-only`` run's seconds (``--from A,B``)."""
    head = {"device": "GPU", "date": "today", "rows": {}}
    times = [
        {"row": "softmax", "impl": i, "ok": True, "ms": ms}
        for i, ms in [("triton", 1.0), ("mytriton-cuda", 0.8)]
    ]
    colds = [
        {"row": "softmax", "impl": i, "cold_s": s}
        for i, s in [("triton", 1.0), ("mytriton-cuda", 2.0)]
    ]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({**head, "command": "--no-cold", "results": times}))
    b.write_text(json.dumps({**head, "command": "--cold-only", "results": colds}))
    assert P.print_saved([str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "$ --no-cold" in out and "$ --cold-only" in out
    assert " 1.25x" in out and "2.00 (0.50x)" in out
