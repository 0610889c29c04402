"""`tt` ops reading the GPU's special registers: ``tt.globaltimer`` and ``tt.smid``
(``tl.extra.cuda.globaltimer()``, ``tl.extra.cuda.smid()``).

Triton writes them as inline PTX (``mov.u64 $0, %globaltimer;``, ``mov.u32 $0, %smid;``); here
they are ops, so every stage can say what they are: the lowering makes them upstream's
``nvvm.read.ptx.sreg.*`` (``passes/gpu_lowering/sreg.py``), the CUDA printer the same ``mov``
(``backends/cuda/print_nvvm.py``), and the CPU backends give values a GPU could give.

``tt.globaltimer`` (a nanosecond clock) has effects, as Triton's non-pure asm: two reads are
never merged, and none moves or vanishes. ``tt.smid`` (the multiprocessor running the program,
which a program never leaves) is pure, as Triton's.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import I32, I64, i32, i64
from xdsl.irdl import IRDLOperation, irdl_op_definition, result_def, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class GlobaltimerOp(IRDLOperation):
    """``tt.globaltimer : i64``: the GPU's global nanosecond timer, as this thread reads it."""

    name = "tt.globaltimer"
    result = result_def(I64)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self) -> None:
        super().__init__(result_types=[i64])


@irdl_op_definition
class SmidOp(IRDLOperation):
    """``tt.smid : i32``: the index of the multiprocessor the program runs on."""

    name = "tt.smid"
    result = result_def(I32)
    traits = traits_def(Pure())
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self) -> None:
        super().__init__(result_types=[i32])


TT_SREG_OPS: Sequence[type[IRDLOperation]] = (GlobaltimerOp, SmidOp)
