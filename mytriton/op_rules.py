"""One registration idiom for every per-op table: layout rules, lowering rules, interpreter and
gpusim rules, C++ printers.

Each stage keeps its own ``OpRules`` table and registers a rule with the table's decorator,
next to the code of the rule: ``@LOWERING.register(tt.LoadOp)``. A rule for a base class
(``ElementwiseOp``) serves its subclasses; ops of upstream dialects can also be keyed by their
name (``"arith.addf"``), for tables that work on parsed IR of any origin. Registering an op
twice is an error, so an op's rule for a stage is found in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from xdsl.ir import Operation

R = TypeVar("R")
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
