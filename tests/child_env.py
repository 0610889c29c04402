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
