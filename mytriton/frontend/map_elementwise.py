"""``tl.map_elementwise``: a ``@jit`` scalar function applied to every element of blocks.

Triton builds a region op whose body is the function compiled on scalars. Here the function is
compiled on scalars too, into a scratch block, and that straight-line body is then replayed on
the blocks, op by op (each elementwise `tt` op takes blocks as well as scalars), so no backend
needs a new op. Only bodies of elementwise ops and constants can be replayed so: a
data-dependent ``if``/loop (an ``scf`` op), a load, a reduction or any other op is a typed error
at the call's line naming the op and its line.

``pack=p`` gives the function ``p`` elements of each input at once (``a0..a{p-1}, b0...``) and
takes ``p`` values of each result back (``r0_0..r0_{p-1}, r1_0...``). The elements a Triton GPU
kernel groups depend on its layout; here they are ``p`` consecutive elements along the last
dimension, which gives Triton's result for every function that treats its packed elements
alike (each result element a function of its own input elements).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Block, Operation, SSAValue

from mytriton.dialects.tt.constants import UnsignedConstantOp
from mytriton.dialects.tt.elementwise import ElementwiseOp
from mytriton.dialects.tt.types import block_type, element_type
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

_CONSTANTS = (arith.ConstantOp, UnsignedConstantOp)


def _where(op: Operation) -> str:
    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return f" (line {loc.line.data})"
    return ""


class MapElementwiseBuiltins:
    """``tl.map_elementwise``; ``Builtins`` inherits it (and gives it the shape builtins)."""

    sem: Semantic
    call_jit: Callable[[Any, list[Any]], Any] | None = None

    def map_elementwise(self, scalar_fn: Any, *args: Any, pack: Any = 1) -> Any:
        what = "tl.map_elementwise"
        loc = self.sem.b.loc
        fn = scalar_fn.value if isinstance(scalar_fn, core.constexpr) else scalar_fn
        if getattr(fn, "is_mytriton_jit", False) is not True:
            raise KernelTypeError(f"{what}: scalar_fn must be a @triton.jit function", loc)
        p = pack.value if isinstance(pack, core.constexpr) else pack
        if isinstance(p, TensorValue):
            raise ConstexprError(f"{what}: pack must be a compile-time constant", loc)
        if not isinstance(p, int) or isinstance(p, bool) or p < 1 or p & (p - 1):
            raise KernelValueError(f"{what}: pack must be a power of two >= 1, got {p!r}", loc)
        inputs = [self.sem.to_tensor(a) for a in args]
        if not inputs or not any(v.is_block for v in inputs):
            raise KernelTypeError(f"{what} needs at least one block among its inputs", loc)
        if any(v.is_pointer for v in inputs):
            raise KernelTypeError(f"{what} of pointers is not supported", loc)
        blocks = self.sem.broadcast_all(*inputs)
        shape = blocks[0].shape
        if shape[-1] % p:
            raise KernelValueError(
                f"{what}: pack={p} must divide the last dimension of the inputs, {list(shape)}",
                loc,
            )
        members = [self._unpack(v, p) for v in blocks]  # per input, p blocks
        scratch = Block(arg_types=[element_type(v.type) for v in blocks for _ in range(p)])
        results, single = self._scalar_body(fn, scratch)
        if len(results) % p:
            raise KernelTypeError(
                f"{what}: with pack={p} the function must return a multiple of {p} values, got "
                f"{len(results)}",
                loc,
            )
        env: dict[SSAValue, TensorValue] = {
            arg: m for arg, m in zip(scratch.args, [m for ms in members for m in ms], strict=True)
        }
        try:
            self._replay(scratch, env, members[0][0].shape)
            flat = [self._mapped(r, env, members[0][0].shape) for r in results]
        finally:
            for op in reversed(list(scratch.ops)):
                scratch.detach_op(op)
                op.erase(safe_erase=False)
        groups = [flat[i : i + p] for i in range(0, len(flat), p)]
        for group in groups:
            if len({v.dtype for v in group}) > 1:
                raise KernelTypeError(
                    f"{what}: type mismatch in unpacked results: "
                    + ", ".join(str(v.dtype) for v in group),
                    loc,
                )
        out = [self._repack(group, shape) for group in groups]
        return out[0] if single else tuple(out)

    # ---- the scalar body ----

    def _scalar_body(self, fn: Any, scratch: Block) -> tuple[list[SSAValue], bool]:
        """``fn`` compiled on the scratch block's scalar arguments: its results, and whether
        it returned one value rather than a tuple."""
        sem, loc = self.sem, self.sem.b.loc
        call = self.call_jit
        assert call is not None, "the code generator sets call_jit"
        args = [TensorValue(a) for a in scratch.args]
        with sem.b.at_end_of(scratch):
            out = call(fn, args)
            values = list(out) if isinstance(out, tuple) else [out]
            handles = []
            with sem.b.located(loc):
                for i, v in enumerate(values):
                    if isinstance(v, core.constexpr):
                        v = v.value
                    if isinstance(v, (bool, int, float)):
                        v = sem.to_tensor(v)
                    if not isinstance(v, TensorValue) or v.is_block:
                        raise KernelTypeError(
                            f"tl.map_elementwise: the function must return scalars, got {v!r} "
                            f"for result {i}",
                            loc,
                        )
                    handles.append(v.handle)
        return handles, not isinstance(out, tuple)

    def _replay(
        self, scratch: Block, env: dict[SSAValue, TensorValue], shape: Sequence[int]
    ) -> None:
        """Each op of the scalar body again, on blocks of ``shape``."""
        b = self.sem.b
        for op in scratch.ops:
            if isinstance(op, _CONSTANTS):
                continue  # splatted where used
            if not isinstance(op, ElementwiseOp):
                raise KernelTypeError(
                    f"tl.map_elementwise: `{op.name}`{_where(op)} in the mapped function is not "
                    "elementwise: only straight-line elementwise code is supported (no "
                    "data-dependent if/loop, memory access, reduction or shape change)",
                    b.loc,
                )
            operands = [self._mapped(v, env, shape) for v in op.operands]
            new = op.create(
                operands=[v.handle for v in operands],
                result_types=[block_type(t, shape) for t in op.result_types],
                properties=dict(op.properties),
                attributes=dict(op.attributes),
            )
            b.insert(new)
            new.location = op.location
            for old, result in zip(op.results, new.results, strict=True):
                env[old] = TensorValue(result)

    def _mapped(
        self, v: SSAValue, env: dict[SSAValue, TensorValue], shape: Sequence[int]
    ) -> TensorValue:
        """The block standing for scalar ``v``: replayed, or a constant (or a value from
        outside the body) splatted."""
        if v in env:
            return env[v]
        owner = v.owner
        if isinstance(owner, _CONSTANTS) and owner.parent_block() is not None:
            clone = self.sem.b.insert(owner.clone())
            value = self.sem.splat_to(TensorValue(clone.results[0]), shape)
        else:
            value = self.sem.splat_to(TensorValue(v), shape)
        env[v] = value
        return value

    # ---- pack ----

    def _unpack(self, v: TensorValue, p: int) -> list[TensorValue]:
        """``v`` as ``p`` blocks: member ``j`` holds the elements at ``j`` mod ``p`` along the
        last dimension."""
        parts = [v]
        count = 1
        while count < p:
            split: list[TensorValue] = []
            for x in parts:
                *lead, last = x.shape
                pairs = self._reshape(x, (*lead, last // 2, 2), "tl.map_elementwise")  # type: ignore[attr-defined]
                split.extend(self.split(pairs))  # type: ignore[attr-defined]
            # after the k-th split, index bit k of the member is the innermost
            parts = [split[2 * (j % count) + j // count] for j in range(2 * count)]
            count *= 2
        return parts

    def _repack(self, members: list[TensorValue], shape: tuple[int, ...]) -> TensorValue:
        """The inverse of ``_unpack``: ``p`` blocks interleaved back into ``shape``."""
        parts = members
        while len(parts) > 1:
            half = len(parts) // 2
            parts = [self.interleave(parts[j], parts[j + half]) for j in range(half)]  # type: ignore[attr-defined]
        return self._reshape(parts[0], shape, "tl.map_elementwise")  # type: ignore[attr-defined, no-any-return]
