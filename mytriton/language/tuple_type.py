"""``tl.tuple``: Triton's tuple type, which kernels build (``tl.tuple((1, 2)) + (3,)``) and
compare like Python tuples. In a kernel it is a plain Python tuple of its elements, runtime
values included (the frontend's tuples); outside one it is a ``tuple`` subclass."""

from __future__ import annotations

import builtins


class _TupleType(type):
    """Any Python tuple is a ``tl.tuple`` (a kernel's tuples are plain ones while compiling)."""

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, builtins.tuple)


class tuple(builtins.tuple, metaclass=_TupleType):  # type: ignore[type-arg]  # noqa: N801
    """A tuple of ``args`` (an iterable), as ``tl.tuple(args)`` in Triton (Triton's name)."""
