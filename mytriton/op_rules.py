"""One registration idiom for every per-op table: canonicalization patterns, layout rules, the
axis analysis, lowering rules, interpreter and gpusim rules, C++ printers.

Each stage keeps its own ``OpRules`` table and registers a rule with the table's decorator,
next to the code of the rule: ``@LOWERING.register(tt.LoadOp)``. A rule for a base class
(``ElementwiseOp``) serves its subclasses; an op can also be keyed by its name
(``"arith.addf"``, as gpusim's table is). Registering an op twice is an error, so an op's rule
for a stage is found in one place.

A stage where an op has several rules, applied in turn (canonicalization patterns), keeps a
table whose rule is a tuple: ``append`` adds one after those the op has (the same rule twice
is an error), and ``gather`` gives those of the op's class and of all its base classes, base
classes' first (``ElementwiseOp``'s patterns, then ``AddOp``'s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from xdsl.ir import Operation

R = TypeVar("R")
E = TypeVar("E")
Key = type[Operation] | str


class OpRules(Generic[R]):
    """The rules of one stage, one per op (class or name)."""

    def __init__(self, stage: str):
        self.stage = stage
        self._rules: dict[Key, R] = {}
        self._tags: dict[Key, frozenset[str]] = {}

    def register(self, *ops: Key, tags: frozenset[str] = frozenset()) -> Callable[[R], R]:
        """Decorator: the decorated object is the rule of ``ops``; ``tags`` mark what the
        rule also accepts (e.g. ``{"vectors"}``)."""

        def register(rule: R) -> R:
            for op in ops:
                self.add(op, rule, tags)
            return rule

        return register

    def add(self, op: Key, rule: R, tags: frozenset[str] = frozenset()) -> None:
        if op in self._rules:
            name = op if isinstance(op, str) else op.__name__
            raise ValueError(f"two {self.stage} rules for {name}")
        self._rules[op] = rule
        self._tags[op] = tags

    def append(self: OpRules[tuple[E, ...]], *ops: Key) -> Callable[[E], E]:
        """Decorator for a table of several rules per op: the decorated object is added after
        the rules each of ``ops`` already has."""

        def append(rule: E) -> E:
            for op in ops:
                rules = self._rules.get(op, ())
                if rule in rules:
                    name = op if isinstance(op, str) else op.__name__
                    raise ValueError(f"{self.stage} rule {rule!r} registered twice for {name}")
                self._rules[op] = (*rules, rule)
                self._tags.setdefault(op, frozenset())
            return rule

        return append

    def gather(self: OpRules[tuple[E, ...]], op: Operation | type[Operation]) -> tuple[E, ...]:
        """Every rule of ``op`` in a table of several rules per op: its class's and each base
        class's, base classes' first, then its name's."""
        cls = op if isinstance(op, type) else type(op)
        keys: list[Key] = list(reversed(cls.__mro__))
        name = getattr(cls, "name", None)
        if isinstance(name, str):
            keys.append(name)
        return tuple(rule for key in keys for rule in self._rules.get(key, ()))

    def _key(self, op: Operation | Key) -> Key | None:
        if isinstance(op, str):
            return op if op in self._rules else None
        cls = op if isinstance(op, type) else type(op)
        for base in cls.__mro__:
            if base in self._rules:
                return base
        name = getattr(cls, "name", None)
        return name if isinstance(name, str) and name in self._rules else None

    def get(self, op: Operation | Key, default: R | None = None) -> R | None:
        """The rule of ``op`` (an op, its class or its name): its class's, a base class's, or
        its name's; ``default`` when there is none."""
        key = self._key(op)
        return default if key is None else self._rules[key]

    def has_tag(self, op: Operation | type[Operation], tag: str) -> bool:
        key = self._key(op)
        return key is not None and tag in self._tags[key]

    def __getitem__(self, op: Key) -> R:
        return self._rules[op]

    def __setitem__(self, op: Key, rule: R) -> None:
        """Replace a rule (tests plant a broken rule this way); ``add`` refuses duplicates."""
        self._rules[op] = rule
        self._tags.setdefault(op, frozenset())

    def __contains__(self, op: Operation | type[Operation]) -> bool:
        return self._key(op) is not None

    def __iter__(self) -> Iterator[Key]:
        return iter(self._rules)

    def __len__(self) -> int:
        return len(self._rules)
