"""Who runs upstream MLIR for us, tried in this order, each configurable:

1. ``python``: upstream MLIR Python bindings in a worker process (``bindings.py``), package
   prefix ``$MYTRITON_MLIR_PYTHON`` (default ``mlir``);
2. ``mlir-opt``: the executable ``$MYTRITON_MLIR_OPT``, else ``mlir-opt`` or ``mlir-opt-22`` on
   ``PATH`` (``mlir_opt.py``).

``$MYTRITON_MLIR_PROVIDER`` (``python`` or ``mlir-opt``; ``auto`` is the default) restricts the
choice to one of them.
"""

from __future__ import annotations

import atexit
import os

from mytriton.backends.mlir.bindings import DEFAULT_PYTHON_PREFIX, PYTHON_ENV_VAR, BindingsProvider
from mytriton.backends.mlir.mlir_opt import OPT_ENV_VAR, MlirOptProvider
from mytriton.backends.mlir.provider import Provider, RunResult
from mytriton.errors import BackendError

PROVIDER_ENV_VAR = "MYTRITON_MLIR_PROVIDER"

__all__ = [
    "OPT_ENV_VAR",
    "PROVIDER_ENV_VAR",
    "PYTHON_ENV_VAR",
    "BindingsProvider",
    "MlirOptProvider",
    "Provider",
    "RunResult",
    "configured_providers",
    "select_provider",
]


_PROVIDERS: dict[tuple[str, str], Provider] = {}


def _provider(kind: str, setting: str) -> Provider:
    """One instance per configuration, so a worker outlives one compile."""
    key = (kind, setting)
    if key not in _PROVIDERS:
        _PROVIDERS[key] = (
            BindingsProvider(setting) if kind == "python" else MlirOptProvider(setting or None)
        )
    return _PROVIDERS[key]


def configured_providers() -> list[Provider]:
    """The providers to try, in order, as the environment configures them now."""
    only = os.environ.get(PROVIDER_ENV_VAR, "").strip().lower()
    if only not in ("", "auto", "python", "mlir-opt"):
        raise BackendError(f"${PROVIDER_ENV_VAR} must be python, mlir-opt or auto, got {only!r}")
    out: list[Provider] = []
    if only in ("", "auto", "python"):
        prefix = os.environ.get(PYTHON_ENV_VAR, "").strip() or DEFAULT_PYTHON_PREFIX
        out.append(_provider("python", prefix))
    if only in ("", "auto", "mlir-opt"):
        out.append(_provider("mlir-opt", os.environ.get(OPT_ENV_VAR, "").strip()))
    return out


def select_provider() -> tuple[Provider | None, list[Provider]]:
    """The first usable provider (or ``None``) and every one considered."""
    considered = configured_providers()
    for provider in considered:
        if provider.unavailable_reason() is None:
            return provider, considered
    return None, considered


@atexit.register
def _close_workers() -> None:
    for provider in _PROVIDERS.values():
        if isinstance(provider, BindingsProvider):
            provider.close()
