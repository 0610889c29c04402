"""``scf.if`` and ``scf.for`` as C++ ``if``/``for`` whose results and carried values are
variables declared before the statement and assigned by ``scf.yield`` (scalars, pointers, or
CUDA vectors such as the ``float4`` of a masked vector load)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf
from xdsl.ir import Block, SSAValue

from mytriton.backends.cuda.emitter import Emitter, prints
from mytriton.errors import BackendError
from mytriton.passes.gpu_lowering.abi import is_global_pointer


class ScfPrinter(Emitter):
    """Structured control flow with result and carried variables."""

    @prints(scf.IfOp, vectors=True)
    def _print_if(self, op: scf.IfOp) -> None:
        targets = []
        for result in op.output:
            name = self.names.define(result)
            self._stmt(op, f"{self._ctype(result)} {name};")
            targets.append((name, result))
        self._stmt(op, f"if ({self._n(op.cond)}) {{")
        self._print_region_block(op.true_region.block, targets)
        else_block = op.false_region.blocks.first
        if else_block is not None and not _only_empty_yield(else_block):
            self.out.line("} else {")
            self._print_region_block(else_block, targets)
        self.out.line("}")

    @prints(scf.ForOp, vectors=True)
    def _print_for(self, op: scf.ForOp) -> None:
        if "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes:
            raise BackendError("unsigned scf.for comparisons are not supported")
        body = op.body.block
        induction, carried = body.args[0], body.args[1:]
        targets = []
        for result, arg, init in zip(op.res, carried, op.iter_args, strict=True):
            name = self.names.fresh(result.name_hint or arg.name_hint)
            self.names.bind(result, name)
            self.names.bind(arg, name)
            value = self._n(init)
            if is_global_pointer(init.type):
                value = self._as_pointer(init, self._pointee.get(result, "void"))
            self._stmt(op, f"{self._ctype(result)} {name} = {value};")
            targets.append((name, result))
        i = self.names.define(induction)
        lb, ub, step = self._n(op.lb), self._n(op.ub), self._n(op.step)
        self._stmt(op, f"for ({self._ctype(induction)} {i} = {lb}; {i} < {ub}; {i} += {step}) {{")
        self._print_region_block(body, targets)
        self.out.line("}")

    def _print_region_block(self, block: Block, targets: Sequence[tuple[str, SSAValue]]) -> None:
        self._yield_targets.append(targets)
        try:
            with self.out.indented():
                self._print_block(block)
        finally:
            self._yield_targets.pop()

    @prints(scf.YieldOp, vectors=True)
    def _print_yield(self, op: scf.YieldOp) -> None:
        """Assign the yielded values to the enclosing op's result (or loop-carried) variables.

        The assignments are parallel: a value that is itself one of the variables assigned (a
        loop that swaps carried values) is copied to a temporary first.
        """
        if not self._yield_targets:
            raise BackendError("scf.yield outside scf.if/scf.for")
        moves = []  # (variable, C type, value expression, value's own variable)
        for (target, result), value in zip(self._yield_targets[-1], op.arguments, strict=True):
            ctype = self._ctype(result)
            expr = self._n(value)
            if is_global_pointer(value.type):
                expr = self._as_pointer(value, self._pointee.get(result, "void"))
            if target != expr:
                moves.append((target, ctype, expr, self._n(value)))
        # a source that is also a target would be overwritten before it is read: stage it
        targets = {target for target, _, _, _ in moves}
        assignments = []
        for target, ctype, expr, source in moves:
            if source in targets:
                temp = self.names.fresh("yield")
                self._stmt(op, f"{ctype} {temp} = {expr};")
                expr = temp
            assignments.append((target, expr))
        for target, expr in assignments:
            self._stmt(op, f"{target} = {expr};")


def _only_empty_yield(block: Block) -> bool:
    ops = list(block.ops)
    return len(ops) == 1 and isinstance(ops[0], scf.YieldOp) and not ops[0].operands
