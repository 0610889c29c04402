"""``tl.tuple``: Triton's tuple type, which kernels build (``tl.tuple((1, 2)) + (3,)``) and
compare like Python tuples. In a kernel it is a plain Python tuple of its elements, runtime
values included (the frontend's tuples); outside one it is a ``tuple`` subclass."""

from __future__ import annotations

import builtins


class tuple(builtins.tuple):  # type: ignore[type-arg]  # noqa: N801 - Triton's name
    """A tuple of ``args`` (an iterable), as ``tl.tuple(args)`` in Triton."""
