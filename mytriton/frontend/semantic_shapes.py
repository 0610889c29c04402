"""The root of ``Semantic`` (semantic.py): the builder its ops go through, its typed errors,
and NumPy-style broadcasting: lower ranks left-padded with ``expand_dims(0)``, size-1
dimensions stretched with ``tt.broadcast``, scalars splatted."""

from __future__ import annotations

from collections.abc import Sequence

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import block_type, element_type
from mytriton.errors import KernelTypeError, KernelValueError
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.values import TensorValue


class ShapeSemantics:
    """Splats, ``expand_dims`` and broadcasts of runtime values."""

    def __init__(self, builder: IRBuilder):
        self.b = builder

    def type_error(self, msg: str) -> KernelTypeError:
        return KernelTypeError(msg, self.b.loc)

    # ---- shapes ----

    def splat_to(self, v: TensorValue, shape: Sequence[int]) -> TensorValue:
        if not shape or v.shape == tuple(shape):
            return v
        if v.is_block:
            return self.broadcast_to(v, shape)
        t = block_type(v.type, shape)
        return TensorValue(self.b.insert(tt.SplatOp(v.handle, t)).result)

    def expand_dims(self, v: TensorValue, axis: int) -> TensorValue:
        rank = len(v.shape)
        if axis < 0:
            axis += rank + 1
        if not 0 <= axis <= rank:
            raise KernelValueError(f"axis {axis} out of range for a rank-{rank} value", self.b.loc)
        if not v.is_block:
            return self.splat_to(v, (1,))
        return TensorValue(self.b.insert(tt.ExpandDimsOp(v.handle, axis)).result)

    def broadcast_to(self, v: TensorValue, shape: Sequence[int]) -> TensorValue:
        shape = tuple(shape)
        if v.shape == shape:
            return v
        if not v.is_block:
            return self.splat_to(v, shape)
        if len(v.shape) > len(shape):
            raise self.type_error(f"cannot broadcast shape {list(v.shape)} to {list(shape)}")
        while len(v.shape) < len(shape):
            v = self.expand_dims(v, 0)
        for a, b in zip(v.shape, shape, strict=True):
            if a != b and a != 1:
                raise self.type_error(f"cannot broadcast shape {list(v.shape)} to {list(shape)}")
        if v.shape == shape:
            return v
        t = block_type(element_type(v.type), shape)
        return TensorValue(self.b.insert(tt.BroadcastOp(v.handle, t)).result)

    def broadcast_shapes(self, *shapes: tuple[int, ...]) -> tuple[int, ...]:
        rank = max((len(s) for s in shapes), default=0)
        out = [1] * rank
        for s in shapes:
            padded = (1,) * (rank - len(s)) + s
            for i, d in enumerate(padded):
                if d == 1:
                    continue
                if out[i] not in (1, d):
                    raise self.type_error(
                        "incompatible shapes for broadcasting: "
                        + " and ".join(str(list(x)) for x in shapes)
                    )
                out[i] = d
        return tuple(out)

    def broadcast_all(self, *vs: TensorValue) -> list[TensorValue]:
        shape = self.broadcast_shapes(*(v.shape for v in vs))
        return [self.broadcast_to(v, shape) for v in vs]
