"""Fixtures that make the example plugin discoverable without installing it.

A distribution is found by ``importlib.metadata`` through a ``<name>-<version>.dist-info``
directory on ``sys.path``; we write one (with ``entry_points.txt`` generated from this
directory's ``pyproject.toml``) next to a copy of the package in a temporary directory, so
entry-point discovery runs for real, offline, and without touching the venv.
"""

from __future__ import annotations

import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

PLUGIN_SRC = Path(__file__).parent
PACKAGE = "mytriton_example_plugin"


def write_distribution(
    root: Path, name: str, version: str, entry_points: dict[str, dict[str, str]]
) -> Path:
    """Write ``<root>/<name>-<version>.dist-info`` declaring ``entry_points``."""
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = []
    for group, eps in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{ep} = {target}" for ep, target in eps.items()]
        lines.append("")
    (info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    return info


@pytest.fixture
def example_plugin_dir(tmp_path: Path) -> Path:
    """A directory that, on ``sys.path``/``PYTHONPATH``, installs the example plugin."""
    project = tomllib.loads((PLUGIN_SRC / "pyproject.toml").read_text(encoding="utf-8"))
    meta = project["project"]
    shutil.copytree(PLUGIN_SRC / PACKAGE, tmp_path / PACKAGE)
    write_distribution(tmp_path, meta["name"], meta["version"], meta["entry-points"])
    return tmp_path


def _forget_modules(prefix: str) -> None:
    for mod in [m for m in sys.modules if m == prefix or m.startswith(prefix + ".")]:
        del sys.modules[mod]


@pytest.fixture
def example_plugin(example_plugin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The example plugin, visible to this process for the duration of one test."""
    monkeypatch.syspath_prepend(str(example_plugin_dir))
    yield example_plugin_dir
    _forget_modules(PACKAGE)
