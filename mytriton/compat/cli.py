"""``python -m mytriton run script.py args...`` and ``python -m mytriton run -m module
args...``: the script (or module) runs as ``__main__`` with ``import triton`` giving mytriton,
as do the Python subprocesses it starts (``MYTRITON_AS_TRITON=1`` is set for them)."""

from __future__ import annotations

import runpy
import sys
from collections.abc import Sequence

from mytriton.compat.alias import install_as_triton

USAGE = (
    "usage: python -m mytriton run SCRIPT [ARGS...]\n"
    "       python -m mytriton run -m MODULE [ARGS...]\n"
    "runs a Python script or module with `import triton` giving mytriton"
)


def main(argv: Sequence[str]) -> int:
    """Run the command in ``argv``; the exit status (2: a usage error)."""
    args = list(argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if args else sys.stderr)
        return 0 if args else 2
    if args[0] != "run":
        print(f"unknown command {args[0]!r}\n{USAGE}", file=sys.stderr)
        return 2
    target = args[1:]
    as_module = bool(target) and target[0] == "-m"
    if as_module:
        target = target[1:]
    if not target:
        print(USAGE, file=sys.stderr)
        return 2
    install_as_triton()
    sys.argv = list(target)
    if as_module:
        runpy.run_module(target[0], run_name="__main__", alter_sys=True)
    else:
        sys.path.insert(0, _script_folder(target[0]))
        runpy.run_path(target[0], run_name="__main__")
    return 0


def _script_folder(script: str) -> str:
    """The script's folder, first on ``sys.path`` as ``python script.py`` puts it."""
    import os

    return os.path.dirname(os.path.abspath(script))
