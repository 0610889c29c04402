"""Verify IR and report a failure at the Python source line of the op that broke a rule.

xDSL's ``VerifyException`` does not mention locations; we verify op by op and attach the
failing op's ``loc`` (set by the frontend from the kernel's AST).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt_constants import scalar_constant
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


def _check_dominance(module: ModuleOp) -> None:
    """Every operand is defined before its use (xDSL does not check dominance itself)."""

    def visit(block: Block, visible: set[SSAValue]) -> None:
        defined = set(visible) | set(block.args)
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

    for region in module.regions:
        for block in region.blocks:
            visit(block, set())


def verify_module(module: ModuleOp) -> None:
    """Verify every op; raise ``IRVerificationError`` naming the failing op's source line."""
    try:
        module.verify()
        for op in module.walk():
            if isinstance(op, scf.ForOp):
                _check_for_step(op)
        _check_dominance(module)
        return
    except VerifyException:
        pass
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
            if isinstance(op, scf.ForOp):
                _check_for_step(op)
        except VerifyException as e:
            message = str(e).splitlines()[0]
            raise IRVerificationError(message, source_location(op)) from None
    module.verify()  # a failure not attributable to one op: let xDSL's report through
