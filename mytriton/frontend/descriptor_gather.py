"""``desc.gather(x_offsets, y)`` and ``desc.scatter(value, x_offsets, y)``: rows of a 2-d
tensor descriptor whose block is one row (``[1, BLOCK_Y]``), picked by a block of row offsets.

Triton 3.6's semantics (``tensor_descriptor_base.gather/scatter``; its interpreter): row ``i``
of the result is ``desc.load([x_offsets[i], y])``, so it reads the padding where out of bounds,
and a scatter stores row ``i`` of ``value`` as ``desc.store([x_offsets[i], y], ...)``, dropping
what falls outside. As the descriptor's loads and stores (``tensor_descriptors.py``), both expand
into one masked ``tt.load``/``tt.store`` of pointers, so every backend runs them::

    pointer[i, j] = base + x_offsets[i] * stride_0 + (y + j) * stride_1
    mask[i, j]    = 0 <= x_offsets[i] < shape_0  and  0 <= y + j < shape_1

Two x offsets naming one row scatter to the same elements: the last row wins in the interpreter
(as in Triton's), gpusim reports the race, and a GPU leaves it undefined, as TMA does.

The checks are Triton's (``semantic.descriptor_gather``/``descriptor_scatter`` and the ops'
verifiers): a ``[1, N]`` block, int32 row offsets of one dimension and at least 8 of them, at
least ``32 // bitwidth * 8`` columns, a scattered value of the gathered shape and element type.
"""

from __future__ import annotations

from typing import Any

from mytriton.frontend.block_pointer_values import Addressing, TensorDescriptor, no_options
from mytriton.frontend.tensor_descriptors import TensorDescriptorBuiltins
from mytriton.frontend.values import TensorValue, unwrap_constexpr
from mytriton.language import core


class DescriptorGatherBuiltins(TensorDescriptorBuiltins):
    """``desc.gather``/``desc.scatter`` (``tl.core.descriptor_gather``/``descriptor_scatter``,
    a mixin of ``Builtins``)."""

    def descriptor_gather(self, desc: Any, *offsets: Any) -> TensorValue:
        what = "tensor descriptor gather"
        d = self._descriptor(desc, what)
        rows, y = self._row_offsets(d, offsets, what)
        pointers, in_bounds = self._rows_window(d, rows, y)
        return self._masked_load(pointers, in_bounds, d.padding, no_options)

    def descriptor_scatter(self, desc: Any, value: Any, *offsets: Any) -> None:
        what = "tensor descriptor scatter"
        d = self._descriptor(desc, what)
        rows, y = self._row_offsets(d, offsets, what)
        shape = (rows.shape[0], d.block_shape[1])
        if not isinstance(value, TensorValue) or value.shape != shape:
            got = f"shape {list(value.shape)}" if isinstance(value, TensorValue) else repr(value)
            raise self._type_error(
                f"{what}: the value must be a block of shape {list(shape)} (one row per x "
                f"offset, the descriptor's {d.block_shape[1]} columns), got {got}"
            )
        if value.dtype != d.element_dtype:
            raise self._type_error(
                f"{what}: the descriptor holds {d.element_dtype} but the value is {value.dtype}; "
                f"convert it with .to(tl.{d.element_dtype.codegen_name()})"
            )
        pointers, in_bounds = self._rows_window(d, rows, y)
        self._masked_store(pointers, value, in_bounds, no_options)

    def _row_offsets(
        self, d: TensorDescriptor, offsets: tuple[Any, ...], what: str
    ) -> tuple[TensorValue, TensorValue]:
        """The row offsets (an int32 block of at least 8) and the column offset (an int64
        scalar) of a gather or scatter, after Triton's checks of the descriptor."""
        if len(offsets) != 2:
            raise self._value_error(
                f"{what} only supports 2D indexing (x offsets, y offset), but got "
                f"{len(offsets)} offsets"
            )
        if len(d.block_shape) != 2 or d.block_shape[0] != 1:
            raise self._value_error(
                f"{what}: the descriptor's block must be one row, [1, N], but it is "
                f"{list(d.block_shape)}"
            )
        element = d.element_dtype
        min_cols = 32 // element.primitive_bitwidth * 8
        if d.block_shape[1] < min_cols:
            raise self._value_error(
                f"{what} of {element} must have at least {min_cols} columns, but the block has "
                f"{d.block_shape[1]}"
            )
        rows = unwrap_constexpr(offsets[0])
        if not isinstance(rows, TensorValue) or len(rows.shape) != 1:
            got = f"shape {list(rows.shape)}" if isinstance(rows, TensorValue) else repr(rows)
            raise self._type_error(f"{what}: the x offsets must be a 1-d block, got {got}")
        if rows.dtype != core.int32:
            raise self._type_error(
                f"{what}: the x offsets must be int32, got {rows.dtype}; convert them with "
                ".to(tl.int32)"
            )
        if rows.shape[0] < 8:
            raise self._value_error(
                f"{what} must have at least 8 rows, but the x offsets have {rows.shape[0]}"
            )
        return rows, self._offset(offsets[1], f"{what}: y offset")

    def _rows_window(
        self, d: TensorDescriptor, rows: TensorValue, y: TensorValue
    ) -> tuple[TensorValue, TensorValue]:
        """The pointers of the gathered rows' ``[len(rows), N]`` elements, and the mask of those
        inside the descriptor's shape."""
        sem = self.sem
        columns = d.block_shape[1]
        window = Addressing()
        along_x = sem.expand_dims(sem.cast(rows, core.int64), 1)  # [R, 1]
        self._address_along(window, along_x, d.strides[0], d.shape[0])
        along_y = sem.expand_dims(sem.arith("+", y, self._arange(columns)), 0)  # [1, N]
        self._address_along(window, along_y, d.strides[1], d.shape[1])
        pointers, in_bounds = self._addressed(d.base, window, (rows.shape[0], columns))
        assert in_bounds is not None
        return pointers, in_bounds
