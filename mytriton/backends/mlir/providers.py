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

from mytriton.backends.mlir.bindings import BindingsProvider
from mytriton.backends.mlir.mlir_opt import MlirOptProvider
from mytriton.backends.mlir.provider import Provider, RunResult
from mytriton.backends.mlir.provider_config import (
    OPT_ENV_VAR,
    PROVIDER_ENV_VAR,
    PYTHON_ENV_VAR,
    configured_settings,
)

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
    return [_provider(kind, setting) for kind, setting in configured_settings()]


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
