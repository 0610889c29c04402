"""``triton.Config`` (one autotuning candidate: meta-parameters and launch options) and
``KernelInterface`` (what ``kernel[grid](...)`` means for every kind of kernel object: the
``@jit`` function, the autotuner, the heuristics), Triton 3.6's names."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from mytriton.dialects.tt.loop_attrs import DEFAULT_NUM_STAGES


def _base_function(fn: Any) -> Any:
    """The Python function under any stack of wrappers."""
    while not inspect.isfunction(fn):
        fn = fn.fn
    return fn


def _jit_function(fn: Any) -> Any:
    """The ``JITFunction`` under any stack of autotune/heuristics wrappers."""
    from mytriton.runtime.jit import JITFunction

    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn


class Config:
    """One configuration to try: meta-parameters (``kwargs``) and launch options."""

    def __init__(
        self,
        kwargs: dict[str, Any],
        num_warps: int = 4,
        num_stages: int = DEFAULT_NUM_STAGES,
        num_ctas: int = 1,
        maxnreg: int | None = None,
        pre_hook: Callable[[dict[str, Any]], Any] | None = None,
        ir_override: str | None = None,
    ) -> None:
        self.kwargs = kwargs
        self.num_warps = num_warps
        self.num_ctas = num_ctas
        self.num_stages = num_stages
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.kwargs = state.get("kwargs", {})
        self.num_warps = state.get("num_warps", 4)
        self.num_stages = state.get("num_stages", DEFAULT_NUM_STAGES)
        self.num_ctas = state.get("num_ctas", 1)
        self.maxnreg = state.get("maxnreg")
        self.pre_hook = state.get("pre_hook")
        self.ir_override = state.get("ir_override")

    def all_kwargs(self) -> dict[str, Any]:
        """The meta-parameters and the launch options that are set (not None)."""
        options = (
            ("num_warps", self.num_warps),
            ("num_ctas", self.num_ctas),
            ("num_stages", self.num_stages),
            ("maxnreg", self.maxnreg),
            ("ir_override", self.ir_override),
        )
        return {**self.kwargs, **{k: v for k, v in options if v is not None}}

    def __str__(self) -> str:
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [
            f"num_warps: {self.num_warps}",
            f"num_ctas: {self.num_ctas}",
            f"num_stages: {self.num_stages}",
            f"maxnreg: {self.maxnreg}",
            f"ir_override: {self.ir_override}",
        ]
        return ", ".join(parts)

    def __repr__(self) -> str:
        return f"Config({self})"

    def _identity(self) -> tuple[Any, ...]:
        return (*self.all_kwargs().items(), self.pre_hook)

    def __hash__(self) -> int:
        return hash(self._identity())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Config):
            return NotImplemented
        return self._identity() == other._identity()

    def to_json(self) -> dict[str, Any]:
        """The config without its pre-hook, as JSON (the disk cache stores it)."""
        return {
            "kwargs": self.kwargs,
            "num_warps": self.num_warps,
            "num_stages": self.num_stages,
            "num_ctas": self.num_ctas,
            "maxnreg": self.maxnreg,
            "ir_override": self.ir_override,
        }


class KernelInterface:
    """What ``@autotune`` and ``@heuristics`` wrap and are: ``kernel[grid](...)`` calls ``run``."""

    fn: Any
    arg_names: list[str]

    def run(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        return lambda *args, **kwargs: self.run(*args, grid=grid, warmup=False, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"{type(self).__name__} {self.__name__} cannot be called directly; launch it with "
            f"{self.__name__}[grid](...)"
        )

    @property
    def __name__(self) -> str:
        return _base_function(self).__name__

    @property
    def src(self) -> str:
        """The source of the wrapped ``@jit`` kernel."""
        return str(_jit_function(self).src)
