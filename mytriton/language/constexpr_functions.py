"""Python functions a kernel calls while it compiles (Triton's ``triton.constexpr_function``).

A kernel calls such a function on compile-time values (``acc_dtype(ptr.type.element_ty)``); it
runs in Python during compilation and its result is a compile-time value. Decorating a function
with ``@tl.constexpr`` gives the same (Triton unwraps the ``constexpr`` and calls the function).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any


class ConstexprFunction:
    """A Python function called on compile-time values inside kernels, and normally outside."""

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn
        functools.update_wrapper(self, fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from mytriton.language.core import _unwrap

        return self.fn(*(_unwrap(a) for a in args), **{k: _unwrap(v) for k, v in kwargs.items()})

    def __repr__(self) -> str:
        return f"ConstexprFunction({self.fn.__qualname__})"


def constexpr_function(fn: Callable[..., Any]) -> ConstexprFunction:
    """Mark ``fn`` as callable in kernels on compile-time arguments (Triton 3.6's decorator)."""
    return ConstexprFunction(fn)
