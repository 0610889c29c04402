"""Triton's shape helpers written in plain ``tl`` (``@jit``), as Triton's ``standard.py``."""

from __future__ import annotations

from typing import Any

import mytriton.language as tl
from mytriton.runtime.jit import jit


@jit
def swizzle2d(i: Any, j: Any, size_i: Any, size_j: Any, size_g: Any) -> Any:
    """Row-major indices ``(i, j)`` of a ``size_i x size_j`` grid renumbered column-major
    within each group of ``size_g`` rows (the last group may have fewer rows): program
    ``(i, j)`` then visits tiles in an L2-friendly order."""
    ij = i * size_j + j  # position in the row-major order
    size_gj = size_g * size_j  # elements per group of rows
    group_id = ij // size_gj
    off_i = group_id * size_g  # first row of the group
    size_g = tl.minimum(size_i - off_i, size_g)  # rows of this (maybe last) group
    ij = ij % size_gj
    new_i = off_i + ij % size_g
    new_j = ij // size_g
    return new_i, new_j
