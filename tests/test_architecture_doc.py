"""``docs/architecture.md`` is kept true by this test: its table of packages is the packages'
own docstrings, its table of layers is ``LAYERS`` of ``tests/test_import_graph.py``, its
diagram shows the pass pipelines ``@jit`` runs, and every file path the architecture and
"adding a ..." pages name exists.

* Packages: one row per package of ``mytriton/`` (every folder with an ``__init__.py``). Its
  "what it holds" cell is the first paragraph of the package's docstring (on one line, double
  backquotes made single); its "IR level" cell is written by hand, and must not be empty.
* Layers: one row per layer, lowest first, whose "modules" cell lists the layer's module
  prefixes; its last cell is written by hand.

``python tests/test_architecture_doc.py`` rewrites both tables from the code, keeping the
hand-written cells (a new package or layer gets an empty one, which the test then asks for).
Nothing is imported from ``mytriton``: docstrings are read with ``ast``.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":  # run as a script: ``tests`` is importable from the root
    sys.path.insert(0, str(ROOT))

from tests.test_import_graph import LAYERS  # noqa: E402

PACKAGE_ROOT = ROOT / "mytriton"
DOC = ROOT / "docs" / "architecture.md"
#: the pages whose file paths must exist
PAGES = [DOC, *sorted((ROOT / "docs").glob("adding-*.md"))]
#: paths the pages name before they exist (work in progress elsewhere), each with the reason
PLANNED: dict[str, str] = {}

PACKAGES_HEADER = ["package", "IR level", "what it holds (the package's docstring)"]
LAYERS_HEADER = ["floor", "layer", "modules", "what sits there"]


def begin(name: str) -> str:
    return f"<!-- generated: {name} (python tests/test_architecture_doc.py) -->"


def end(name: str) -> str:
    return f"<!-- end: {name} -->"


def packages() -> list[str]:
    """Every package of mytriton, as ``mytriton/x/y/``, sorted."""
    found = [p.parent for p in PACKAGE_ROOT.rglob("__init__.py")]
    return sorted(f"{p.relative_to(ROOT).as_posix()}/" for p in found)


def summary(package: str) -> str:
    """The first paragraph of ``package``'s docstring as one Markdown table cell."""
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text())) or ""
    paragraph = doc.strip().split("\n\n")[0]
    text = " ".join(line.strip() for line in paragraph.splitlines())
    return text.replace("``", "`").replace("|", "\\|")


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row (``\\|`` is a ``|`` inside a cell)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def row(values: list[str]) -> str:
    return "| " + " | ".join(values) + " |"


def table(text: str, name: str) -> list[list[str]]:
    """The body rows of the generated table ``name`` of ``text`` (header and rule left out)."""
    start, stop = text.index(begin(name)), text.index(end(name))
    lines = [ln for ln in text[start:stop].splitlines()[1:] if ln.startswith("|")]
    return [cells(ln) for ln in lines[2:]]


def package_rows(text: str) -> list[list[str]]:
    """The packages table as the code says it should be, keeping the doc's IR levels."""
    levels = {r[0]: r[1] for r in table(text, "packages") if len(r) == 3}
    return [[f"`{p}`", levels.get(f"`{p}`", ""), summary(p)] for p in packages()]


def layer_rows(text: str) -> list[list[str]]:
    """The layers table as ``LAYERS`` says it should be, keeping the doc's last cells."""
    notes = {r[1]: r[3] for r in table(text, "layers") if len(r) == 4}
    return [
        [str(i), f"`{name}`", ", ".join(f"`{p}`" for p in prefixes), notes.get(f"`{name}`", "")]
        for i, (name, prefixes) in enumerate(LAYERS, 1)
    ]


def render(header: list[str], rows: list[list[str]]) -> str:
    rule = ["---"] * len(header)
    return "\n".join(row(r) for r in [header, rule, *rows])


def regenerate(text: str) -> str:
    """``text`` with both generated tables rewritten from the code."""
    for name, header, rows in (
        ("packages", PACKAGES_HEADER, package_rows(text)),
        ("layers", LAYERS_HEADER, layer_rows(text)),
    ):
        start = text.index(begin(name)) + len(begin(name))
        text = text[:start] + "\n" + render(header, rows) + "\n" + text[text.index(end(name)) :]
    return text


HINT = "run `python tests/test_architecture_doc.py` to rewrite it from the code"


def test_every_package_has_a_docstring() -> None:
    assert [p for p in packages() if not summary(p)] == []


def test_the_packages_table_has_a_row_per_package() -> None:
    listed = [r[0] for r in table(DOC.read_text(), "packages")]
    assert listed == [f"`{p}`" for p in packages()], f"docs/architecture.md: {HINT}"


def test_each_package_row_is_its_docstring() -> None:
    text = DOC.read_text()
    wrong = {
        r[0]: (r[-1], summary(r[0].strip("`")))
        for r in table(text, "packages")
        if (ROOT / r[0].strip("`") / "__init__.py").is_file() and r[-1] != summary(r[0].strip("`"))
    }
    assert wrong == {}, f"(row, docstring) differ: {HINT}"


def test_each_package_row_names_its_ir_level() -> None:
    rows = table(DOC.read_text(), "packages")
    assert [r[0] for r in rows if len(r) != 3 or not r[1]] == []


def test_the_layers_table_is_layers() -> None:
    text = DOC.read_text()
    assert [r[:3] for r in table(text, "layers")] == [r[:3] for r in layer_rows(text)], HINT
    assert [r[1] for r in table(text, "layers") if not r[3]] == []


def test_the_tables_are_as_generated() -> None:
    text = DOC.read_text()
    assert regenerate(text) == text, HINT


#: the pipelines the diagram shows, by the module that defines each (read with ``ast``)
PIPELINES = {
    "DEFAULT_PIPELINE": "mytriton/passes/pipeline.py",
    "TTG_PIPELINE": "mytriton/passes/gpu_lowering/lower_to_gpu.py",
    "GPU_PIPELINE": "mytriton/passes/gpu_lowering/lower_to_gpu.py",
}


def pipeline_passes(name: str) -> list[str]:
    """The pass names of the pipeline string ``name``, in order (options left out)."""
    tree = ast.parse((ROOT / PIPELINES[name]).read_text())
    (spec,) = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]
    return [p.split("{")[0].strip() for p in spec.split(",")]


def test_the_diagram_shows_the_pipelines() -> None:
    """The diagram writes each pipeline as ``NAME: pass, pass, ...`` (lines may wrap)."""
    text = re.sub(r"\s+", " ", DOC.read_text().replace("│", " "))
    wrong = [
        f"{name}: {', '.join(pipeline_passes(name))}"
        for name in PIPELINES
        if f"{name}: {', '.join(pipeline_passes(name))}" not in text
    ]
    assert wrong == [], "docs/architecture.md's diagram should show these"


def exists(path: str) -> bool:
    """Whether ``path`` names a file or folder of the repository: a ``*`` must match one, and
    a ``<placeholder>`` needs only the folder before it."""
    if "<" in path:
        return (ROOT / path[: path.index("<")]).is_dir()
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path.rstrip("/")).exists()


def test_the_pages_name_files_that_exist() -> None:
    pattern = r"`((?:mytriton|tests|lit_tests|docs|benchmarks|examples)/[^`\s:]*)"
    missing = [
        f"{page.name}: {path}"
        for page in PAGES
        for path in re.findall(pattern, page.read_text())
        if path not in PLANNED and not exists(path)
    ]
    assert missing == []


def test_the_pages_exist() -> None:
    names = {p.name for p in PAGES}
    assert {"architecture.md", "adding-an-op.md", "adding-a-dtype.md"} <= names
    assert {"adding-a-pass.md", "adding-a-backend.md"} <= names


if __name__ == "__main__":
    DOC.write_text(regenerate(DOC.read_text()))
    print(f"rewrote the tables of {DOC.relative_to(ROOT)}")
