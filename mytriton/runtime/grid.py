"""Launch grids: integer dimensions within CUDA's limits, checked on every launch (cheaply: a
tuple of ints takes one pass of type and range checks). As Triton's launcher, a grid of more
than three entries launches its first three (libraries pass such grids); the rest are ignored."""

from __future__ import annotations

from typing import Any

import numpy as np

from mytriton.errors import LaunchError

# CUDA's limits on a grid (x, y, z), which Triton's program ids (int32) also respect.
GRID_LIMITS = (2**31 - 1, 65535, 65535)


def _grid_tuple(grid: Any) -> tuple[Any, ...]:
    """A grid that is not a tuple of 1 to 3 entries: a tuple of its entries, or an error naming
    what it is."""
    if grid is None or isinstance(grid, (str, bytes, dict)):
        raise LaunchError(
            f"the grid must be a tuple of 1 to 3 integers (or a function of the meta-parameters "
            f"returning one), got {grid!r}"
        )
    try:
        dims = tuple(grid)
    except TypeError:
        raise LaunchError(
            f"the grid must be a tuple of 1 to 3 integers (or a function of the meta-parameters "
            f"returning one), got {grid!r}"
        ) from None
    if not dims:
        raise LaunchError(f"the grid must have 1 to 3 dimensions, got {grid!r}")
    return dims


def _grid_dim(d: Any, i: int) -> int:
    """One grid dimension as an int: integers of any kind (NumPy, 0-d tensors), never floats,
    strings or booleans (which Python would silently convert)."""
    if not isinstance(d, (bool, np.bool_)) and hasattr(type(d), "__index__"):
        try:
            return int(d.__index__())
        except TypeError:
            pass  # a float tensor
    raise LaunchError(f"grid dimension {'xyz'[i]} must be an integer, got {type(d).__name__} {d!r}")


def normalize_grid(grid: Any) -> tuple[int, int, int]:
    """``(x, y, z)`` of a grid given as an int or a tuple/list of integers (entries after the
    third are ignored, as Triton's launcher ignores them)."""
    if type(grid) is int:
        grid = (grid,)
    if type(grid) is not tuple or not 1 <= len(grid) <= 3:
        grid = _grid_tuple(grid)
    g = (*grid, 1, 1)
    x, y, z = g[0], g[1], g[2]
    if type(x) is not int or type(y) is not int or type(z) is not int:
        x, y, z = (_grid_dim(d, i) for i, d in enumerate(g[:3]))
    if not (0 <= x <= GRID_LIMITS[0] and 0 <= y <= GRID_LIMITS[1] and 0 <= z <= GRID_LIMITS[2]):
        raise LaunchError(
            f"grid {(x, y, z)[: min(len(grid), 3)]} is outside the limits of a launch: each "
            f"dimension from 0 to {GRID_LIMITS} (x, y, z)"
        )
    return x, y, z
