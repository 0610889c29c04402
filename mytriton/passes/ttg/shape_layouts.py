"""Layouts that keep the minor size-2 dimension of ``tt.join``/``tt.split`` (and of a reshape
into pairs) inside each thread, so those ops are a renaming of registers (see
``gpu_lowering/redistribute.in_registers``) instead of a trip through shared memory.

``paired(L)`` is ``L`` with a new minor dimension of size 2 held by every thread (both halves
of an element pair in the same thread); ``unpaired`` undoes it. ``reshaped`` keeps a reshape
that only splits the minor dimension into pairs (``[..., 2n] -> [..., n, 2]``), or merges them
back, in registers when each thread holds an even run of the minor dimension.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute

from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, Layout


def paired(layout: BlockedLayoutAttr) -> BlockedLayoutAttr:
    """``layout`` with a minor dimension of 2 elements, both in each thread (fastest)."""
    return BlockedLayoutAttr(
        [*layout.spt, 2], [*layout.tpw, 1], [*layout.wpc, 1], [layout.rank, *layout.dim_order]
    )


def unpaired(layout: Attribute | None) -> BlockedLayoutAttr | None:
    """The layout ``paired`` made ``layout`` from, or None if its minor dimension is not a
    pair held by each thread."""
    if not isinstance(layout, BlockedLayoutAttr) or layout.rank < 2:
        return None
    last = layout.rank - 1
    if layout.spt[last] != 2 or layout.tpw[last] != 1 or layout.wpc[last] != 1:
        return None
    return BlockedLayoutAttr(
        layout.spt[:last],
        layout.tpw[:last],
        layout.wpc[:last],
        [d for d in layout.dim_order if d != last],
    )


def reshaped(
    layout: Layout | None, src: Sequence[int], dst: Sequence[int]
) -> BlockedLayoutAttr | None:
    """The layout of ``reshape(src -> dst)`` that leaves every element in its thread and
    register when the reshape only splits the minor dimension of ``src`` into pairs (``layout``
    holding an even run of it per thread) or merges pairs (``layout`` paired); else None."""
    if not isinstance(layout, BlockedLayoutAttr) or layout.rank != len(src):
        return None
    spt, tpw, wpc, order = layout.spt, layout.tpw, layout.wpc, layout.dim_order
    last = len(src) - 1
    if list(dst) == [*src[:-1], src[-1] // 2, 2] and spt[last] % 2 == 0:
        return BlockedLayoutAttr(
            [*spt[:-1], spt[last] // 2, 2], [*tpw, 1], [*wpc, 1], [last + 1, *order]
        )
    pairs = unpaired(layout)
    if len(src) >= 2 and list(dst) == [*src[:-2], 2 * src[-2]] and pairs is not None:
        return BlockedLayoutAttr(
            [*pairs.spt[:-1], 2 * pairs.spt[-1]], pairs.tpw, pairs.wpc, pairs.dim_order
        )
    return None
