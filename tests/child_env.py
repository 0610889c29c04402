"""The ``PYTHONPATH`` of a test's child interpreter: the checkout first, then the folders where
this process found mytriton's dependencies (xdsl and the packages it needs). On a machine
without an install (the GPU machine: wheels unpacked into one folder on ``PYTHONPATH``) a child
given only the checkout could not import mytriton; nothing else of the caller's path is passed,
so what a child can import (e.g. a real ``triton``) stays what the test decides."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_DEPENDENCIES = ("xdsl", "ml_dtypes", "immutabledict", "ordered_set")


def child_pythonpath(*first: str) -> str:
    """``first``, the checkout, and the folders holding mytriton's dependencies."""
    paths = [*first, str(ROOT)]
    for name in _DEPENDENCIES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        folder = str(Path(module.__file__ or "").resolve().parent.parent)
        if folder not in paths:
            paths.append(folder)
    return os.pathsep.join(p for p in paths if p)


def switch_hook_folder(tmp: Path) -> str | None:
    """A folder to put first on a child's ``PYTHONPATH`` so that ``MYTRITON_AS_TRITON=1`` acts
    there as the installed package's ``.pth`` hook makes it act (a ``sitecustomize`` running the
    hook's line), or None where the hook is installed already. A checkout on ``PYTHONPATH``
    (the GPU machine) has no hook, and a child would import the real ``triton``."""
    import site

    hook = ROOT / "mytriton" / "compat" / "mytriton-as-triton.pth"
    sites = [*site.getsitepackages(), site.getusersitepackages()]
    if any((Path(s) / hook.name).is_file() for s in sites):
        return None
    folder = tmp / "mytriton-switch-hook"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(hook.read_text())
    return str(folder)
