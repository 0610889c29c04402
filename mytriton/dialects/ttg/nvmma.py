"""``#ttg.nvmma_shared``: a 2-d tile in shared memory as Hopper's warpgroup MMA reads it.

``wgmma.mma_async`` reads both operands from shared memory through *matrix descriptors*, which
only describe NVIDIA's canonical layouts. We use the 128- and 64-byte swizzled ones (Triton's
``#ttg.nvmma_shared<{swizzlingByteWidth = 128}>``, ``64``): the tile's contiguous dimension
(``order[0]``) is cut into *atoms* of ``S`` = 128 (or 64) bytes (``E`` elements); atom column
``c // E`` holds every row of the tile, row ``r`` at ``r * S`` bytes, and inside a row the
16-byte chunk ``j`` is stored at chunk ``j ^ x(r)``, ``x(r) = (r % 8) >> (log2(128 / S))``: the
hardware XORs address bits 7 and up into bits 4 and up (CUTLASS's ``Swizzle<3,4,3>`` and
``Swizzle<2,4,3>``). So element ``(r, c)`` (``r`` along the other dimension) is at element::

    (c // E) * (R * E) + p(r) * E + (((c % E) // V) ^ x(p(r))) * V + c % V      V = 16 / bytes

Eight consecutive rows are one swizzle atom (1024 or 512 bytes); tiles start 1024-byte aligned
(the hardware applies the XOR to address bits). A dot uses 64-byte rows where its K tile is
half of a 128-byte row (``BLOCK_K = 32`` of f16). The swizzle makes both the 16-byte ``cp.async``
writes of a row and the tensor core's reads of eight rows conflict-free without padding.

``p`` permutes rows: with ``rotate = S`` (a power of two, 0 for none), the index of each 8-row
group is rotated left by one bit within its span of ``S`` groups. For the A operand of a dot
whose accumulator is the blocked tensor-core layout over ``wm`` warps along M
(``mma_policy``), ``S = 2 wm`` puts the rows a thread accumulates where the instruction
computes them: a wgmma gives warp ``w`` of its warpgroup rows ``16 w + g`` and ``16 w + g + 8``
of its 64, while the blocked layout gives that warp rows ``8 w + g`` of two row repetitions
``8 wm`` apart (see ``gpu_lowering/dot_wgmma.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

SWIZZLE_BYTES = 128  # the widest swizzle: a row of 64 f16 elements
SWIZZLES = (128, 64)  # the row widths we use (bytes)
ATOM_ROWS = 8
ATOM_BYTES = SWIZZLE_BYTES * ATOM_ROWS  # the alignment a tile needs
CHUNK_BYTES = 16


def swizzle_for(row_bytes: int) -> int | None:
    """The widest swizzle whose rows a contiguous dimension of ``row_bytes`` fills exactly."""
    return next((s for s in SWIZZLES if row_bytes % s == 0), None)


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(v) for v in values])


def rotate_rows(r: int, span: int) -> int:
    """``p(r)``: the 8-row group index of ``r`` rotated left by one bit within ``span`` groups."""
    if span <= 1:
        return r
    bits = span.bit_length() - 1
    group = (r >> 3) & (span - 1)
    rotated = ((group << 1) | (group >> (bits - 1))) & (span - 1)
    return (r & ~((span << 3) - 1)) | (rotated << 3) | (r & 7)


@irdl_attr_definition
class NvmmaSharedLayoutAttr(ParametrizedAttribute):
    """``#ttg.nvmma_shared<{order = [1, 0], swizzle = 128, rotate = 8}>`` (see the module doc)."""

    name = "ttg.nvmma_shared"

    order: ArrayAttr[IntAttr]
    swizzle: IntAttr
    rotate: IntAttr

    def __init__(self, order: Sequence[int], rotate: int = 0, swizzle: int = SWIZZLE_BYTES):
        super().__init__(_ints(order), IntAttr(swizzle), IntAttr(rotate))

    @property
    def dim_order(self) -> tuple[int, ...]:
        return tuple(x.data for x in self.order.data)

    @property
    def span(self) -> int:
        return self.rotate.data

    def verify(self) -> None:
        if sorted(self.dim_order) != [0, 1]:
            raise VerifyException("#ttg.nvmma_shared: order must be [0, 1] or [1, 0]")
        if self.swizzle.data not in SWIZZLES:
            raise VerifyException(
                f"#ttg.nvmma_shared: swizzle must be {' or '.join(map(str, SWIZZLES))}"
            )
        s = self.span
        if s < 0 or (s and s & (s - 1)):
            raise VerifyException("#ttg.nvmma_shared: rotate must be 0 or a power of two")

    # ---- geometry (element units) ----

    @property
    def row_bytes(self) -> int:
        """Bytes of one swizzled row (``swizzle``)."""
        return self.swizzle.data

    @property
    def xor_shift(self) -> int:
        """How far right a row's index within its 8-row atom is shifted to give the chunk XOR:
        the hardware XORs address bits 7 and up into the chunk bits 4 and up, so rows of 64
        bytes change the pattern every second row."""
        return (SWIZZLE_BYTES // self.row_bytes).bit_length() - 1

    def atom_elements(self, element_bytes: int) -> int:
        return self.row_bytes // element_bytes

    def rows_cols(self, shape: Sequence[int]) -> tuple[int, int]:
        """``(R, C)``: the tile's extent along its rows and along its contiguous dimension."""
        c_dim, r_dim = self.dim_order
        return shape[r_dim], shape[c_dim]

    def check_shape(self, shape: Sequence[int], element_bytes: int) -> str | None:
        """Why a tile of ``shape`` cannot have this layout, or None."""
        rows, cols = self.rows_cols(shape)
        e = self.atom_elements(element_bytes)
        if len(shape) != 2 or cols % e or rows % ATOM_ROWS:
            return (
                f"a {self.row_bytes}-byte swizzled tile needs its contiguous dimension a multiple "
                f"of {e} and the other a multiple of {ATOM_ROWS}, got {list(shape)}"
            )
        if self.span and rows % (self.span * ATOM_ROWS):
            return f"rotate = {self.span} needs rows in multiples of {self.span * ATOM_ROWS}"
        return None

    def size(self, shape: Sequence[int]) -> int:
        """Elements of the tile (no padding)."""
        return shape[0] * shape[1]

    def offset(self, index: Sequence[int], shape: Sequence[int], element_bytes: int) -> int:
        """The element offset of ``index`` in a tile of ``shape`` (the module doc's formula)."""
        c_dim, r_dim = self.dim_order
        r, c = index[r_dim], index[c_dim]
        rows, _ = self.rows_cols(shape)
        e = self.atom_elements(element_bytes)
        v = CHUNK_BYTES // element_bytes
        p = rotate_rows(r, self.span)
        swizzle = (p % ATOM_ROWS) >> self.xor_shift
        return (c // e) * (rows * e) + p * e + (((c % e) // v) ^ swizzle) * v + c % v

    def print_parameters(self, printer: Printer) -> None:
        order = ", ".join(str(d) for d in self.dim_order)
        printer.print_string(
            f"<{{order = [{order}], swizzle = {self.swizzle.data}, rotate = {self.span}}}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        parser.parse_keyword("order")
        parser.parse_punctuation("=")
        order = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        values = {"swizzle": SWIZZLE_BYTES, "rotate": 0}
        while parser.parse_optional_punctuation(","):
            key = parser.parse_identifier()
            if key not in values:
                parser.raise_error(f"#ttg.nvmma_shared: unknown parameter {key!r}")
            parser.parse_punctuation("=")
            values[key] = parser.parse_integer()
        parser.parse_punctuation("}")
        parser.parse_punctuation(">")
        return (_ints(order), IntAttr(values["swizzle"]), IntAttr(values["rotate"]))
