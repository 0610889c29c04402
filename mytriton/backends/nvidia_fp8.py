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
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation, ParametrizedAttribute

from mytriton.dialects.tt_fp8 import FORMATS
from mytriton.dialects.tt_types import FP8_TYPES
from mytriton.dialects.verify import source_location
from mytriton.errors import KernelTypeError

#: the compute capability from which Triton's NVIDIA backend takes fp8e4nv
FP8E4NV_CAPABILITY = 89


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
