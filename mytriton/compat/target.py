"""Triton's backend interfaces (``triton.backends.compiler``, ``triton.backends.driver``):
what a compile is for (``GPUTarget``), the compiler half of a backend (``BaseBackend``) and the
driver half (``DriverBase``), with Triton 3.6's shapes, for code that subclasses or inspects
them (TorchInductor reads ``make_backend(target).hash()`` and ``parse_options``)."""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from enum import Enum
from typing import Any

from mytriton.runtime.driver import CudaDriver, GPUTarget

__all__ = ["BaseBackend", "DriverBase", "GPUDriver", "GPUTarget", "Language"]


class Language(Enum):
    """The language a source is written in (mytriton compiles Triton's only)."""

    TRITON = 0
    GLUON = 1


class BaseBackend(metaclass=ABCMeta):
    """The compiler half of a backend: which targets it takes, its options, its identity."""

    supports_native_tensor_specialization = True

    def __init__(self, target: GPUTarget) -> None:
        self.target = target
        if not self.supports_target(target):
            raise ValueError(f"{type(self).__name__} does not compile for {target}")

    @staticmethod
    @abstractmethod
    def supports_target(target: GPUTarget) -> bool:
        """Whether this backend compiles for ``target``."""

    @abstractmethod
    def hash(self) -> str:
        """What besides the source decides this backend's output (for cache keys)."""

    @abstractmethod
    def parse_options(self, options: dict[str, Any]) -> Any:
        """The options object of a compile from Triton's ``options`` dict (checked)."""

    def add_stages(  # noqa: B027 (Triton's hook; mytriton's backends add nothing)
        self, stages: dict[str, Any], options: Any, language: Any = None
    ) -> None:
        """Triton's stage table; mytriton's stages are the runtime's (``runtime/compiler.py``),
        so nothing is added here."""

    def load_dialects(self, context: Any) -> None:  # noqa: B027 (as add_stages)
        """Nothing to load: mytriton's dialects are xDSL classes."""

    def get_module_map(self) -> dict[str, Any]:
        return {}

    def pack_metadata(self, metadata: Any) -> Any:
        """What ``CompiledKernel.run`` receives as ``packed_metadata`` (Triton's default: the
        metadata itself)."""
        return metadata

    @staticmethod
    def parse_attr(desc: str) -> list[list[Any]]:
        """Triton's specialization letters as ``attrs`` entries (``"D"``: divisible by 16)."""
        return [["tt.divisibility", 16]] if "D" in desc else []

    @staticmethod
    def get_int_specialization(arg: int, **kwargs: Any) -> str:
        return "D" if arg % 16 == 0 and kwargs.get("align", False) else ""

    @staticmethod
    def get_tensor_specialization(arg: Any, **kwargs: Any) -> str:
        return "D" if arg.data_ptr() % 16 == 0 and kwargs.get("align", False) else ""


class DriverBase(metaclass=ABCMeta):
    """The driver half of a backend: devices, streams, the current target."""

    @staticmethod
    @abstractmethod
    def is_active() -> bool:
        """Whether this driver can run kernels on this machine."""

    @abstractmethod
    def get_current_target(self) -> GPUTarget:
        """What kernels compile for here."""


class GPUDriver(DriverBase):
    """Triton's base of GPU drivers (mytriton's is ``CudaDriver``)."""


# mytriton's CUDA driver (runtime/driver.py) is a Triton driver, without depending on this layer
GPUDriver.register(CudaDriver)
