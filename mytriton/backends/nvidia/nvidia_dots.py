"""The smallest ``tl.dot`` Triton's NVIDIA backend compiles, and the typed error for smaller ones.

Triton 3.6's frontend asks its target for the least M, N and K of a dot
(``backends/nvidia/compiler.py``'s ``min_dot_size``): on NVIDIA, K >= 32 for 8-bit operands
(int8, fp8) and K >= 16 for the others, any M and N (smaller M and N are padded for the tensor
cores), and refuses a smaller dot at its line with "Input shapes should have M >= 1, N >= 1
and K >= 16". The cuda and mlir backends refuse the same dots, read from the `tt` module
before it is optimised (dead code counts, as in Triton's frontend); the interpreter and gpusim,
like Triton's interpreter (``(1, 1, 1)``), take any size. An fp8 dtype no MMA takes is an f16
dot by then (as Triton upcasts fp8e4b15), so its K bound is 16.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from mytriton.dialects.tt.core import DotOp
from mytriton.dialects.tt.types import element_type
from mytriton.dialects.verify import source_location
from mytriton.errors import DotSizeError


def min_dot_size(bitwidth: int) -> tuple[int, int, int]:
    """The least (M, N, K) of a dot of operands of ``bitwidth`` bits on an NVIDIA target."""
    return (1, 1, 32) if bitwidth == 8 else (1, 1, 16)


def check_dot_sizes(module: ModuleOp, backend: str) -> None:
    """Raise a ``DotSizeError`` (caused by an ``AssertionError`` with Triton's words) at the
    first ``tt.dot`` smaller than ``min_dot_size``."""
    for op in module.walk():
        if not isinstance(op, DotOp):
            continue
        a_shape, b_shape = op.a.type.get_shape(), op.b.type.get_shape()  # type: ignore[attr-defined]
        m, k, n = a_shape[-2], a_shape[-1], b_shape[-1]
        bits = element_type(op.a.type).bitwidth  # type: ignore[attr-defined]
        least_m, least_n, least_k = min_dot_size(bits)
        if m >= least_m and n >= least_n and k >= least_k:
            continue
        words = f"Input shapes should have M >= {least_m}, N >= {least_n} and K >= {least_k}"
        raise DotSizeError(
            f"{words}: this dot is [{m}, {k}] x [{k}, {n}] of {bits}-bit operands (the "
            f"{backend} backend compiles for NVIDIA tensor cores; the interpreter and gpusim "
            "take any size)",
            source_location(op),
            cause=words,
        )
