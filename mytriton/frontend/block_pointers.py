"""Block pointers (``tl.make_block_ptr``/``tl.advance``) and tensor descriptors
(``tl.make_tensor_descriptor``, ``desc.load``/``desc.store``), resolved in the frontend.

Neither is a runtime type here: a block pointer is a record of runtime scalars (base pointer,
int64 shape, strides and offsets) plus its compile-time block shape and order, and a load or a
store through it expands into ordinary ``tt`` ops, as Triton's RewriteTensorPointer pass does::

    offs_d  = off_d + arange(0, B_d)            (int64, along dimension d)
    pointer = base + sum_d offs_d * stride_d
    mask    = AND over the checked dims of (0 <= offs_d) & (offs_d < shape_d)

A tensor descriptor is the same record (int32 shape, int64 strides) whose loads and stores
always check every dimension (out-of-bounds elements read as the padding, writes are dropped:
TMA's behaviour); ``desc.gather``/``desc.scatter`` pick rows of one (``descriptor_gather.py``),
``desc.atomic_add`` & co. combine a block into one (``descriptor_atomics.py``).
In a kernel ``desc.shape``/``desc.strides`` are its runtime scalars and ``desc.block_shape`` its
compile-time sizes, as in Triton. Runtime loops and ``if``s carry a record as its scalars
(``CompositeValue``).
Argument checks and messages follow Triton 3.6's ``semantic.py``.

Here: ``BlockPointerBuiltins`` (the arguments, ``tl.make_block_ptr``/``tl.advance``, and the
masked window that loads and stores through either record expand into). The records
themselves: block_pointer_values.py; the descriptors' builtins: tensor_descriptors.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import numel_problem
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from mytriton.frontend.block_pointer_values import (
    Addressing,
    BlockPointer,
    Options,
    TensorDescriptor,
    no_options,
)
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import CompositeValue, TensorValue, unwrap_constexpr
from mytriton.language import core

_INT32 = (-(2**31), 2**31)
_INT64 = (-(2**63), 2**63)


def _is_zero(value: Any) -> bool:
    v = unwrap_constexpr(value)
    return isinstance(v, int) and not isinstance(v, bool) and v == 0


def _known_int(v: TensorValue) -> int | None:
    """The value of an integer constant, ``None`` for anything else."""
    owner = v.handle.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


class BlockPointerBuiltins:
    """``tl.make_block_ptr``, ``tl.advance`` and ``tl.load``/``tl.store`` through a block
    pointer (a mixin of ``Builtins``, under ``TensorDescriptorBuiltins``)."""

    sem: Semantic

    # ---- errors and arguments ----

    def _type_error(self, msg: str) -> KernelTypeError:
        return KernelTypeError(msg, self.sem.b.loc)

    def _value_error(self, msg: str) -> KernelValueError:
        return KernelValueError(msg, self.sem.b.loc)

    def _list(self, value: Any, what: str) -> list[Any]:
        """A tuple/list argument (a single value is a list of one, as Triton takes it)."""
        value = unwrap_constexpr(value)
        if isinstance(value, TensorDescriptor):
            raise self._type_error(f"{what} must be a tuple of integers, got {value.describe()}")
        if isinstance(value, (tuple, list)):
            return list(value)
        return [value]

    def _index(self, value: Any, what: str, dtype: core.dtype) -> TensorValue:
        """A shape, stride or offset as a runtime ``dtype`` scalar: a Python int in range, or an
        integer scalar converted (an int64 where an int32 is expected is refused, as Triton
        does, rather than narrowed)."""
        value = unwrap_constexpr(value)
        if isinstance(value, TensorValue):
            if value.is_block:
                raise self._type_error(
                    f"{what} must be scalars, got a block of shape {list(value.shape)}"
                )
            if value.dtype.kind not in ("int", "bool"):
                raise self._type_error(f"{what} must be integer scalars, got {value.dtype}")
            if dtype == core.int32 and value.dtype in (core.int64, core.uint64):
                raise self._type_error(
                    f"{what} must be 32-bit integers, got a {value.dtype} scalar; add "
                    "`.to(tl.int32)` (Triton's rule for block offsets)"
                )
            return self.sem.cast(value, dtype)
        return self.sem.constant(self._python_int(value, what, dtype), dtype)

    def _python_int(self, value: Any, what: str, dtype: core.dtype) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._type_error(f"{what} must be integers, got {value!r}")
        lo, hi = _INT32 if dtype == core.int32 else _INT64
        if not lo <= value < hi:
            raise self._value_error(f"{what} must fit in {dtype}, got {value}")
        return value

    def _offset(self, value: Any, what: str) -> TensorValue:
        """A block pointer offset: an int32 (Triton's type), kept as an int64 (as Triton's
        rewrite does) so that ``tl.advance`` never wraps."""
        value = unwrap_constexpr(value)
        if not isinstance(value, TensorValue):
            return self.sem.constant(self._python_int(value, what, core.int32), core.int64)
        return self.sem.cast(self._index(value, what, core.int32), core.int64)

    def _block_shape(self, value: Any, rank: int | None, what: str) -> tuple[int, ...]:
        dims = [unwrap_constexpr(d) for d in self._list(value, what)]
        for i, d in enumerate(dims):
            if isinstance(d, TensorValue):
                raise ConstexprError(
                    f"{what} must be compile-time integers (tl.constexpr); element {i} is a "
                    "runtime value",
                    self.sem.b.loc,
                )
            if isinstance(d, bool) or not isinstance(d, int):
                raise self._type_error(f"{what} element {i} must be an integer, got {d!r}")
            if d <= 0 or d & (d - 1):
                raise self._value_error(f"{what} element {i} must be a power of 2, got {d}")
        problem = numel_problem(dims)
        if problem:
            raise self._value_error(f"{what} {dims}: {problem}")
        if rank is not None and len(dims) != rank:
            raise self._value_error(f"{what} has {len(dims)} dimensions, expected {rank}")
        return tuple(dims)

    def _base(self, base: Any, what: str) -> TensorValue:
        if isinstance(base, BlockPointer):
            raise self._type_error(f"{what}: `base` must be a plain pointer, not a block pointer")
        if not isinstance(base, TensorValue) or not base.is_pointer or base.is_block:
            got = base.describe() if isinstance(base, CompositeValue) else repr(base)
            raise self._type_error(
                f"{what}: `base` must be a scalar pointer (an array argument), got {got}"
            )
        return base

    def _boundary_check(self, value: Any, rank: int, what: str) -> tuple[int, ...]:
        """Triton's canonical form: sorted, distinct dimensions in ``[0, rank)``."""
        value = unwrap_constexpr(value)
        if not value:
            return ()
        dims = [unwrap_constexpr(d) for d in self._list(value, f"{what}: boundary_check")]
        for d in dims:
            if isinstance(d, bool) or not isinstance(d, int):
                raise self._type_error(
                    f"{what}: boundary_check must hold compile-time dimension numbers, got {d!r}"
                )
            if not 0 <= d < rank:
                raise self._value_error(
                    f"{what}: boundary_check dimension {d} is out of range for a rank-{rank} "
                    "block pointer"
                )
        if len(set(dims)) != len(dims):
            raise self._value_error(f"{what}: duplicate dimension in boundary_check {dims}")
        return tuple(sorted(dims))

    def _padding(self, value: Any, allowed: tuple[str, ...], what: str) -> str:
        p = unwrap_constexpr(value)
        if p is None:
            p = ""
        if p not in allowed:
            raise self._value_error(
                f"{what}: padding_option must be one of "
                f"{', '.join(repr(a) for a in allowed)}, got {p!r}"
            )
        return str(p)

    def no_block_pointer_options(self, what: str, boundary_check: Any, padding: Any) -> None:
        """``boundary_check``/``padding_option`` given to a load or store through ordinary
        pointers (Triton refuses them too)."""
        if unwrap_constexpr(boundary_check) or unwrap_constexpr(padding):
            raise self._value_error(
                f"{what}: `boundary_check` and `padding_option` are not supported through a "
                "block of pointers or a scalar pointer (the tensor's bounds are unknown); use "
                "`mask` and `other`, or a block pointer (tl.make_block_ptr)"
            )

    # ---- block pointers ----

    def make_block_ptr(
        self, base: Any, shape: Any, strides: Any, offsets: Any, block_shape: Any, order: Any
    ) -> BlockPointer:
        what = "tl.make_block_ptr"
        ptr = self._base(base, what)
        shapes = self._list(shape, f"{what}: shape")
        stride_list = self._list(strides, f"{what}: strides")
        offset_list = self._list(offsets, f"{what}: offsets")
        dims = self._block_shape(block_shape, None, f"{what}: block_shape")
        perm = [unwrap_constexpr(o) for o in self._list(order, f"{what}: order")]
        if any(isinstance(o, TensorValue) for o in perm):
            raise ConstexprError(f"{what}: order must be compile-time integers", self.sem.b.loc)
        if sorted(perm) != list(range(len(perm))):
            raise self._value_error(
                f"{what}: order must be a permutation of (0, ..., {len(perm) - 1}), got {perm}"
            )
        lengths = {
            "shape": len(shapes),
            "strides": len(stride_list),
            "offsets": len(offset_list),
            "order": len(perm),
        }
        if not dims or any(n != len(dims) for n in lengths.values()):
            listed = ", ".join(f"{k} {n}" for k, n in lengths.items())
            raise self._value_error(
                f"{what}: shape, strides, offsets, block_shape and order must have the same "
                f"length (block_shape {len(dims)}, {listed})"
            )
        return BlockPointer(
            base=ptr,
            shape=tuple(self._index(s, f"{what}: shape", core.int64) for s in shapes),
            strides=tuple(self._index(s, f"{what}: strides", core.int64) for s in stride_list),
            offsets=tuple(self._offset(o, f"{what}: offsets") for o in offset_list),
            block_shape=dims,
            order=tuple(perm),
        )

    def advance(self, base: Any, offsets: Any) -> BlockPointer:
        what = "tl.advance"
        if not isinstance(base, BlockPointer):
            got = base.describe() if isinstance(base, CompositeValue) else repr(base)
            raise self._type_error(
                f"{what} expects a block pointer (from tl.make_block_ptr), got {got}"
            )
        deltas = self._list(offsets, f"{what}: offsets")
        if len(deltas) != len(base.block_shape):
            raise self._value_error(
                f"{what}: {len(deltas)} offsets for a rank-{len(base.block_shape)} block pointer"
            )
        moved = []
        for off, d in zip(base.offsets, deltas, strict=True):
            if _is_zero(d):  # the offset stays (a loop then need not carry it)
                moved.append(off)
            else:
                moved.append(self.sem.arith("+", off, self._offset(d, f"{what}: offsets")))
        return replace(base, offsets=tuple(moved))

    def _window(
        self,
        base: TensorValue,
        starts: Sequence[TensorValue],
        strides: Sequence[TensorValue],
        shape: Sequence[TensorValue],
        block_shape: tuple[int, ...],
        checked: Sequence[int],
    ) -> tuple[TensorValue, TensorValue | None]:
        """The pointers of a ``block_shape`` window at ``starts`` (int64 scalars), and the mask
        of its elements inside ``shape`` along the ``checked`` dimensions."""
        sem = self.sem
        rank = len(block_shape)
        window = Addressing()
        for d, size in enumerate(block_shape):
            along = sem.arith("+", starts[d], self._arange(size))  # int64 [size]
            for axis in range(rank):
                if axis != d:
                    along = sem.expand_dims(along, axis)
            self._address_along(window, along, strides[d], shape[d] if d in checked else None)
        return self._addressed(base, window, block_shape)

    def _address_along(
        self,
        window: Addressing,
        along: TensorValue,
        stride: TensorValue,
        limit: TensorValue | None,
    ) -> None:
        """Add ``along * stride`` (``along``: int64 indices of one dimension) to ``window``'s
        offset and, if a ``limit`` is given, ``0 <= along < limit`` to its mask."""
        sem = self.sem
        stride = sem.cast(stride, core.int64)
        # a stride known to be 1 is not multiplied by: the offsets stay visibly contiguous
        term = along if _known_int(stride) == 1 else sem.arith("*", along, stride)
        window.offset = term if window.offset is None else sem.arith("+", window.offset, term)
        if limit is not None:
            inside = sem.bitwise(
                "&",
                sem.compare(">=", along, sem.constant(0, core.int64)),
                sem.compare("<", along, sem.cast(limit, core.int64)),
            )
            window.mask = inside if window.mask is None else sem.bitwise("&", window.mask, inside)

    def _addressed(
        self, base: TensorValue, window: Addressing, block_shape: tuple[int, ...]
    ) -> tuple[TensorValue, TensorValue | None]:
        """``base`` plus ``window``'s offsets, and its mask, broadcast to ``block_shape``."""
        sem = self.sem
        assert window.offset is not None
        pointers = sem.broadcast_to(sem.arith("+", base, window.offset), block_shape)
        mask = window.mask
        if mask is not None:
            mask = sem.broadcast_to(mask, block_shape)
        return pointers, mask

    def _arange(self, size: int) -> TensorValue:
        return TensorValue(self.sem.b.insert(tt.MakeRangeOp(0, size)).result)

    def _masked_load(
        self,
        pointers: TensorValue,
        mask: TensorValue | None,
        padding: str,
        options: Options,
        mapped: tuple[SSAValue, Sequence[SSAValue]] | None = None,
    ) -> TensorValue:
        """The load of ``pointers`` where ``mask`` (else ``padding``); ``mapped``: the tensor
        map and coordinates of a host descriptor's block (``tt.load``'s doc)."""
        pointee = pointers.dtype.element_ty  # type: ignore[attr-defined]
        tensor_map, coords = mapped if mapped is not None else (None, ())
        if mask is None:
            op = self.sem.b.insert(tt.LoadOp(pointers.handle, tensor_map=tensor_map, coords=coords))
        else:
            fill = (
                self.sem.constant(float("nan"), pointee)
                if padding == "nan"
                else self.sem.constant(0, pointee)
            )
            other = self.sem.splat_to(fill, pointers.shape)
            op = self.sem.b.insert(
                tt.LoadOp(pointers.handle, mask.handle, other.handle, tensor_map, coords)
            )
        options(op)
        return TensorValue(op.result)

    def _masked_store(
        self,
        pointers: TensorValue,
        value: TensorValue,
        mask: TensorValue | None,
        options: Options,
        tma: tuple[SSAValue, list[SSAValue]] | None = None,
    ) -> None:
        """``tt.store``; ``tma``: the descriptor's tensor map and the block's coordinates."""
        m = None if mask is None else mask.handle
        tensor_map, coords = (None, []) if tma is None else tma
        op = self.sem.b.insert(tt.StoreOp(pointers.handle, value.handle, m, tensor_map, coords))
        options(op)

    def load_block_pointer(
        self,
        ptr: BlockPointer,
        mask: Any,
        other: Any,
        boundary_check: Any,
        padding_option: Any,
        options: Options = no_options,
    ) -> TensorValue:
        """``tl.load(block_ptr, ...)``; ``options`` puts the cache options on the ``tt.load``."""
        what = "tl.load"
        if mask is not None or other is not None:
            raise self._value_error(
                f"{what}: `mask` and `other` cannot be given when loading through a block "
                "pointer; use boundary_check and padding_option"
            )
        padding = self._padding(padding_option, ("", "zero", "nan"), what)
        element = ptr.element_dtype
        if padding == "nan" and element.kind != "float":
            raise self._value_error(
                f"{what}: padding_option 'nan' is not supported for {element} block pointers"
            )
        checked = self._boundary_check(boundary_check, len(ptr.block_shape), what)
        pointers, in_bounds = self._window(
            ptr.base, ptr.offsets, ptr.strides, ptr.shape, ptr.block_shape, checked
        )
        value = self._masked_load(pointers, in_bounds, padding, options)
        if element == core.int1:  # Triton reads bool memory through an int8 pointer
            value = self.sem.cast(value, core.int8)
        return value

    def store_block_pointer(
        self,
        ptr: BlockPointer,
        value: Any,
        mask: Any,
        boundary_check: Any,
        options: Options = no_options,
    ) -> None:
        """``tl.store(block_ptr, value, ...)``; ``options`` as for loads."""
        what = "tl.store"
        if mask is not None:
            raise self._value_error(
                f"{what}: `mask` cannot be given when storing through a block pointer; use "
                "boundary_check"
            )
        v = self.sem.to_tensor(value) if not isinstance(value, TensorValue) else value
        if not v.is_block:
            v = self.sem.splat_to(v, ptr.block_shape)
        if v.shape != ptr.block_shape:
            raise self._type_error(
                f"{what}: a value of shape {list(v.shape)} does not match the block pointer's "
                f"block shape {list(ptr.block_shape)}"
            )
        element = core.int8 if ptr.element_dtype == core.int1 else ptr.element_dtype
        if v.dtype != element:
            raise self._type_error(
                f"{what}: the block pointer holds {element} but the value is {v.dtype}; "
                f"convert it with .to(tl.{element.codegen_name()})"
            )
        if ptr.element_dtype == core.int1:
            v = self.sem.cast(v, core.int1)
        checked = self._boundary_check(boundary_check, len(ptr.block_shape), what)
        pointers, in_bounds = self._window(
            ptr.base, ptr.offsets, ptr.strides, ptr.shape, ptr.block_shape, checked
        )
        self._masked_store(pointers, v, in_bounds, options)
