"""lit configuration: FileCheck tests of the `tt` dialect, mytriton's passes and mytriton-opt.

Run with ``lit -v lit_tests`` from the venv. RUN lines call ``mytriton-opt`` and ``filecheck``
from the same environment as the Python running lit, so an outdated tool elsewhere on PATH is
never picked up.
"""

# ruff: noqa: F821  (lit injects `config`)

import os
import sys

import lit.formats

config.name = "mytriton"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Output"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = config.test_source_root

bindir = os.path.dirname(sys.executable)
path = config.environment.get("PATH", os.environ.get("PATH", ""))
config.environment["PATH"] = bindir + os.pathsep + path
# The tools import the mytriton of this checkout (a worktree's too), not the one installed in the
# venv: lit passes no PYTHONPATH of its own, and the editable install's finder comes after it.
root = os.path.dirname(config.test_source_root)
config.environment["PYTHONPATH"] = os.pathsep.join(
    p for p in (root, os.environ.get("PYTHONPATH", "")) if p
)
# Passes read MYTRITON_PIPELINE; a value left in the caller's shell must not change results.
config.environment.pop("MYTRITON_PIPELINE", None)


def _tool_server(environment: dict[str, str]) -> str | None:
    """Start lit_tests/tool_server.py (one start-up of mytriton for the whole run: each RUN
    line's ``mytriton-opt`` or ``%python`` runs in a fork of it) and return its client command;
    None where it cannot run here (``MYTRITON_LIT_SERVER=0``, no fork or fd passing, or the
    server failed to start): then each RUN line starts its process."""
    import atexit
    import socket
    import subprocess

    if os.environ.get("MYTRITON_LIT_SERVER", "1") == "0":
        return None
    if not hasattr(os, "fork") or not hasattr(socket, "send_fds"):
        return None
    script = os.path.join(config.test_source_root, "tool_server.py")
    path = os.path.join(scratch, "tools.sock")
    server = subprocess.Popen(
        [sys.executable, script, "--serve", path],
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
    )
    owner = os.getpid()

    def stop() -> None:
        if os.getpid() == owner:  # not in lit's forked workers
            server.terminate()
            server.wait()

    atexit.register(stop)
    if server.stdout is None or server.stdout.readline().strip() != "ready":
        lit_config.warning("the lit tool server did not start: each RUN line starts its process")
        return None
    return f"{sys.executable} -I -S {script} {path}"


def _scratch() -> str:
    """A folder for this lit run (the compile cache, the server's socket), removed at exit."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="mytriton-lit-")
    owner = os.getpid()
    atexit.register(lambda: os.getpid() == owner and shutil.rmtree(folder, ignore_errors=True))
    return folder


scratch = _scratch()
# Kernel scripts compile through the on-disk cache: a fresh one each run, never ~/.cache
config.environment["MYTRITON_CACHE_DIR"] = os.path.join(scratch, "cache")

opt = os.path.join(bindir, "mytriton-opt")
if not os.path.exists(opt):  # package not installed as a console script: run the module
    opt = f"{sys.executable} -m mytriton.tools.opt"
server = _tool_server(dict(config.environment))
if server is not None:
    opt = f"{server} mytriton-opt"
config.substitutions.append(("mytriton-opt", opt))
# what lit.local.cfg files substitute for %python (a Python script, or -c code)
config.mytriton_python = sys.executable if server is None else f"{server} python"
