"""Building and loading the native fast path (``native/fast_launch.c``) with the machine's C
compiler: once per source, Python version and platform, kept in the cache directory (built
to a temporary name and renamed, so that concurrent processes never load half a file).

Where it cannot be built (no compiler, no ``Python.h``), or ``MYTRITON_NATIVE_LAUNCH=0`` when
a plan's fast path is made, ``load()`` returns None and ``status()`` says why; launches then
take the generated Python fast path, which checks the same guards.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path
from types import ModuleType

SOURCE = Path(__file__).resolve().parent / "native" / "fast_launch.c"
MODULE = "mytriton_fast_launch"

_module: ModuleType | None = None
_reason = "not built yet"
_tried = False
_lock = threading.Lock()


def status() -> str:
    """Whether the native fast path is in use, or why not."""
    from mytriton.knobs import env_flag

    if "MYTRITON_NATIVE_LAUNCH" in os.environ and not env_flag("MYTRITON_NATIVE_LAUNCH"):
        return "turned off (MYTRITON_NATIVE_LAUNCH=0)"
    return "in use" if _module is not None else _reason


def load() -> ModuleType | None:
    """The native module (built on first use), or None where it cannot be built."""
    global _module, _reason, _tried
    from mytriton.knobs import env_flag

    if "MYTRITON_NATIVE_LAUNCH" in os.environ and not env_flag("MYTRITON_NATIVE_LAUNCH"):
        return None  # read on every plan: a switch for comparing the two fast paths
    if _tried:
        return _module
    # one build: a thread making its first plan while another builds (say, each launching on
    # its own GPU) waits for the module instead of settling for the Python fast path
    with _lock:
        if not _tried:
            try:
                path = _built()
                spec = importlib.util.spec_from_file_location(MODULE, path)
                assert spec is not None and spec.loader is not None
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                _module = module
            except (OSError, ImportError, subprocess.SubprocessError, _BuildError) as e:
                _reason = f"cannot be built here: {e}"
            _tried = True
    return _module


class _BuildError(Exception):
    pass


def _built() -> Path:
    from mytriton.runtime.disk_cache import cache_dir

    source = SOURCE.read_bytes()
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    key = hashlib.sha256(source + sys.version.encode() + suffix.encode()).hexdigest()[:20]
    folder = cache_dir() / "native"
    path = folder / f"{MODULE}-{key}{suffix}"
    if path.exists():
        return path
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise _BuildError("no C compiler (cc, gcc or $CC)")
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        raise _BuildError(f"Python.h is not in {include} (install the Python development headers)")
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=suffix)
    os.close(fd)
    try:
        cmd = [compiler, "-O2", "-shared", "-fPIC", f"-I{include}", str(SOURCE), "-o", tmp]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise _BuildError(f"{' '.join(cmd)} failed: {done.stderr.strip()[-2000:]}")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path
