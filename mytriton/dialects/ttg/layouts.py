"""The `ttg` dialect: how a block is distributed over the threads of one program.

A layout is a tensor *encoding*: ``tensor<64x64xf32, #ttg.blocked<...>>``. The names follow
Triton's TTGIR so users who know it can read ours:

* ``#ttg.blocked<{sizePerThread, threadsPerWarp, warpsPerCTA, order}>``: each thread owns
  ``sizePerThread`` contiguous elements per dimension; lanes and warps tile the block in
  ``order`` (fastest dimension first); a block larger than the tile wraps around (every thread
  then owns several tiles: a *register tile*), a smaller one is replicated over threads.
* ``#ttg.slice<{dim, parent}>``: the layout of a block with ``dim`` of ``parent`` removed (what a
  reduction along ``dim`` leaves, what ``expand_dims(dim)`` consumes).
* ``#ttg.shared<{order}>``: the element order of a block staged in shared memory (``tt.dot``
  operands).
* ``#ttg.nvidia_mma<{versionMajor, versionMinor, warpsPerCTA, instrShape}>`` (``mma.py``): the
  tensor-core instruction of a ``tt.dot`` (2: ``mma.sync``, 3: ``wgmma``), which
  ``ttg-accelerate-matmul`` writes on the dot as ``ttg.mma`` (none: the FMA loop). It is no
  tensor encoding here, unlike Triton's: the accumulator keeps the blocked layout that holds the
  instruction's results (``accumulator_layout``), and the attribute says which instruction.

``ttg.convert_layout`` moves a block between layouts (through shared memory).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, IntegerAttr, StringAttr, TensorType, i32
from xdsl.ir import Attribute, Operation, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt.types import element_type, shape_of

WARP_SIZE = 32


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(v) for v in values])


def _values(a: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(x.data for x in a.data)


def _print_list(printer: Printer, name: str, values: Sequence[int]) -> None:
    printer.print_string(f"{name} = [{', '.join(str(v) for v in values)}]")


def _parse_named_list(parser: AttrParser, name: str) -> list[int]:
    parser.parse_keyword(name)
    parser.parse_punctuation("=")
    return parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)


@irdl_attr_definition
class BlockedLayoutAttr(ParametrizedAttribute):
    """``#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1],
    order = [1, 0]}>``."""

    name = "ttg.blocked"

    size_per_thread: ArrayAttr[IntAttr]
    threads_per_warp: ArrayAttr[IntAttr]
    warps_per_cta: ArrayAttr[IntAttr]
    order: ArrayAttr[IntAttr]

    def __init__(
        self,
        size_per_thread: Sequence[int],
        threads_per_warp: Sequence[int],
        warps_per_cta: Sequence[int],
        order: Sequence[int],
    ):
        super().__init__(
            _ints(size_per_thread), _ints(threads_per_warp), _ints(warps_per_cta), _ints(order)
        )

    @property
    def spt(self) -> tuple[int, ...]:
        return _values(self.size_per_thread)

    @property
    def tpw(self) -> tuple[int, ...]:
        return _values(self.threads_per_warp)

    @property
    def wpc(self) -> tuple[int, ...]:
        return _values(self.warps_per_cta)

    @property
    def dim_order(self) -> tuple[int, ...]:
        return _values(self.order)

    @property
    def rank(self) -> int:
        return len(self.size_per_thread.data)

    @property
    def num_warps(self) -> int:
        n = 1
        for w in self.wpc:
            n *= w
        return n

    def verify(self) -> None:
        rank = len(self.size_per_thread.data)
        for what, vals in (
            ("threadsPerWarp", self.tpw),
            ("warpsPerCTA", self.wpc),
            ("order", self.dim_order),
        ):
            if len(vals) != rank:
                raise VerifyException(f"#ttg.blocked: {what} must have {rank} entries")
        if sorted(self.dim_order) != list(range(rank)):
            raise VerifyException("#ttg.blocked: order must be a permutation of the dimensions")
        lanes = 1
        for t in self.tpw:
            lanes *= t
        if lanes != WARP_SIZE:
            raise VerifyException(f"#ttg.blocked: threadsPerWarp must multiply to {WARP_SIZE}")
        for v in (*self.spt, *self.tpw, *self.wpc):
            if v <= 0 or v & (v - 1):
                raise VerifyException("#ttg.blocked: every entry must be a power of two")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<{")
        _print_list(printer, "sizePerThread", self.spt)
        printer.print_string(", ")
        _print_list(printer, "threadsPerWarp", self.tpw)
        printer.print_string(", ")
        _print_list(printer, "warpsPerCTA", self.wpc)
        printer.print_string(", ")
        _print_list(printer, "order", self.dim_order)
        printer.print_string("}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        spt = _parse_named_list(parser, "sizePerThread")
        parser.parse_punctuation(",")
        tpw = _parse_named_list(parser, "threadsPerWarp")
        parser.parse_punctuation(",")
        wpc = _parse_named_list(parser, "warpsPerCTA")
        parser.parse_punctuation(",")
        order = _parse_named_list(parser, "order")
        parser.parse_punctuation("}")
        parser.parse_punctuation(">")
        return (_ints(spt), _ints(tpw), _ints(wpc), _ints(order))


@irdl_attr_definition
class SliceLayoutAttr(ParametrizedAttribute):
    """``#ttg.slice<{dim = 1, parent = #ttg.blocked<...>}>``: ``parent`` without ``dim``."""

    name = "ttg.slice"

    dim: IntAttr
    parent: Attribute

    def __init__(self, dim: int, parent: Attribute):
        super().__init__(IntAttr(dim), parent)

    def verify(self) -> None:
        if not isinstance(self.parent, (BlockedLayoutAttr, SliceLayoutAttr)):
            raise VerifyException("#ttg.slice: parent must be a layout")
        if not 0 <= self.dim.data < layout_rank(self.parent):
            raise VerifyException("#ttg.slice: dim out of range for the parent layout")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{{dim = {self.dim.data}, parent = ")
        printer.print_attribute(self.parent)
        printer.print_string("}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        parser.parse_keyword("dim")
        parser.parse_punctuation("=")
        dim = parser.parse_integer()
        parser.parse_punctuation(",")
        parser.parse_keyword("parent")
        parser.parse_punctuation("=")
        parent = parser.parse_attribute()
        parser.parse_punctuation("}")
        parser.parse_punctuation(">")
        return (IntAttr(dim), parent)


@irdl_attr_definition
class SharedLayoutAttr(ParametrizedAttribute):
    """``#ttg.shared<{order = [0, 1], pad = 4}>``: a block staged in shared memory, ``order[0]``
    the dimension contiguous in memory, each contiguous row followed by ``pad`` unused elements
    (so threads writing down a column hit different memory banks)."""

    name = "ttg.shared"

    order: ArrayAttr[IntAttr]
    pad: IntAttr

    def __init__(self, order: Sequence[int], pad: int = 0):
        super().__init__(_ints(order), IntAttr(pad))

    @property
    def dim_order(self) -> tuple[int, ...]:
        return _values(self.order)

    def strides(self, shape: Sequence[int]) -> list[int]:
        """Element strides of a block of ``shape`` stored in this order, with padding."""
        strides = [0] * len(shape)
        s = 1
        for i, d in enumerate(self.dim_order):
            strides[d] = s
            s *= shape[d] + (self.pad.data if i == 0 else 0)
        return strides

    def size(self, shape: Sequence[int]) -> int:
        """Elements of the staging buffer of a block of ``shape`` (padding included)."""
        n = 1
        for i, d in enumerate(self.dim_order):
            n *= shape[d] + (self.pad.data if i == 0 else 0)
        return n

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<{")
        _print_list(printer, "order", self.dim_order)
        printer.print_string(f", pad = {self.pad.data}}}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        order = _parse_named_list(parser, "order")
        pad = 0
        if parser.parse_optional_punctuation(","):
            parser.parse_keyword("pad")
            parser.parse_punctuation("=")
            pad = parser.parse_integer()
        parser.parse_punctuation("}")
        parser.parse_punctuation(">")
        return (_ints(order), IntAttr(pad))


Layout = BlockedLayoutAttr | SliceLayoutAttr


# The launch geometry layout assignment writes on the module (Triton's attribute names): the
# lowering and the ABI read it from there.
NUM_WARPS_ATTR = "ttg.num-warps"
THREADS_PER_WARP_ATTR = "ttg.threads-per-warp"
TARGET_ATTR = "ttg.target"  # "cuda:90": the chip the layouts were chosen for
#: ``false`` when the kernel compiles with ``enable_reflect_ftz=False``: ``tl.exp2`` of f32 is
#: then ``ex2.approx.f32``, which keeps subnormals (absent: Triton's default, flushed to zero)
REFLECT_FTZ_ATTR = "mytriton.enable-reflect-ftz"
#: the compute capability layouts are chosen for when the launch names no device (gpusim, a
#: compile without a GPU): the H100/H200 that mytriton is built for
DEFAULT_CAPABILITY = 90


def set_launch_geometry(module: Operation, num_warps: int) -> None:
    module.attributes[NUM_WARPS_ATTR] = IntegerAttr(num_warps, i32)
    module.attributes[THREADS_PER_WARP_ATTR] = IntegerAttr(WARP_SIZE, i32)


def module_capability(module: Operation) -> int:
    """The compute capability ``ttg.target`` (``"cuda:90"``) names; ``DEFAULT_CAPABILITY``
    where the module has none (a hand-written module that skipped ``tt-assign-layouts``)."""
    attr = module.attributes.get(TARGET_ATTR)
    if attr is None:
        return DEFAULT_CAPABILITY
    text = attr.data if isinstance(attr, StringAttr) else ""
    kind, _, number = text.partition(":")
    if kind != "cuda" or not number.isdigit():
        raise VerifyException(f'`{TARGET_ATTR}` must be "cuda:N" (N the capability), not {attr}')
    return int(number)


def module_num_warps(module: Operation) -> int:
    """``ttg.num-warps`` of a laid-out module (a ``VerifyException`` when it is missing)."""
    attr = module.attributes.get(NUM_WARPS_ATTR)
    if not isinstance(attr, IntegerAttr):
        raise VerifyException(
            f"the module has no `{NUM_WARPS_ATTR}` attribute: run tt-assign-layouts first"
        )
    threads = module.attributes.get(THREADS_PER_WARP_ATTR, IntegerAttr(WARP_SIZE, i32))
    if not isinstance(threads, IntegerAttr) or threads.value.data != WARP_SIZE:
        raise VerifyException(f"`{THREADS_PER_WARP_ATTR}` must be {WARP_SIZE}")
    n = attr.value.data
    if n <= 0 or n & (n - 1) or n > 32:
        raise VerifyException(f"`{NUM_WARPS_ATTR}` must be a power of two from 1 to 32, got {n}")
    return n


def layout_rank(layout: Attribute) -> int:
    if isinstance(layout, BlockedLayoutAttr):
        return layout.rank
    if isinstance(layout, SliceLayoutAttr):
        return layout_rank(layout.parent) - 1
    raise TypeError(f"not a layout: {layout}")


def layout_of(t: Attribute) -> Layout | None:
    """The layout encoding of a block type (None for scalars or un-laid-out blocks)."""
    if isinstance(t, TensorType) and isinstance(t.encoding, (BlockedLayoutAttr, SliceLayoutAttr)):
        return t.encoding
    return None


def with_layout(t: Attribute, layout: Attribute | None) -> Attribute:
    """``t`` carrying ``layout`` (scalars are returned unchanged)."""
    if not isinstance(t, TensorType):
        return t
    from xdsl.dialects.builtin import NoneAttr

    return TensorType(t.element_type, t.get_shape(), layout if layout is not None else NoneAttr())


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    """Redistribute a block over the threads (through shared memory when lowered)."""

    name = "ttg.convert_layout"
    src = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(self, src: SSAValue, layout: Attribute):
        super().__init__(operands=[src], result_types=[with_layout(src.type, layout)])

    def verify_(self) -> None:
        if shape_of(self.src.type) != shape_of(self.result.type) or element_type(
            self.src.type
        ) != element_type(self.result.type):
            raise VerifyException("ttg.convert_layout: shape and element type must not change")
        for t in (self.src.type, self.result.type):
            lay = layout_of(t)
            if lay is None or layout_rank(lay) != len(shape_of(t)):
                raise VerifyException(
                    "ttg.convert_layout: operand and result need layouts of the block's rank"
                )
