"""``triton.heuristics``: meta-parameters computed from a launch's arguments (Triton 3.6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mytriton.runtime.autotune_config import KernelInterface


class Heuristics(KernelInterface):
    """A kernel whose named meta-parameters are computed from the launch's arguments."""

    def __init__(
        self, fn: Any, arg_names: list[str], values: dict[str, Callable[[dict[str, Any]], Any]]
    ) -> None:
        self.fn = fn
        self.values = values
        self.arg_names = list(arg_names)

    def __repr__(self) -> str:
        return f"Heuristics({self.fn!r})"

    def run(self, *args: Any, **kwargs: Any) -> Any:
        for name, heuristic in self.values.items():
            kwargs[name] = heuristic({**dict(zip(self.arg_names, args, strict=False)), **kwargs})
        return self.fn.run(*args, **kwargs)

    def warmup(self, *args: Any, **kwargs: Any) -> Any:
        return self.run(*args, **{**kwargs, "warmup": True})


def heuristics(values: dict[str, Callable[[dict[str, Any]], Any]]) -> Callable[[Any], Heuristics]:
    """Decorate a kernel so that ``values[name](args)`` sets meta-parameter ``name``."""

    def decorator(fn: Any) -> Heuristics:
        return Heuristics(fn, fn.arg_names, values)

    return decorator
