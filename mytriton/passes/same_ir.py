"""Whether two ops are the same IR, without printing them: where a pass reuses earlier work
only for a module that would print as the one that work was done on (``lower_module``).

Printing both modules and comparing the texts took two prints of a laid-out kernel (10 ms each
for an attention kernel); this walk compares the same things (op names, attributes and
properties in their order, result and argument types, names, locations, which value each
operand is, successors) in a fraction of that. It is at least as strict as the texts: equal
attributes print alike, while a few unequal ones might print alike (a NaN float).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, SSAValue


def same_ir(a: Operation, b: Operation) -> bool:
    """Whether ``a`` and ``b`` (with everything nested in them) are the same IR: they print
    the same text. Values defined outside ``a`` must be the same objects in ``b``."""
    return _Comparison().ops(a, b)


class _Comparison:
    def __init__(self) -> None:
        self.values: dict[SSAValue, SSAValue] = {}  # a's value -> b's value it stands for
        self.blocks: dict[Block, Block] = {}

    def value(self, a: SSAValue, b: SSAValue) -> bool:
        return self.values.get(a, a) is b

    def named(self, a: SSAValue, b: SSAValue) -> bool:
        """``a`` and ``b`` alike where they are defined (type and name), then paired."""
        if a.type != b.type or a.name_hint != b.name_hint:
            return False
        self.values[a] = b
        return True

    def ops(self, a: Operation, b: Operation) -> bool:
        if (
            type(a) is not type(b)
            or a.name != b.name
            or a.location != b.location
            or len(a.operands) != len(b.operands)
            or len(a.results) != len(b.results)
            or len(a.regions) != len(b.regions)
            or len(a.successors) != len(b.successors)
            or list(a.properties.items()) != list(b.properties.items())
            or list(a.attributes.items()) != list(b.attributes.items())
        ):
            return False
        if not all(map(self.value, a.operands, b.operands)):
            return False
        for x, y in zip(a.successors, b.successors, strict=True):
            if self.blocks.get(x, x) is not y:
                return False
        for ra, rb in zip(a.regions, b.regions, strict=True):
            if len(ra.blocks) != len(rb.blocks):
                return False
            self.blocks.update(zip(ra.blocks, rb.blocks, strict=True))
            for x, y in zip(ra.blocks, rb.blocks, strict=True):
                if not self.block(x, y):
                    return False
        return all(map(self.named, a.results, b.results))

    def block(self, a: Block, b: Block) -> bool:
        if len(a.args) != len(b.args) or not all(map(self.named, a.args, b.args)):
            return False
        x, y = a.first_op, b.first_op
        while x is not None and y is not None:
            if not self.ops(x, y):
                return False
            x, y = x.next_op, y.next_op
        return x is None and y is None
