"""The layers point down: a module imports, when it is loaded, only from its own layer or the
layers below it (``LAYERS``, lowest first), so no two packages import each other.

Imports inside functions run when the function does; they may reach up only where
``DEFERRED_UPWARD`` names them, each with the reason (a hook into a layer above, used only
when that layer is in use). The graph is read from the source with ``ast``: nothing is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "mytriton"

#: module prefixes per layer, lowest first; a module's layer is that of its longest prefix
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "ground",
        (
            "mytriton.errors",
            "mytriton.utils",
            "mytriton.op_rules",
            "mytriton.kernel_signature",
            "mytriton.exec_sources",
            "mytriton.knobs",
            "mytriton.version",
        ),
    ),
    ("dialects", ("mytriton.dialects",)),
    # the objects kernels name: dtypes, constexpr, the builtins' signatures
    ("language", ("mytriton.language",)),
    ("passes", ("mytriton.passes",)),
    ("backends", ("mytriton.backends", "mytriton.tools.tensor_descriptor")),
    # the frontend sits beside the passes and backends, never under them: they read the IR only
    ("frontend", ("mytriton.frontend",)),
    ("runtime", ("mytriton.runtime",)),
    ("testing", ("mytriton.testing",)),
    # tl functions written as @jit kernels, and the tl namespace that exports them
    (
        "stdlib",
        (
            "mytriton.language.standard",
            "mytriton.language.random",
            "mytriton.language.shapes_lib",
        ),
    ),
    # Triton's host API, and the modules under Triton's names that only re-export it
    (
        "compat",
        (
            "mytriton.compat",
            "mytriton.compiler",
            "mytriton.backends.compiler",
            "mytriton.backends.driver",
            "mytriton.runtime.cache",
            "mytriton.runtime.interpreter",
        ),
    ),
    ("top", ("mytriton.__init__", "mytriton.__main__", "mytriton.tools")),
]

#: (importing module, imported module) of deferred imports that reach a higher layer
DEFERRED_UPWARD: dict[tuple[str, str], str] = {
    ("mytriton.knobs", "mytriton.backends.__init__"): "a knob's default is the backend's",
    ("mytriton.knobs", "mytriton.runtime.disk_cache"): "a knob's default is the cache's folder",
    ("mytriton.language.__init__", "mytriton.frontend.values"): "tl.tensor is the frontend's value",
    ("mytriton.language.__init__", "mytriton.frontend.block_pointers"): "tl.tensor_descriptor",
    ("mytriton.language.core", "mytriton.frontend.values"): "tl.core.tensor, as tl.tensor",
    ("mytriton.frontend.reduce_builtins", "mytriton.language.standard"): "tl.sum's @jit helpers",
    ("mytriton.backends.__init__", "mytriton.compat.backends"): "Triton's triton.backends.backends",
    ("mytriton.backends.__init__", "mytriton.compat.target"): "Triton's BaseBackend, DriverBase",
    ("mytriton.runtime.autotuner", "mytriton.testing.__init__"): "configs are timed with do_bench",
    ("mytriton.runtime.compile_listener", "mytriton.compat.compiler"): (
        "knobs.compilation.listener is Triton's API: it is given Triton's ASTSource"
    ),
    ("mytriton.runtime.disk_cache", "mytriton.compat.cache_manager"): (
        "entries go through the CacheManager class TRITON_CACHE_MANAGER names"
    ),
    ("mytriton.compat.alias", "mytriton.__init__"): "the triton facade holds mytriton's names",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts)


def layer_of(module: str) -> int:
    best, layer = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, layer = len(prefix), index
    assert layer >= 0, f"{module} is in no layer: add it to LAYERS"
    return layer


def _resolve(module: str) -> str:
    """``module``, or ``module.__init__`` where it names a package."""
    folder = ROOT.parent / Path(*module.split("."))
    return f"{module}.__init__" if (folder / "__init__.py").is_file() else module


def _target(node: ast.ImportFrom | ast.Import, alias: ast.alias) -> str:
    if isinstance(node, ast.Import):
        return _resolve(alias.name)
    base = node.module or ""
    sub = ROOT.parent / Path(*base.split("."), alias.name)
    if sub.with_suffix(".py").is_file() or (sub / "__init__.py").is_file():
        return _resolve(f"{base}.{alias.name}")  # a submodule imported by name
    return _resolve(base)


def imports(tree: ast.Module) -> list[tuple[ast.ImportFrom | ast.Import, bool]]:
    """Every mytriton import of ``tree`` and whether it runs at load time."""
    found: list[tuple[ast.ImportFrom | ast.Import, bool]] = []

    def visit(node: ast.AST, at_load: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) in ("TYPE_CHECKING",):
                continue  # annotations only
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, at_load))
            deferred = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, at_load and not deferred)

    visit(tree, True)
    return found


def edges() -> list[tuple[str, str, bool, int]]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        source = module_name(path)
        for node, at_load in imports(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.level or not node.module):
                continue
            for alias in node.names:
                target = _target(node, alias)
                if target.split(".")[0] == "mytriton":
                    out.append((source, target, at_load, node.lineno))
    return out


def test_every_module_has_a_layer() -> None:
    for path in ROOT.rglob("*.py"):
        layer_of(module_name(path))


def test_load_time_imports_point_down() -> None:
    upward = [
        f"{src}:{line} ({LAYERS[layer_of(src)][0]}) imports {dst} ({LAYERS[layer_of(dst)][0]})"
        for src, dst, at_load, line in edges()
        if at_load and layer_of(dst) > layer_of(src)
    ]
    assert not upward, "\n".join(upward)


def test_deferred_imports_point_down_or_are_named() -> None:
    upward = [
        f"{src}:{line} imports {dst}"
        for src, dst, at_load, line in edges()
        if not at_load and layer_of(dst) > layer_of(src) and (src, dst) not in DEFERRED_UPWARD
    ]
    assert not upward, "\n".join(upward)


def test_named_exceptions_are_still_needed() -> None:
    used = {(src, dst) for src, dst, at_load, _ in edges() if not at_load}
    stale = [f"{src} -> {dst}" for src, dst in DEFERRED_UPWARD if (src, dst) not in used]
    assert not stale, "DEFERRED_UPWARD names imports that are gone:\n" + "\n".join(stale)
