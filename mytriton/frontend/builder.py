"""Inserting ops into the kernel being built, each tagged with the current source location.

Every block an op makes is held to Triton's 2**20 elements here, at the kernel's line, whatever
builtin made it (``tl.arange``, ``tl.join``, a broadcast of operands, ``tl.dot``...), as
Triton's ``block_type`` does; the ``tt`` dialect's verifier holds later passes to it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr, TensorType
from xdsl.ir import Block, Operation

from mytriton.dialects.tt.types import numel_problem, shape_of
from mytriton.errors import KernelValueError, SourceLocation

OpT = TypeVar("OpT", bound=Operation)


class IRBuilder:
    """Appends ops to a block; ``loc`` is the Python source position of the code being compiled."""

    def __init__(self, block: Block):
        self.block = block
        self.loc: SourceLocation | None = None
        #: debug mode (``@jit(debug=True)``, ``MYTRITON_DEBUG``/``TRITON_DEBUG``): device
        #: assertions are compiled in
        self.debug = False
        #: the launch's ``num_warps`` (``tl.extra.cuda.num_warps()``, ``num_threads()``)
        self.num_warps = 4

    def insert(self, op: OpT) -> OpT:
        for result in op.results:
            if isinstance(result.type, TensorType):
                problem = numel_problem(shape_of(result.type))
                if problem:
                    raise KernelValueError(problem, self.loc)
        if self.loc is not None:
            op.location = FileLineColLoc(
                StringAttr(self.loc.file), IntAttr(self.loc.line), IntAttr(self.loc.col)
            )
        self.block.add_op(op)
        return op

    @contextmanager
    def at_end_of(self, block: Block) -> Iterator[None]:
        saved = self.block
        self.block = block
        try:
            yield
        finally:
            self.block = saved

    @contextmanager
    def located(self, loc: SourceLocation | None) -> Iterator[None]:
        saved = self.loc
        if loc is not None:
            self.loc = loc
        try:
            yield
        finally:
            self.loc = saved
