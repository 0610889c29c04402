"""Triton's ``tl.map_elementwise``: a ``@jit`` scalar function mapped over blocks.

Declared here and re-exported by ``mytriton.language``; the frontend implements it in
``mytriton.frontend.map_elementwise`` (the function's scalar body replayed on the blocks).
Bodies are never run (see ``core.builtin``).
"""

from __future__ import annotations

from typing import Any

from mytriton.language.core import builtin


@builtin
def map_elementwise(scalar_fn: Any, *args: Any, pack: Any = 1) -> Any:
    """``scalar_fn`` applied to each element of ``args`` (broadcast to one shape), ``pack``
    elements of each at a time; one block, or a tuple of blocks, as the function returns.
    Straight-line elementwise bodies only: data-dependent control flow is a compile error."""


__all__ = ["map_elementwise"]
