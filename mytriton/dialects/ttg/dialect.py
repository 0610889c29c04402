"""The ``ttg`` dialect object: layouts and conversions (``ttg``), a dot's tensor-core instruction
(``#ttg.nvidia_mma``, ``ttg/mma.py``), shared-memory blocks and their asynchronous copies
(``ttg_shared``, ``ttg_tma``, ``ttg_tma_store``)."""

from __future__ import annotations

from xdsl.ir import Dialect

from mytriton.dialects.ttg import shared as ttg_shared
from mytriton.dialects.ttg import tma as ttg_tma
from mytriton.dialects.ttg import tma_store as ttg_tma_store
from mytriton.dialects.ttg.async_dot import DotWaitOp
from mytriton.dialects.ttg.layouts import (
    BlockedLayoutAttr,
    ConvertLayoutOp,
    SharedLayoutAttr,
    SliceLayoutAttr,
)
from mytriton.dialects.ttg.mma import NvidiaMmaEncodingAttr
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr

TTG = Dialect(
    "ttg",
    [ConvertLayoutOp, *ttg_shared.OPS, *ttg_tma.OPS, *ttg_tma_store.OPS, DotWaitOp],
    [
        BlockedLayoutAttr,
        SliceLayoutAttr,
        SharedLayoutAttr,
        NvmmaSharedLayoutAttr,
        NvidiaMmaEncodingAttr,
        *ttg_shared.ATTRIBUTES,
    ],
)
