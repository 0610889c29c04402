"""Verify IR and report a failure at the Python source line of the op that broke a rule.

xDSL's ``VerifyException`` does not mention locations; we verify op by op and attach the
failing op's ``loc`` (set by the frontend from the kernel's AST).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.constants import scalar_constant
from mytriton.dialects.tt.loop_attrs import module_num_stages
from mytriton.errors import IRVerificationError, SourceLocation


def source_location(op: Operation) -> SourceLocation | None:
    """The Python source position an op was generated from, if it has one."""
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return SourceLocation(loc.filename.data, loc.line.data, loc.column.data)
    return None


def _check_for_step(op: scf.ForOp) -> None:
    step = scalar_constant(op.step)
    if step is None or int(step) <= 0:
        raise VerifyException("scf.for: the step of a kernel loop must be a positive constant")


def _check_while(op: scf.WhileOp) -> None:
    """What xDSL's ``scf.while`` verifier leaves out: the *before* region ends in
    ``scf.condition`` forwarding the result types, the *after* region in ``scf.yield`` of the
    argument types (so the carried values keep their types around the loop)."""
    before, after = op.before_region.block, op.after_region.block
    arg_types = [v.type for v in op.arguments]
    result_types = [r.type for r in op.results]
    condition, yielded = before.last_op, after.last_op
    if not isinstance(condition, scf.ConditionOp):
        raise VerifyException("scf.while: the before region must end in scf.condition")
    if not isinstance(yielded, scf.YieldOp):
        raise VerifyException("scf.while: the after region must end in scf.yield")
    checks = (
        ([a.type for a in before.args], arg_types, "before-region arguments"),
        ([v.type for v in condition.args], result_types, "values scf.condition forwards"),
        ([a.type for a in after.args], result_types, "after-region arguments"),
        ([v.type for v in yielded.operands], arg_types, "values the body yields"),
    )
    for found, expected, what in checks:
        if found != expected:
            raise VerifyException(
                f"scf.while: the types of the {what} ({', '.join(map(str, found))}) must be "
                f"({', '.join(map(str, expected))})"
            )


def _check_extra(op: Operation) -> None:
    """Our rules on top of xDSL's verifiers."""
    if isinstance(op, scf.ForOp):
        _check_for_step(op)
    elif isinstance(op, scf.WhileOp):
        _check_while(op)
    elif isinstance(op, ModuleOp):
        module_num_stages(op)  # the launch's num_stages, when the module carries it


def _check_dominance(module: ModuleOp) -> None:
    """Every operand is defined before its use (xDSL does not check dominance itself)."""

    def visit(block: Block, defined: set[SSAValue]) -> None:
        # one set for the whole walk: a block's values are added on entry and taken out on
        # leaving it (copying the visible values into each nested block cost its size each)
        own: list[SSAValue] = [*block.args]
        defined.update(block.args)
        for op in block.ops:
            for v in op.operands:
                if v not in defined:
                    name = v.name_hint or "a value"
                    raise IRVerificationError(
                        f"{op.name}: operand %{name} is used before it is defined",
                        source_location(op),
                    )
            for region in op.regions:
                for inner in region.blocks:
                    visit(inner, defined)
            defined.update(op.results)
            own.extend(op.results)
        defined.difference_update(own)

    for region in module.regions:
        for block in region.blocks:
            visit(block, set())


def verify_module(module: ModuleOp) -> None:
    """Verify every op; raise ``IRVerificationError`` naming the failing op's source line."""
    try:
        module.verify()
        for op in module.walk():
            _check_extra(op)
        _check_dominance(module)
        return
    except VerifyException:
        pass
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
            _check_extra(op)
        except VerifyException as e:
            message = str(e).splitlines()[0]
            raise IRVerificationError(message, source_location(op)) from None
    module.verify()  # a failure not attributable to one op: let xDSL's report through
