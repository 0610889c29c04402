"""Python functions a kernel calls while it compiles (Triton's ``triton.constexpr_function``).

A kernel calls such a function on compile-time values (``acc_dtype(ptr.type.element_ty)``); it
runs in Python during compilation and its result is a compile-time value. Decorating a function
with ``@tl.constexpr`` gives the same (Triton unwraps the ``constexpr`` and calls the function).

Like Triton's, the object has a ``src`` (its source from the ``def`` line on), a ``cache_key``
that changes with it (``function_keys.py``, which also holds Triton's rule on what it may
read), and ``_unsafe_update_src``, which Triton's tests use to edit a function in place; here
the new source is also what runs from then on (Triton only changes the key).
"""

from __future__ import annotations

import functools
import threading
import types
from collections.abc import Callable
from typing import Any

from mytriton.errors import SourceUnavailableError
from mytriton.language.function_keys import compile_source, function_key, function_source


class ConstexprFunction:
    """A Python function called on compile-time values inside kernels, and normally outside."""

    def __init__(self, fn: Callable[..., Any]):
        self.fn = fn
        functools.update_wrapper(self, fn)
        #: the source given by ``_unsafe_update_src`` (text, file, first line); None: fn's own
        self._replaced: tuple[str, str, int] | None = None
        self._computing = threading.local()  # a function reading itself keys once

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from mytriton.language.core import _unwrap

        return self.fn(*(_unwrap(a) for a in args), **{k: _unwrap(v) for k, v in kwargs.items()})

    def __repr__(self) -> str:
        return f"ConstexprFunction({self.fn.__qualname__})"

    def _source(self) -> tuple[str, str, int]:
        return self._replaced if self._replaced is not None else function_source(self.fn)

    @property
    def src(self) -> str:
        """The function's source from its ``def`` line on, dedented (Triton's ``src``)."""
        return self._source()[0]

    @property
    def starting_line_number(self) -> int:
        return self._source()[2]

    @property
    def cache_key(self) -> str:
        """A sha256 of the source, its first line and the keys of the functions it reads
        (Triton's); ``UnsupportedReferenceError`` (a ``RuntimeError``) where it reads another
        Python function. Computed on each read, so it is never stale."""
        if getattr(self._computing, "active", False):
            return f"recursion:{self.fn.__qualname__}"
        self._computing.active = True
        try:
            text, _, first = self._source()
            return function_key(self.fn, text, first)
        finally:
            self._computing.active = False

    @property
    def hash(self) -> str:
        """Triton's memo of ``cache_key``; here ``cache_key`` itself (never stale)."""
        return self.cache_key

    @hash.setter  # noqa: A003 (Triton's attribute name)
    def hash(self, value: None) -> None:
        # Triton's callers reset the memo with ``fn.hash = None``: nothing to forget here
        if value is not None:
            raise AttributeError("ConstexprFunction.hash can only be reset (set to None)")

    def _unsafe_update_src(self, new_src: str) -> None:
        """Run ``new_src`` (a ``def`` of the same function) from now on, and key on it."""
        _, file, first = self._source()
        fn = self.fn
        if not isinstance(fn, types.FunctionType):
            raise SourceUnavailableError(
                f"cannot replace the source of {fn!r}: not a Python function"
            )
        self.fn = self.__wrapped__ = compile_source(fn, new_src, file, first)
        self._replaced = (new_src, file, first)


def constexpr_function(fn: Callable[..., Any]) -> ConstexprFunction:
    """Mark ``fn`` as callable in kernels on compile-time arguments (Triton 3.6's decorator)."""
    return ConstexprFunction(fn)
