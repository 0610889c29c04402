"""The house's size rules (docs/architecture.md): a module of mytriton holds at most
``MAX_MODULE_LINES`` lines and a function at most ``MAX_FUNCTION_LINES``, unless the function
says why at its top, in a comment line ``# long: <reason>`` right after its signature. Small
modules and short functions are what keeps an op's rules findable from its name; the reason
line makes an exception a decision someone wrote down, not a drift. Read with ``ast``: nothing
is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "mytriton"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
REASON = "# long:"


def _modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def _long_functions(path: Path, root: Path = ROOT) -> list[str]:
    """``path``'s functions over the limit without a reason line."""
    source = path.read_text()
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        assert node.end_lineno is not None
        length = node.end_lineno - node.lineno + 1
        if length <= MAX_FUNCTION_LINES:
            continue
        above = node.body[0].lineno - 2  # 0-based: the line above the first statement
        if not lines[above].strip().startswith(REASON):
            found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({length})")
    return found


def test_no_module_is_over_the_limit() -> None:
    over = [
        f"{p.relative_to(ROOT.parent)} ({n})"
        for p in _modules()
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert not over, f"modules over {MAX_MODULE_LINES} lines: {over}"


def test_no_function_is_over_the_limit_without_a_reason() -> None:
    over = [f for p in _modules() for f in _long_functions(p)]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines without `{REASON}`: {over}"


def test_the_rule_sees_a_long_function(tmp_path: Path) -> None:
    """The check itself: a long function fails unless its reason line is there."""
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    plain = tmp_path / "plain.py"
    plain.write_text(f"def f() -> None:\n{body}")
    reasoned = tmp_path / "reasoned.py"
    reasoned.write_text(f"def f() -> None:\n    # long: one table, read top to bottom\n{body}")
    assert len(_long_functions(plain, tmp_path)) == 1
    assert _long_functions(reasoned, tmp_path) == []
