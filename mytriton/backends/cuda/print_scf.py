"""``scf.if``, ``scf.for`` and ``scf.while`` as C++ ``if``/``for``/``while`` whose results and
carried values are variables declared before the statement and assigned by ``scf.yield``
(scalars, pointers, or CUDA vectors such as the ``float4`` of a masked vector load). A loop
carries a struct (warpgroup MMA accumulators in flight) as one variable per field."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import Float32Type
from xdsl.ir import Block, Operation, SSAValue

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
        carried_structs: list[tuple[list[str], bool]] = []
        for result, arg, init in zip(op.res, carried, op.iter_args, strict=True):
            if isinstance(init.type, llvm.LLVMStructType):  # a variable per field
                fields = [self.names.fresh(result.name_hint or "carried") for _ in init.type.types]
                for name, field, t in zip(
                    fields, self._fields_of(init), init.type.types, strict=True
                ):
                    self._stmt(op, f"{self._scalar_type(op, t)} {name} = {field};")
                self._set_fields(result, fields)
                self._set_fields(arg, fields)
                targets.append(("", result))
                integer = not isinstance(init.type.types.data[0], Float32Type)
                carried_structs.append((fields, integer))
                continue
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
        wait = self._exit_wait(op)
        if wait is not None:
            self._print_for_retiring(op, wait, targets, carried_structs)
            return
        self._stmt(op, f"for ({self._ctype(induction)} {i} = {lb}; {i} < {ub}; {i} += {step}) {{")
        for fields, integer in carried_structs:
            self._carried_in_flight(fields, integer)
        self._print_region_block(body, targets)
        self.out.line("}")

    def _print_for_retiring(
        self,
        op: scf.ForOp,
        wait: Operation,
        targets: Sequence[tuple[str, SSAValue]],
        carried_structs: Sequence[tuple[list[str], bool]],
    ) -> None:
        """A loop whose last iteration leaves wgmmas in flight, followed by the wait that
        retires them, as ``if (lb < ub) { do { body } while ((i += step) < ub); wait; }``: the
        wait is the first instruction on the loop's exit edge. Else nvcc may compute the code
        after the loop before the wait, and ptxas then serializes every wgmma of the kernel
        (its C7514 "wgmma.mma_async instructions are serialized"). Where the loop does not
        run, the wait retires what was in flight before it (if anything)."""
        induction = op.body.block.args[0]
        i = self._n(induction)
        lb, ub, step = self._n(op.lb), self._n(op.ub), self._n(op.step)
        before = self._in_flight_state()
        self._printed_ahead.add(wait)
        self._stmt(op, f"if ({lb} < {ub}) {{")
        with self.out.indented():
            self._stmt(op, f"{self._ctype(induction)} {i} = {lb};")
            self._stmt(op, "do {")
            for fields, integer in carried_structs:
                self._carried_in_flight(fields, integer)
            self._print_region_block(op.body.block, targets)
            self._stmt(op, f"}} while (({i} += {step}) < {ub});")
            self._print_op(wait)
        if before:
            self.out.line("} else {")
            self._set_in_flight(before)
            with self.out.indented():
                self._print_op(wait)
        self.out.line("}")

    @prints(scf.WhileOp, vectors=True)
    def _print_while(self, op: scf.WhileOp) -> None:
        """``while (true) { before...; if (!cond) break; after...; }``: the carried values are
        variables declared before the loop (assigned by the body's ``scf.yield``); the body
        reads the values the condition forwards by their names; a result that is not a
        carried value gets a variable assigned just before the ``break``."""
        before, after = op.before_region.block, op.after_region.block
        condition = before.last_op
        if not isinstance(condition, scf.ConditionOp):
            raise BackendError("scf.while whose before region does not end in scf.condition")
        targets = []
        for arg, init in zip(before.args, op.arguments, strict=True):
            name = self.names.fresh(arg.name_hint or init.name_hint)
            self.names.bind(arg, name)
            self._stmt(op, f"{self._ctype(arg)} {name} = {self._pointer_as(init, arg)};")
            targets.append((name, arg))
        exits = []  # (result variable, forwarded value) assigned when the loop ends
        for result, forwarded in zip(op.res, condition.args, strict=True):
            if forwarded in before.args:  # the carried variable holds it when the loop ends
                self.names.bind(result, self._n(forwarded))
                continue
            self._stmt(op, f"{self._ctype(result)} {self.names.define(result)};")
            exits.append((result, forwarded))
        self._stmt(op, "while (true) {")
        with self.out.indented():
            for inner in before.ops:
                if inner is not condition:
                    self._print_op(inner)
            self._stmt(condition, f"if (!{self._n(condition.condition)}) {{")
            with self.out.indented():
                for result, forwarded in exits:
                    value = self._pointer_as(forwarded, result)
                    self._stmt(condition, f"{self._n(result)} = {value};")
                self._stmt(condition, "break;")
            self.out.line("}")
            for arg, forwarded in zip(after.args, condition.args, strict=True):
                self.names.bind(arg, self._n(forwarded))
        self._print_region_block(after, targets)
        self.out.line("}")

    def _pointer_as(self, value: SSAValue, like: SSAValue) -> str:
        """``value`` as an expression of ``like``'s C type (pointers cast to its element)."""
        if is_global_pointer(value.type):
            return self._as_pointer(value, self._pointee.get(like, "void"))
        return self._n(value)

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
            t = result.type
            if isinstance(t, llvm.LLVMStructType):  # field by field
                for name, field, ft in zip(
                    self._fields_of(result), self._fields_of(value), t.types, strict=True
                ):
                    if name != field:
                        moves.append((name, self._scalar_type(op, ft), field, field))
                continue
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
