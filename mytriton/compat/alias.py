"""``import triton`` gives mytriton: a meta-path finder that makes every ``triton.X`` the very
module object ``mytriton.X``.

Identity matters (``isinstance`` checks, ``tl.constexpr``, dtype objects compared with ``is``),
so submodules are never copied: ``sys.modules["triton.language"] is mytriton.language``. Only the
top-level ``triton`` is a module of its own, because its ``__version__`` must say the Triton API
level mytriton implements (``TRITON_API_VERSION``; libraries gate code paths on it) while
``mytriton.__version__`` stays mytriton's. Every other name it has is mytriton's (looked up on
each access, so ``triton.jit is mytriton.jit``).

It is opt-in: ``MYTRITON_AS_TRITON=1`` (read at interpreter start by the ``.pth`` hook installed
with the package, so that subprocesses such as TorchInductor's compile workers inherit it),
``install_as_triton()``, or ``python -m mytriton run script.py``. When the real Triton is installed
too, the alias wins and says so once per process.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import types
import warnings
from collections.abc import Sequence
from typing import Any

from mytriton.errors import MyTritonError

#: the Triton release whose Python API mytriton implements (``triton.__version__``)
TRITON_API_VERSION = "3.6.0"
#: the environment variable that turns the alias on in every process that inherits it
ENV_SWITCH = "MYTRITON_AS_TRITON"


class TritonShadowedWarning(UserWarning):
    """The real Triton is installed, and ``import triton`` gives mytriton instead."""


class TritonAlreadyImportedError(MyTritonError):
    """The real Triton was imported before the alias was installed: two ``triton`` packages
    cannot share one process."""


def switch_on(environ: Any = os.environ) -> bool:
    """Whether ``MYTRITON_AS_TRITON`` asks for the alias (``1``, ``true``, ``yes``, ``on``)."""
    return str(environ.get(ENV_SWITCH, "")).strip().lower() in ("1", "true", "yes", "on")


class TritonAliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``triton`` (the version-bearing facade) and ``triton.X`` (``mytriton.X`` itself)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == "triton":
            _warn_if_shadowing()
            return importlib.machinery.ModuleSpec("triton", self, is_package=True)
        if not fullname.startswith("triton."):
            return None
        try:
            found = importlib.util.find_spec("my" + fullname)
        except (ImportError, ValueError):
            found = None
        if found is None:
            # ModuleNotFoundError, as for any missing submodule: the facade's __path__ is empty
            # and mytriton's packages hold no such file
            return None
        is_package = found.submodule_search_locations is not None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=is_package)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        if spec.name == "triton":
            return _make_facade()
        return None  # a placeholder that exec_module replaces by mytriton's module

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == "triton":
            return
        # the import system returns what sys.modules holds after exec_module: mytriton's
        # module object itself, whose own __spec__ and __name__ stay untouched
        sys.modules[module.__name__] = importlib.import_module("my" + module.__name__)


def _make_facade() -> types.ModuleType:
    """The top-level ``triton`` module: mytriton's names (looked up live), Triton's version."""
    import mytriton

    facade = types.ModuleType("triton", mytriton.__doc__)
    for name, value in vars(mytriton).items():
        if not name.startswith("__") or name == "__all__":
            setattr(facade, name, value)

    def __getattr__(name: str) -> Any:  # noqa: N807 (a module's PEP 562 hook)
        try:
            return getattr(mytriton, name)
        except AttributeError:
            pass
        if not name.startswith("_") and importlib.util.find_spec(f"mytriton.{name}") is not None:
            return importlib.import_module(f"triton.{name}")  # a submodule not imported yet
        raise AttributeError(f"module 'triton' has no attribute {name!r}") from None

    facade.__getattr__ = __getattr__  # type: ignore[method-assign]
    facade.__version__ = TRITON_API_VERSION  # type: ignore[attr-defined]
    facade.__file__ = mytriton.__file__
    facade.__path__ = []  # type: ignore[attr-defined]  # submodules come from the finder only
    facade.__mytriton_alias__ = True  # type: ignore[attr-defined]
    return facade


_FINDER = TritonAliasFinder()
_warned_shadowing = False


def _real_triton_location() -> str | None:
    """Where a real ``triton`` package is installed on ``sys.path``, or None."""
    spec = importlib.machinery.PathFinder.find_spec("triton")
    if spec is None:
        return None
    return spec.origin or ", ".join(spec.submodule_search_locations or ()) or "?"


def _warn_if_shadowing() -> None:
    global _warned_shadowing
    if _warned_shadowing:
        return
    _warned_shadowing = True
    where = _real_triton_location()
    if where is not None:
        warnings.warn(
            f"{ENV_SWITCH}: `import triton` gives mytriton (Triton API {TRITON_API_VERSION}); "
            f"the Triton installed at {where} is not used in this process",
            TritonShadowedWarning,
            stacklevel=3,
        )


def _is_alias_module(module: Any) -> bool:
    name = getattr(module, "__name__", "") or ""
    return name.startswith("mytriton") or getattr(module, "__mytriton_alias__", False)


def installed() -> bool:
    """Whether ``triton`` resolves to mytriton in this process."""
    return _FINDER in sys.meta_path


def install_as_triton() -> None:
    """Make ``import triton`` (and every ``triton.X``) give mytriton from now on, in this
    process and, through ``MYTRITON_AS_TRITON=1``, in the subprocesses it starts.

    Call it before anything imports the real Triton; if something did, this raises
    ``TritonAlreadyImportedError`` instead of mixing two ``triton`` packages."""
    real = sorted(
        name
        for name, module in list(sys.modules.items())
        if (name == "triton" or name.startswith("triton.")) and not _is_alias_module(module)
    )
    if real:
        raise TritonAlreadyImportedError(
            f"install_as_triton(): the real Triton is imported already ({', '.join(real[:3])}"
            f"{'...' if len(real) > 3 else ''}); call it before anything imports triton, or set "
            f"{ENV_SWITCH}=1 in the environment"
        )
    os.environ[ENV_SWITCH] = "1"
    if not installed():
        sys.meta_path.insert(0, _FINDER)
    from mytriton.runtime import driver

    # Triton's default driver is the active one: with no GPU here, the "cpu" backend's
    driver.set_fallback(_cpu_driver)


def _cpu_driver() -> Any:
    from mytriton.compat.drivers import CPUDriver

    return CPUDriver()


def install_from_environment() -> None:
    """What the ``.pth`` hook runs at interpreter start: the alias when the switch is on."""
    if switch_on():
        install_as_triton()
