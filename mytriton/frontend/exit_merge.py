"""The merge after an ``scf.if`` whose branches may exit (``EarlyExitMixin.exit_fork``): what
each branch yields for each flag, returned value and variable (a placeholder where a branch
that exited lacks it), and what the scope holds after the ``if``."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from xdsl.dialects import scf
from xdsl.ir import Block

from mytriton.errors import KernelTypeError
from mytriton.frontend.carried import Carried, describe_carried, flat, rebuild
from mytriton.frontend.exit_values import FLAGS, ir_name, is_result_key, value_words
from mytriton.frontend.tuple_values import TupleValue, align, carriable
from mytriton.frontend.values import CompositeValue, TensorValue

if TYPE_CHECKING:
    from mytriton.frontend.early_exit import EarlyExitMixin


class ExitMerge:
    """The results of one ``exit_fork``: what each branch yields for each name, and what the
    scope holds after it."""

    def __init__(
        self, gen: EarlyExitMixin, tb: Block, eb: Block, before: dict[str, Any], node: ast.AST
    ):
        self.gen, self.tb, self.eb, self.before, self.node = gen, tb, eb, before, node
        self.pairs: list[tuple[str, Carried, Carried]] = []
        self.same: dict[str, Any] = {}
        self.dropped: dict[str, str] = {}

    def flag(self, k: str, a: Any, b: Any) -> None:
        if a is b:  # both True, both False (absent) or one runtime value
            if a is not False:
                self.same[k] = a
            return
        with self.gen.b.at_end_of(self.tb):
            a = self.gen._i1(a)
        with self.gen.b.at_end_of(self.eb):
            b = self.gen._i1(b)
        self.pairs.append((k, a, b))

    def both(self, n: str, a: Any, b: Any) -> None:
        from mytriton.frontend.control_flow import _same_compile_time_value

        if a is b or _same_compile_time_value(a, b):
            self.same[n] = a
            return
        a, b = carriable(a), carriable(b)  # a tuple of runtime values: its leaves
        a, b = align(a, b, self.gen._numbers_of(n, self.tb, self.eb, self.node))
        if isinstance(a, CompositeValue) or isinstance(b, CompositeValue):
            if not (isinstance(a, CompositeValue) and a.same_type(b)):
                if is_result_key(n):
                    raise KernelTypeError(
                        f"`{self.gen.src.qualname}` returns {describe_carried(a)} on one path "
                        f"but {describe_carried(b)} on another; every `return` must give one "
                        "type",
                        self.gen.loc(self.node),
                    )
                raise KernelTypeError(
                    f"`{n}` is {describe_carried(a)} on one path but {describe_carried(b)} on "
                    "the other; it must have one type after the runtime `if`",
                    self.gen.loc(self.node),
                )
            self.pairs.append((n, a, b))
        elif is_result_key(n):
            try:
                self.pairs.append((n, *self.gen._if_values(n, a, b, self.tb, self.eb, self.node)))
            except KernelTypeError as e:
                raise KernelTypeError(
                    f"`{self.gen.src.qualname}` returns {value_words(a)} on one path but "
                    f"{value_words(b)} on another; every `return` must give one type",
                    self.gen.loc(self.node),
                ) from e.__cause__
        else:
            self.pairs.append((n, *self.gen._if_values(n, a, b, self.tb, self.eb, self.node)))

    def one_sided(self, n: str, live: Any, other: Any, other_block: Block, then_live: bool) -> None:
        """``n`` after the ``if`` is ``live``, the value of one branch; ``other`` (of the other
        branch, which returned or lacks ``n``) is never read, a placeholder may stand for it."""
        live, other = carriable(live), carriable(other)
        if live is None:
            if other is not None or n in self.before:
                self.dropped[n] = "it is not assigned on the path that gets past the `if`"
            return
        if not isinstance(live, (TensorValue, CompositeValue)):
            self.same[n] = live
            return
        if isinstance(live, TupleValue) and not live.same_type(other):
            with self.gen.b.at_end_of(other_block):  # a placeholder for each runtime element
                leaves = [self.gen.placeholder(v, self.before) for v in live.leaves()]
            if any(v is None for v in leaves):
                self.dropped[n] = (
                    "it holds a pointer assigned on only one path; assign it before the `if`"
                )
                return
            other = live.with_leaves([v for v in leaves if v is not None])
        if isinstance(live, CompositeValue):
            if not (isinstance(other, CompositeValue) and live.same_type(other)):
                self.dropped[n] = "it is assigned on only one path; assign it before the `if`"
                return
            stand_in: Carried = other
        elif isinstance(other, TensorValue) and other.type == live.type:
            stand_in = other
        else:
            with self.gen.b.at_end_of(other_block):
                found = self.gen.placeholder(live, self.before)
            if found is None:
                self.dropped[n] = (
                    "it holds a pointer assigned on only one path; assign it before the `if`"
                )
                return
            stand_in = found
        self.pairs.append((n, live, stand_in) if then_live else (n, stand_in, live))

    def emit(self, flag: TensorValue) -> None:
        gen = self.gen
        with gen.b.located(gen.loc(self.node)):
            self._emit(flag)

    def _emit(self, flag: TensorValue) -> None:
        gen = self.gen
        with gen.b.at_end_of(self.tb):
            gen.b.insert(scf.YieldOp(*(v.handle for v in flat([a for _, a, _ in self.pairs]))))
        with gen.b.at_end_of(self.eb):
            gen.b.insert(scf.YieldOp(*(v.handle for v in flat([b for _, _, b in self.pairs]))))
        like = [a for _, a, _ in self.pairs]
        op = gen.b.insert(scf.IfOp(flag.handle, [v.type for v in flat(like)], [self.tb], [self.eb]))
        names = [n for n, _, _ in self.pairs]
        gen.scope.update(self.same)
        gen.scope.update(
            zip(names, rebuild([ir_name(n) for n in names], like, op.results), strict=True)
        )
        for k in FLAGS:
            if k not in self.same and k not in names:
                gen.scope.pop(k, None)
        where = gen.loc(self.node)
        line = where.line if where is not None else "?"
        for n, why in self.dropped.items():
            gen.scope.pop(n, None)
            gen.not_defined_after[n] = (
                f"`{n}` is not defined after the runtime `if` at line {line}: {why}"
            )
