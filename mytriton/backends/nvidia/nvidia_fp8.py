"""The fp8 types Triton's NVIDIA backend compiles, and the typed error for the others.

Triton 3.6 (``backends/nvidia/compiler.py``) gives a CUDA target ``fp8e5`` and ``fp8e4b15``,
and ``fp8e4nv`` from compute capability 8.9 on; making the IR type of any other fp8 dtype
(``fp8e4b8``, ``fp8e5b16``: AMD's formats) raises "type ... not supported in this architecture"
at the kernel line that needs it (``dtype.to_ir``), whatever the op. The cuda and mlir backends
reject the same kernels; the interpreter and gpusim, like Triton's interpreter, take all five.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import func
from xdsl.dialects.builtin import Float8E4M3B11FNUZType, ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue

from mytriton.dialects.tt.core import DotOp
from mytriton.dialects.tt.elementwise import CastOp
from mytriton.dialects.tt.fp8 import FORMATS
from mytriton.dialects.tt.types import FP8_TYPES, element_type
from mytriton.dialects.verify import source_location
from mytriton.errors import KernelTypeError, warn_at

#: the compute capability from which Triton's NVIDIA backend takes fp8e4nv
FP8E4NV_CAPABILITY = 89
#: the compute capability from which Triton warns of fp8e4b15 dot operands (Hopper's MMAs
#: take fp8e4nv and fp8e5; fp8e4b15 is upcast to f16 first)
FP8E4B15_DEPRECATED_CAPABILITY = 90


def supported_fp8_dtypes(capability: int) -> tuple[str, ...]:
    """The fp8 dtypes a CUDA target of ``capability`` takes, sorted (Triton's option value)."""
    names = {"fp8e5", "fp8e4b15"}
    if capability >= FP8E4NV_CAPABILITY:
        names.add("fp8e4nv")
    return tuple(sorted(names))


def _fp8_types(t: Attribute) -> Iterator[Attribute]:
    """The fp8 types in ``t`` (itself, a block's or pointer's element, a function's types)."""
    if isinstance(t, FP8_TYPES):
        yield t
    elif isinstance(t, ParametrizedAttribute):
        for p in t.parameters:
            if isinstance(p, Attribute):
                yield from _fp8_types(p)
            elif isinstance(p, (tuple, list)):
                for q in p:
                    if isinstance(q, Attribute):
                        yield from _fp8_types(q)


def _types_of(op: Operation) -> Iterator[Attribute]:
    if isinstance(op, func.FuncOp):
        yield op.function_type
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)
    yield from (r.type for r in op.results)


def check_fp8_types(module: ModuleOp, capability: int, backend: str) -> None:
    """Raise a ``KernelTypeError`` at the first op (in program order; the kernel's ``def`` for
    a parameter) that has an fp8 type a CUDA target of ``capability`` does not take."""
    supported = supported_fp8_dtypes(capability)
    for op in module.walk():
        for t in _types_of(op):
            for fp8 in _fp8_types(t):
                name = FORMATS[type(fp8)].name
                if name not in supported:
                    raise KernelTypeError(
                        f"type {name} not supported in this architecture. The supported fp8 "
                        f"dtypes are {supported} (the {backend} backend compiles for "
                        f"sm_{capability}; the interpreter and gpusim take every fp8 dtype)",
                        source_location(op),
                    )


def _upcast_e4b15(v: SSAValue, dot: DotOp) -> bool:
    """Whether ``v`` is the frontend's f16 upcast of an fp8e4b15 dot operand (a ``tt.cast``
    made for the dot: at its source location)."""
    op = v.owner
    return (
        isinstance(op, CastOp)
        and isinstance(element_type(op.src.type), Float8E4M3B11FNUZType)
        and op.location == dot.location
    )


def warn_fp8e4b15_dots(module: ModuleOp, capability: int) -> None:
    """Triton's warning, at the dot's line, for a dot of fp8e4b15 operands on Hopper or later."""
    if capability < FP8E4B15_DEPRECATED_CAPABILITY:
        return
    for op in module.walk():
        if isinstance(op, DotOp) and (_upcast_e4b15(op.a, op) or _upcast_e4b15(op.b, op)):
            warn_at(
                source_location(op),
                "the use of fp8e4b15 is deprecated on Hopper and later architectures and can "
                "cause significant slow down. It will be removed in a future triton release",
            )
