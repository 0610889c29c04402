"""What the code generator needs to know about statements before compiling them: the names they
assign (the variables runtime control flow carries) and how they may leave their block
(``return``, ``break``, ``continue``: early_exit.py)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

# The exits a statement may take, as the flags early_exit.py keeps in the scope (names no
# Python variable can have).
BREAK = "$break"
CONTINUE = "$continue"
RETURN = "$return"


def assigned_names(stmts: Sequence[ast.stmt]) -> set[str]:
    """Names a statement list assigns (loop targets included), for loop-carried analysis."""
    names: set[str] = set()

    def targets(t: ast.expr) -> Iterator[str]:
        if isinstance(t, ast.Name):
            yield t.id
        elif isinstance(t, (ast.Tuple, ast.List)):
            for e in t.elts:
                yield from targets(e)

    for stmt in stmts:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    names.update(targets(t))
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For)):
                names.update(targets(n.target))
    return names


def exits(stmts: Sequence[ast.stmt]) -> set[str]:
    """The exits that may leave a statement list: a ``return`` anywhere, a ``break`` or
    ``continue`` not inside a loop of its own."""
    found: set[str] = set()

    def walk(node: ast.AST, in_loop: bool) -> None:
        if isinstance(node, ast.Return):
            found.add(RETURN)
        elif isinstance(node, ast.Break) and not in_loop:
            found.add(BREAK)
        elif isinstance(node, ast.Continue) and not in_loop:
            found.add(CONTINUE)
        for child in ast.iter_child_nodes(node):
            walk(child, in_loop or isinstance(node, (ast.For, ast.While)))

    for s in stmts:
        walk(s, False)
    return found


def loop_exits(body: Sequence[ast.stmt]) -> list[str]:
    """The flags a runtime loop with this body carries from one iteration to the next (so that
    its ``scf.while`` stops): ``$break`` and ``$return``, if the body may take them."""
    found = exits(body)
    return [f for f in (BREAK, RETURN) if f in found]


def always_exits(stmts: Sequence[ast.stmt]) -> bool:
    """Whether a statement list leaves its block on every path: a ``return``, ``break`` or
    ``continue`` at its top level, or an ``if`` both of whose branches always exit."""
    for s in stmts:
        if isinstance(s, (ast.Return, ast.Break, ast.Continue)):
            return True
        if isinstance(s, ast.If) and always_exits(s.body) and always_exits(s.orelse):
            return True
    return False


def absorb_rest(stmt: ast.If, rest: Sequence[ast.stmt], body_exits: bool) -> ast.If:
    """``if c: A`` followed by ``rest``, where ``A`` (or else the ``else`` branch) always
    exits, as the equivalent ``if c: A else: ...; rest`` (or ``if c: ...; rest else: ...``)."""
    if body_exits:
        new = ast.If(test=stmt.test, body=stmt.body, orelse=[*stmt.orelse, *rest])
    else:
        new = ast.If(test=stmt.test, body=[*stmt.body, *rest], orelse=stmt.orelse)
    return ast.copy_location(new, stmt)


def has_call(expr: ast.expr) -> bool:
    """Whether evaluating ``expr`` may call something (a load...): a loop's condition that does
    is not evaluated again once the loop is left."""
    return any(isinstance(n, ast.Call) for n in ast.walk(expr))
