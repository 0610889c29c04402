"""Which MLIR providers the environment configures, without importing them.

The disk cache's key names the configured providers (``toolchain_identity.mlir_identity``) in
every process that reads a kernel from disk; the providers themselves (worker processes,
subprocesses) are imported only when a kernel is compiled.
"""

from __future__ import annotations

import os
import shutil

from mytriton.errors import BackendError

PROVIDER_ENV_VAR = "MYTRITON_MLIR_PROVIDER"
PYTHON_ENV_VAR = "MYTRITON_MLIR_PYTHON"
DEFAULT_PYTHON_PREFIX = "mlir"
OPT_ENV_VAR = "MYTRITON_MLIR_OPT"
OPT_NAMES = ("mlir-opt", "mlir-opt-22")


def configured_settings() -> list[tuple[str, str]]:
    """``(kind, setting)`` of each provider to try, in order: ``("python", package prefix)``
    and ``("mlir-opt", $MYTRITON_MLIR_OPT or "")``."""
    only = os.environ.get(PROVIDER_ENV_VAR, "").strip().lower()
    if only not in ("", "auto", "python", "mlir-opt"):
        raise BackendError(f"${PROVIDER_ENV_VAR} must be python, mlir-opt or auto, got {only!r}")
    out: list[tuple[str, str]] = []
    if only in ("", "auto", "python"):
        out.append(("python", os.environ.get(PYTHON_ENV_VAR, "").strip() or DEFAULT_PYTHON_PREFIX))
    if only in ("", "auto", "mlir-opt"):
        out.append(("mlir-opt", os.environ.get(OPT_ENV_VAR, "").strip()))
    return out


def find_mlir_opt(configured: str | None) -> str | None:
    """The ``mlir-opt`` executable: the configured one, else the first of ``OPT_NAMES`` on
    ``PATH`` (a configured name that is not executable gives None, never a fallback)."""
    if configured:
        return shutil.which(configured)
    for name in OPT_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None
