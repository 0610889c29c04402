"""The `tt` dialect's structural ops, gathered: Triton's block-level programming model.

Blocks are builtin tensors (see ``types``). The ops are defined by family, a module each:
``program`` (program ids and ranges), ``broadcast`` (splats, broadcasts, ``expand_dims``),
``memory`` (pointer arithmetic, masked loads and stores), ``factories`` (zeros, full, empty),
``dot``, ``reduce`` (``tt.reduce``, ``tt.scan``) and ``constants`` (unsigned constants); this
module re-exports them under the names the rest of mytriton uses (``from mytriton.dialects.tt
import core as tt``, then ``tt.LoadOp``) and lists them for the dialect (``TT_CORE_OPS``).
Elementwise arithmetic, comparisons, ``select``, math and casts are in ``elementwise`` (xDSL's
``arith`` only handles scalars, and our ops carry exact GPU semantics). Each op's verifier
states the seed's rules; canonicalization patterns live in ``canonicalize`` and are attached
lazily (xDSL needs the op classes first).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.irdl import IRDLOperation

from mytriton.dialects.tt.broadcast import BroadcastOp, ExpandDimsOp, SplatOp
from mytriton.dialects.tt.constants import UnsignedConstantOp
from mytriton.dialects.tt.dot import (
    DOT_ACCUMULATORS,
    DOT_ATTRIBUTE_CHECKS,
    DOT_INPUT_PRECISIONS,
    FP8_MMA_TYPES,
    DotOp,
)
from mytriton.dialects.tt.factories import EmptyOp, FullOp, ZerosOp
from mytriton.dialects.tt.memory import TENSOR_MAP_TYPE, AddPtrOp, LoadOp, StoreOp
from mytriton.dialects.tt.program import (
    GetNumProgramsOp,
    GetProgramIdOp,
    MakeRangeOp,
    ProgramAxis,
    ProgramAxisAttr,
)
from mytriton.dialects.tt.reduce import ReduceOp, ReduceReturnOp, ScanOp, ScanReturnOp

__all__ = [
    "DOT_ACCUMULATORS",
    "DOT_ATTRIBUTE_CHECKS",
    "DOT_INPUT_PRECISIONS",
    "FP8_MMA_TYPES",
    "TENSOR_MAP_TYPE",
    "TT_CORE_OPS",
    "AddPtrOp",
    "BroadcastOp",
    "DotOp",
    "EmptyOp",
    "ExpandDimsOp",
    "FullOp",
    "GetNumProgramsOp",
    "GetProgramIdOp",
    "LoadOp",
    "MakeRangeOp",
    "ProgramAxis",
    "ProgramAxisAttr",
    "ReduceOp",
    "ReduceReturnOp",
    "ScanOp",
    "ScanReturnOp",
    "SplatOp",
    "StoreOp",
    "UnsignedConstantOp",
    "ZerosOp",
]

TT_CORE_OPS: Sequence[type[IRDLOperation]] = (
    UnsignedConstantOp,
    GetProgramIdOp,
    GetNumProgramsOp,
    MakeRangeOp,
    SplatOp,
    BroadcastOp,
    ExpandDimsOp,
    AddPtrOp,
    LoadOp,
    StoreOp,
    ReduceOp,
    ReduceReturnOp,
    ScanOp,
    ScanReturnOp,
    ZerosOp,
    FullOp,
    EmptyOp,
    DotOp,
)
