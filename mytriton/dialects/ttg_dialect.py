"""The ``ttg`` dialect object: layouts and conversions (``ttg``) with shared-memory blocks and
their asynchronous copies (``ttg_shared``, ``ttg_tma``)."""

from __future__ import annotations

from xdsl.ir import Dialect

from mytriton.dialects import ttg_shared, ttg_tma
from mytriton.dialects.ttg import (
    BlockedLayoutAttr,
    ConvertLayoutOp,
    SharedLayoutAttr,
    SliceLayoutAttr,
)
from mytriton.dialects.ttg_async_dot import DotWaitOp
from mytriton.dialects.ttg_nvmma import NvmmaSharedLayoutAttr

TTG = Dialect(
    "ttg",
    [ConvertLayoutOp, *ttg_shared.OPS, *ttg_tma.OPS, DotWaitOp],
    [
        BlockedLayoutAttr,
        SliceLayoutAttr,
        SharedLayoutAttr,
        NvmmaSharedLayoutAttr,
        *ttg_shared.ATTRIBUTES,
    ],
)
