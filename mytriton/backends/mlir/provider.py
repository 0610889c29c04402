"""What every MLIR provider offers: run a pass pipeline on MLIR text, and say why it cannot."""

from __future__ import annotations

import signal
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from mytriton.backends.mlir.binary import GpuObject

TIMEOUT_S = 600.0


@dataclass
class RunResult:
    """What one pipeline run produced: the tool's own verdict, its log, the binary objects."""

    ok: bool
    log: str
    objects: list[GpuObject] = field(default_factory=list)


class Provider(ABC):
    """A way to run an MLIR pass pipeline on MLIR text."""

    name: ClassVar[str]

    @abstractmethod
    def unavailable_reason(self) -> str | None:
        """``None`` when this provider can run, else why not (for errors and the report)."""

    @abstractmethod
    def describe(self) -> str:
        """What this provider is, for the report (path, package, version)."""

    @abstractmethod
    def run(self, source: str, pipeline: str, env: Mapping[str, str]) -> RunResult:
        """Run ``pipeline`` over ``source``; never raises for MLIR's own errors."""


def exit_description(code: int, what: str) -> str:
    if code < 0:
        try:
            return f"{what} was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"{what} was killed by signal {-code}"
    return f"{what} exited with code {code}"
