"""The ``ttg`` dialect object: layouts and conversions (``ttg``) with shared-memory blocks and
their asynchronous copies (``ttg_shared``)."""

from __future__ import annotations

from xdsl.ir import Dialect

from mytriton.dialects import ttg_shared
from mytriton.dialects.ttg import (
    BlockedLayoutAttr,
    ConvertLayoutOp,
    SharedLayoutAttr,
    SliceLayoutAttr,
)

TTG = Dialect(
    "ttg",
    [ConvertLayoutOp, *ttg_shared.OPS],
    [BlockedLayoutAttr, SliceLayoutAttr, SharedLayoutAttr, *ttg_shared.ATTRIBUTES],
)
