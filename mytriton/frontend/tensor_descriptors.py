"""The tensor-descriptor builtins of ``Builtins``: ``tl.make_tensor_descriptor`` (checked as
Triton 3.6 checks it; a 2-d one gets a ``tt.make_tensor_map`` its TMA copies may read) and
``desc.load``/``desc.store`` (``tl.load_tensor_descriptor``/``tl.store_tensor_descriptor``),
which expand into the block pointers' masked window, every dimension checked."""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt.tensor_map import MakeTensorMapOp
from mytriton.frontend.block_pointer_values import TensorDescriptor, no_options
from mytriton.frontend.block_pointers import BlockPointerBuiltins
from mytriton.frontend.values import CompositeValue, TensorValue, unwrap_constexpr
from mytriton.language import core


class TensorDescriptorBuiltins(BlockPointerBuiltins):
    """``tl.make_tensor_descriptor`` and a descriptor's loads and stores (a mixin of
    ``Builtins``, through ``DescriptorGatherBuiltins`` and ``DescriptorAtomicBuiltins``)."""

    def make_tensor_descriptor(
        self, base: Any, shape: Any, strides: Any, block_shape: Any, padding_option: Any
    ) -> TensorDescriptor:
        what = "tl.make_tensor_descriptor"
        ptr = self._base(base, what)
        shapes = self._list(shape, f"{what}: shape")
        stride_list = self._list(strides, f"{what}: strides")
        ndim = len(shapes)
        if not 1 <= ndim <= 5:
            raise self._value_error(f"{what}: expected 1 to 5 dimensions, got {ndim}")
        if len(stride_list) != ndim:
            raise self._value_error(f"{what}: expected {ndim} strides, got {len(stride_list)}")
        dims = self._block_shape(block_shape, None, f"{what}: block_shape")
        if len(dims) != ndim:
            raise self._value_error(
                f"{what}: expected block_shape to have {ndim} dimensions, got {len(dims)}"
            )
        element = ptr.dtype.element_ty  # type: ignore[attr-defined]
        size = max(element.primitive_bitwidth // 8, 1)
        if dims[-1] * size < 16:
            raise self._value_error(
                f"{what}: Descriptor block shape must have at least 16 bytes in the last "
                f"dimension, but got {dims[-1]} * {size} = {dims[-1] * size} bytes"
            )
        last = unwrap_constexpr(stride_list[-1])
        if isinstance(last, TensorValue) or last != 1 or isinstance(last, bool):
            got = "a runtime value" if isinstance(last, TensorValue) else repr(last)
            raise self._value_error(
                f"{what}: the last dimension must be contiguous (stride 1, a compile-time "
                f"constant), got {got}"
            )
        for i, s in enumerate(stride_list[:-1]):
            s = unwrap_constexpr(s)
            if isinstance(s, int) and not isinstance(s, bool) and (s * size) % 16:
                raise self._value_error(
                    f"{what}: stride {i} ({s} elements of {size} bytes) must be a multiple of "
                    "16 bytes"
                )
        padding = self._padding(padding_option, ("zero", "nan"), what)
        if padding == "nan" and element.kind != "float":
            raise self._value_error(
                f"{what}: padding_option 'nan' is not supported for {element} blocks"
            )
        shape_values = tuple(self._index(s, f"{what}: shape", core.int32) for s in shapes)
        stride_values = tuple(self._index(s, f"{what}: strides", core.int64) for s in stride_list)
        tensor_map = None
        if ndim == 2:  # its blocks may be TMA copies, as a host descriptor's (tt_tensor_map)
            made = MakeTensorMapOp(
                ptr.handle, [v.handle for v in shape_values], [v.handle for v in stride_values]
            )
            tensor_map = TensorValue(self.sem.b.insert(made).result)
        return TensorDescriptor(
            base=ptr,
            shape=shape_values,
            strides=stride_values,
            block_shape=dims,
            padding=padding,
            tensor_map=tensor_map,
        )

    def _descriptor(self, desc: Any, what: str) -> TensorDescriptor:
        if not isinstance(desc, TensorDescriptor):
            got = desc.describe() if isinstance(desc, CompositeValue) else repr(desc)
            raise self._type_error(
                f"{what} expects a tensor descriptor (from tl.make_tensor_descriptor), got {got}"
            )
        return desc

    def _descriptor_window(
        self, desc: TensorDescriptor, offsets: Any, what: str
    ) -> tuple[TensorValue, TensorValue | None]:
        starts = self._list(offsets, f"{what}: offsets")
        if len(starts) != len(desc.block_shape):
            raise self._value_error(
                f"{what}: expected {len(desc.block_shape)} offsets, got {len(starts)}"
            )
        wide = [self._offset(s, f"{what}: offsets") for s in starts]
        every = range(len(desc.block_shape))
        return self._window(desc.base, wide, desc.strides, desc.shape, desc.block_shape, every)

    def load_tensor_descriptor(self, desc: Any, offsets: Any) -> TensorValue:
        what = "tensor descriptor load"
        d = self._descriptor(desc, what)
        pointers, in_bounds = self._descriptor_window(d, offsets, what)
        if d.tensor_map is None:
            return self._masked_load(pointers, in_bounds, d.padding, no_options)
        # the block's coordinates, for a copy through the tensor map (``tt.load``'s doc)
        coords = [
            self._index(s, f"{what}: offsets", core.int32).handle
            for s in self._list(offsets, f"{what}: offsets")
        ]
        return self._masked_load(
            pointers, in_bounds, d.padding, no_options, (d.tensor_map.handle, coords)
        )

    def _block_value(self, d: TensorDescriptor, value: Any, what: str) -> TensorValue:
        """``value`` when it is a block of ``d``'s block shape (what a store or an atomic
        through a descriptor writes), else a typed error."""
        if not isinstance(value, TensorValue) or value.shape != d.block_shape:
            got = f"shape {list(value.shape)}" if isinstance(value, TensorValue) else repr(value)
            raise self._type_error(
                f"{what}: the value must be a block of the descriptor's block shape "
                f"{list(d.block_shape)}, got {got}"
            )
        return value

    def store_tensor_descriptor(self, desc: Any, offsets: Any, value: Any) -> None:
        what = "tensor descriptor store"
        d = self._descriptor(desc, what)
        value = self._block_value(d, value, what)
        pointers, in_bounds = self._descriptor_window(d, offsets, what)
        v = self.sem.cast(value, d.element_dtype)  # Triton converts to the descriptor's type
        if d.tensor_map is None:
            self._masked_store(pointers, v, in_bounds, no_options)
            return
        coords = [  # the block's coordinates, for a TMA store (``tt.store``'s doc)
            self._index(s, f"{what}: offsets", core.int32).handle
            for s in self._list(offsets, f"{what}: offsets")
        ]
        self._masked_store(pointers, v, in_bounds, no_options, (d.tensor_map.handle, coords))
