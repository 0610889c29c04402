"""Triton's shape manipulation builtins (``tl.trans``, ``tl.reshape``, ``tl.join``, ...).

Declared here and re-exported by ``mytriton.language``; the frontend implements them in
``mytriton.frontend.shape_builtins``. Bodies are never run (see ``core.builtin``).
"""

from __future__ import annotations

from typing import Any

from mytriton.language.core import builtin


@builtin
def trans(input: Any, *dims: Any) -> Any:
    """``input`` with its dimensions permuted (``dims`` as a tuple or as arguments); no dims
    swaps the last two (a batched 2-D transpose)."""


@builtin
def permute(input: Any, *dims: Any) -> Any:
    """``input`` with result dimension ``i`` taken from dimension ``dims[i]``."""


@builtin
def reshape(input: Any, *shape: Any, can_reorder: Any = False) -> Any:
    """The elements of ``input`` in row-major order, in ``shape`` (``()`` gives the scalar of
    a one-element block). ``can_reorder`` is a hint; the order is always kept."""


@builtin
def view(input: Any, *shape: Any) -> Any:
    """``reshape(input, shape, can_reorder=True)`` (deprecated in Triton)."""


@builtin
def ravel(x: Any, can_reorder: Any = False) -> Any:
    """``x`` flattened to one dimension (row-major)."""


@builtin
def join(a: Any, b: Any) -> Any:
    """``a`` and ``b`` (broadcast to one shape) stacked along a new minor dimension of size 2;
    two scalars give a block of 2."""


@builtin
def split(a: Any) -> Any:
    """The two halves ``(a[..., 0], a[..., 1])`` of a block whose last dimension is 2."""


@builtin
def interleave(a: Any, b: Any) -> Any:
    """``a`` and ``b`` interleaved along their last dimension: ``join`` then ``reshape``."""


@builtin
def cat(input: Any, other: Any, can_reorder: Any = False) -> Any:
    """Two rank-1 blocks concatenated; Triton requires ``can_reorder=True`` (the order of the
    result is then unspecified; here it is ``input`` then ``other``)."""


@builtin
def gather(src: Any, index: Any, axis: Any) -> Any:
    """``result[i] = src[i with i[axis] := index[i]]`` (``index`` has ``src``'s shape except
    along ``axis``)."""


@builtin
def flip(x: Any, dim: Any = None) -> Any:
    """``x`` reversed along ``dim`` (the last dimension when None)."""


@builtin
def sort(x: Any, dim: Any = None, descending: Any = False) -> Any:
    """``x`` sorted along its last dimension (a bitonic network)."""


@builtin
def topk(x: Any, k: Any, dim: Any = None) -> Any:
    """The ``k`` largest elements along the last dimension, largest first (``k`` a power of
    two, at most the dimension's size)."""


@builtin
def histogram(input: Any, num_bins: Any, mask: Any = None) -> Any:
    """int32 counts of the values ``0 .. num_bins - 1`` in a rank-1 integer block; values
    outside that range and lanes where ``mask`` is false are not counted."""


@builtin
def item(input: Any) -> Any:
    """The scalar of a one-element block."""


__all__ = [
    "cat",
    "flip",
    "gather",
    "histogram",
    "interleave",
    "item",
    "join",
    "permute",
    "ravel",
    "reshape",
    "sort",
    "split",
    "topk",
    "trans",
    "view",
]
