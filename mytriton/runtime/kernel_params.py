"""``JITFunction.params``: one ``KernelParam`` per parameter, as Triton describes them to
callers such as TorchInductor (which reads ``num`` and ``is_constexpr``)."""

from __future__ import annotations

import inspect
from typing import Any


class KernelParam:
    """A parameter of a ``@jit`` kernel: its position, name, annotation, default, and whether
    it is a ``tl.constexpr`` or excluded from specialization."""

    def __init__(
        self,
        num: int,
        param: inspect.Parameter,
        is_constexpr: bool,
        do_not_specialize: bool,
        do_not_specialize_on_alignment: bool,
    ) -> None:
        self.num = num
        self._param = param
        self.is_constexpr = is_constexpr
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment

    @property
    def name(self) -> str:
        return self._param.name

    @property
    def annotation(self) -> Any:
        ann = self._param.annotation
        return "" if ann is inspect.Parameter.empty else ann

    @property
    def annotation_type(self) -> str:
        """The annotation as Triton's type text (``"constexpr"``, ``"fp32"``...), or ``""``."""
        ann = self.annotation
        if self.is_constexpr:
            return "constexpr"
        return ann if isinstance(ann, str) else str(getattr(ann, "name", "") or "")

    @property
    def is_const(self) -> bool:
        return "const" in str(self.annotation) and not self.is_constexpr

    @property
    def default(self) -> Any:
        return self._param.default

    @property
    def has_default(self) -> bool:
        return self._param.default is not inspect.Parameter.empty

    def __repr__(self) -> str:
        return f"KernelParam({self.num}, {self.name!r}, constexpr={self.is_constexpr})"


def kernel_params(
    signature: inspect.Signature,
    constexprs: frozenset[str],
    no_value: frozenset[str],
    no_alignment: frozenset[str],
) -> list[KernelParam]:
    """The ``KernelParam`` of each parameter in ``signature``, in order."""
    return [
        KernelParam(i, p, p.name in constexprs, p.name in no_value, p.name in no_alignment)
        for i, p in enumerate(signature.parameters.values())
    ]
