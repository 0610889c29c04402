"""The NVVM ops of Hopper's warpgroup tensor-core dots, which xDSL 0.74 lacks:
``nvvm.wgmma.mma_async``, ``nvvm.wgmma.fence.aligned``, ``nvvm.wgmma.commit.group.sync.aligned``,
``nvvm.wgmma.wait.group.sync.aligned``, ``nvvm.fence.proxy`` and their attributes.

Names, operands, properties and types match upstream MLIR 22 exactly (``mlir-opt-22`` parses the
generic form we print and lowers it, with ``convert-nvvm-to-llvm``, to the PTX ``wgmma``
instructions for ``sm_90a``); the CUDA printer prints the same PTX in ``asm`` statements; gpusim
executes the ops warpgroup by warpgroup (``rules_wgmma``).

``nvvm.wgmma.mma_async`` is one warpgroup-wide (4 consecutive warps, 128 threads, executing it
together) ``D = A @ B + C`` of a ``64 x n x k`` tile: A (64 x k) and B (k x n) are read from
shared memory through 64-bit matrix descriptors (start address, leading and stride byte offsets,
swizzle mode; the same in every thread of the warpgroup), C and D are the accumulator struct,
``n / 2`` fields per thread (thread ``t`` of the warpgroup, ``w = t // 32``, ``g = (t % 32) // 4``,
``q = t % 4``: field ``4j + 2h + e`` holds ``D[16w + g + 8h][8j + 2q + e]``)::

    %d = "nvvm.wgmma.mma_async"(%c, %descA, %descB) <{layoutA = #nvvm.mma_layout<row>,
           layoutB = #nvvm.mma_layout<col>, satfinite = #nvvm.mma_int_overflow<wrapped>,
           scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>,
           scaleD = #nvvm.wgmma_scale_out<one>, shape = #nvvm.shape<m = 64, n = 64, k = 16>,
           typeA = #nvvm.wgmma_type<f16>, typeB = #nvvm.wgmma_type<f16>,
           typeD = #nvvm.wgmma_type<f32>}> : (!llvm.struct<(f32, ...)>, i64, i64)
         -> !llvm.struct<(f32, ...)>

(upstream's custom form, which we parse and print too: ``nvvm.wgmma.mma_async %descA, %descB,
%c, <m = 64, n = 64, k = 16>, D[<f32>, <one>, <wrapped>], A[<f16>, <one>, <row>], B[<f16>,
<one>, <col>] : !llvm.struct<...> -> !llvm.struct<...>``).

The forms we support (``WGMMA_FORMS``): A and B both f16 or bf16 (k = 16), tf32 (k = 8; f32
bits of which the tensor core reads the upper 19), e4m3 or e5m2 (k = 32; fp8 bytes; A and B
may be different formats), accumulating f32; s8 (k = 32) accumulating s32, wrapping on
overflow (``satfinite`` absent or ``wrapped``). m = 64; n a multiple of 8 from 8 to 256 (s8:
8, 16, 24, then multiples of 16, as PTX allows). ``layoutA`` is ``row`` (A K-major);
``layoutB`` is ``col`` (B K-major) or, for f16 and bf16 only, ``row`` (B MN-major, PTX's
"transposed" B). ``scaleA``/``scaleB`` are ``one``; ``scaleD`` is ``one`` (add C) or
``zero`` (ignore it).

The results of a ``wgmma.mma_async`` are valid only once a wait retires its group: the
warpgroup's ``wgmma`` ops since the last ``nvvm.wgmma.commit.group.sync.aligned`` form a group,
and ``nvvm.wgmma.wait.group.sync.aligned N`` waits until at most ``N`` of its groups are pending.
``nvvm.wgmma.fence.aligned`` must come before the first ``wgmma`` of a sequence (whenever other
instructions wrote the accumulator registers or the shared tiles), and shared memory written by
ordinary stores needs ``nvvm.fence.proxy`` (kind ``async.shared``, space ``cta``) before the
async proxy that ``wgmma`` reads through sees it::

    "nvvm.fence.proxy"() <{kind = #nvvm.proxy_kind<async.shared>,
                           space = #nvvm.shared_space<cta>}> : () -> ()
    "nvvm.wgmma.fence.aligned"() : () -> ()
    "nvvm.wgmma.commit.group.sync.aligned"() : () -> ()
    "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}> : () -> ()

(custom forms: ``nvvm.fence.proxy {kind = ..., space = ...}``, ``nvvm.wgmma.fence.aligned``,
``nvvm.wgmma.commit.group.sync.aligned``, ``nvvm.wgmma.wait.group.sync.aligned 0``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, f32, i32, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.nvgpu.nvvm import (
    MmaIntOverflowAttr,
    MmaLayoutAttr,
    MmaShapeAttr,
    _Keyword,
)
from mytriton.dialects.nvgpu.tma import ProxyKindAttr


@irdl_attr_definition
class WgmmaTypeAttr(_Keyword):
    """``#nvvm.wgmma_type<f16>``: the PTX type of a ``wgmma`` operand or accumulator."""

    name = "nvvm.wgmma_type"
    KEYWORDS = ("f16", "tf32", "u8", "s8", "b1", "bf16", "e4m3", "e5m2", "f32", "s32")


@irdl_attr_definition
class WgmmaScaleInAttr(_Keyword):
    """``#nvvm.wgmma_scale_in<one>``: A or B as is (``one``) or negated (``neg``)."""

    name = "nvvm.wgmma_scale_in"
    KEYWORDS = ("one", "neg")


@irdl_attr_definition
class WgmmaScaleOutAttr(_Keyword):
    """``#nvvm.wgmma_scale_out<one>``: ``D = A @ B + C`` (``one``) or ``D = A @ B``
    (``zero``)."""

    name = "nvvm.wgmma_scale_out"
    KEYWORDS = ("zero", "one")


@irdl_attr_definition
class SharedSpaceAttr(_Keyword):
    """``#nvvm.shared_space<cta>``: the shared-memory window a proxy fence covers."""

    name = "nvvm.shared_space"
    KEYWORDS = ("cta", "cluster")


@dataclass(frozen=True)
class WgmmaForm:
    """One operand type's ``wgmma`` form: its k, element size and accumulator."""

    operand: str  #: the PTX type of A and B: f16, bf16, tf32, e4m3, e5m2, s8
    k: int
    element_bytes: int
    accumulator: Attribute  #: f32, or i32 (PTX s32)
    transposable: bool  #: B may be MN-major (``layoutB = row``)

    @property
    def integer(self) -> bool:
        return self.accumulator == i32

    @property
    def accumulator_type(self) -> str:
        """The PTX type of C and D."""
        return "s32" if self.integer else "f32"

    def valid_n(self, n: int) -> bool:
        """Whether PTX has an ``m64nNk*`` instruction of this form."""
        if self.integer:  # s8: 8, 16, 24, then multiples of 16
            return n in (8, 16, 24) or (n % 16 == 0 and 32 <= n <= 256)
        return n % 8 == 0 and 8 <= n <= 256

    def result(self, n: int) -> llvm.LLVMStructType:
        """The accumulator struct of an ``m64nN`` tile: ``n / 2`` fields per thread."""
        return llvm.LLVMStructType.from_type_list([self.accumulator] * (n // 2))

    def ptx(self, n: int, b: str | None = None) -> str:
        """The PTX instruction (without operands); ``b``: B's type where it differs (fp8)."""
        a = self.operand
        shape = f"m64n{n}k{self.k}"
        return f"wgmma.mma_async.sync.aligned.{shape}.{self.accumulator_type}.{a}.{b or a}"


WGMMA_M = 64
WGMMA_FORMS = {
    "f16": WgmmaForm("f16", 16, 2, f32, True),
    "bf16": WgmmaForm("bf16", 16, 2, f32, True),
    "tf32": WgmmaForm("tf32", 8, 4, f32, False),
    "s8": WgmmaForm("s8", 32, 1, i32, False),
    "e4m3": WgmmaForm("e4m3", 32, 1, f32, False),
    "e5m2": WgmmaForm("e5m2", 32, 1, f32, False),
}
FP8_KINDS = ("e4m3", "e5m2")  # A and B may be either (PTX's .e4m3.e5m2 and .e5m2.e4m3 too)


class WarpgroupMmaOp(IRDLOperation):
    """The properties every warpgroup MMA op has (``nvvm.wgmma.mma_async``, and
    ``ptx.wgmma.mma_async`` with A in registers), and what they say."""

    shape = prop_def(MmaShapeAttr)
    typeA = prop_def(WgmmaTypeAttr)  # noqa: N815 (upstream's property names)
    typeB = prop_def(WgmmaTypeAttr)  # noqa: N815
    scaleD = prop_def(WgmmaScaleOutAttr)  # noqa: N815
    layoutB = prop_def(MmaLayoutAttr)  # noqa: N815

    @property
    def form(self) -> WgmmaForm:
        """The operand type's form (the verifier guarantees there is one)."""
        return WGMMA_FORMS[self.typeA.data]

    @property
    def b_type(self) -> str:
        """B's PTX type: A's, or for fp8 either format."""
        return self.typeB.data

    @property
    def n(self) -> int:
        return self.shape.n.data

    @property
    def b_mn_major(self) -> bool:
        """B is MN-major (``layoutB = row``, PTX's transposed B)."""
        return self.layoutB.data == "row"

    @property
    def adds_accumulator(self) -> bool:
        """``scaleD = one``: C is added (else ignored)."""
        return self.scaleD.data == "one"


@irdl_op_definition
class WgmmaMmaAsyncOp(WarpgroupMmaOp):
    """``nvvm.wgmma.mma_async``: one warpgroup-wide ``D = A @ B + C`` from shared-memory
    descriptors (see the module doc)."""

    name = "nvvm.wgmma.mma_async"
    inouts = operand_def(llvm.LLVMStructType)
    descriptorA = operand_def(i64)  # noqa: N815 (upstream's operand names)
    descriptorB = operand_def(i64)  # noqa: N815
    res = result_def(llvm.LLVMStructType)  # upstream: results (a name xDSL ops already use)
    typeD = prop_def(WgmmaTypeAttr)  # noqa: N815 (upstream's property names)
    scaleA = prop_def(WgmmaScaleInAttr)  # noqa: N815
    scaleB = prop_def(WgmmaScaleInAttr)  # noqa: N815
    layoutA = prop_def(MmaLayoutAttr)  # noqa: N815
    satfinite = opt_prop_def(MmaIntOverflowAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        acc: SSAValue,
        desc_a: SSAValue,
        desc_b: SSAValue,
        n: int,
        operand: str,
        b_mn_major: bool,
        *,
        b_operand: str | None = None,
        add_accumulator: bool = True,
    ):
        """``operand``: f16, bf16, tf32, e4m3, e5m2 or s8 (``b_operand``: B's where it differs,
        the other fp8 format); ``b_mn_major``: B is MN-major (``layoutB = row``, f16/bf16
        only), else K-major; ``add_accumulator=False``: ``scaleD = zero``."""
        form = WGMMA_FORMS[operand]
        super().__init__(
            operands=[acc, desc_a, desc_b],
            result_types=[form.result(n)],
            properties={
                "shape": MmaShapeAttr(WGMMA_M, n, form.k),
                "typeA": WgmmaTypeAttr(operand),
                "typeB": WgmmaTypeAttr(b_operand or operand),
                "typeD": WgmmaTypeAttr(form.accumulator_type),
                "scaleD": WgmmaScaleOutAttr("one" if add_accumulator else "zero"),
                "scaleA": WgmmaScaleInAttr("one"),
                "scaleB": WgmmaScaleInAttr("one"),
                "layoutA": MmaLayoutAttr("row"),
                "layoutB": MmaLayoutAttr("row" if b_mn_major else "col"),
                "satfinite": MmaIntOverflowAttr("wrapped"),
            },
        )

    def verify_(self) -> None:
        what = "nvvm.wgmma.mma_async"
        kind = self.typeA.data
        form = WGMMA_FORMS.get(kind)
        pair = (kind, self.typeB.data)
        if form is None or not (kind == pair[1] or all(t in FP8_KINDS for t in pair)):
            raise VerifyException(
                f"{what}: supported operand types are {', '.join(WGMMA_FORMS)} (typeA and typeB "
                f"alike, or two fp8 formats), not {kind} and {self.typeB.data}"
            )
        if self.typeD.data != form.accumulator_type:
            raise VerifyException(
                f"{what}: {kind} operands accumulate in {form.accumulator_type}, not "
                f"{self.typeD.data}"
            )
        m, n, k = self.shape.mnk
        if m != WGMMA_M or k != form.k or not form.valid_n(n):
            sizes = "8, 16, 24 or a multiple of 16 up to 256" if form.integer else "8 to 256"
            raise VerifyException(
                f"{what}: {kind} operands need shape m = 64, k = {form.k} and n in {sizes} "
                f"(a multiple of 8), not m = {m}, n = {n}, k = {k}"
            )
        if self.layoutA.data != "row":
            raise VerifyException(f"{what}: only layoutA = row (A K-major) is supported")
        if self.b_mn_major and not form.transposable:
            raise VerifyException(
                f"{what}: layoutB = row (B MN-major, transposed) is for f16 and bf16 only, not "
                f"{kind}"
            )
        if (self.scaleA.data, self.scaleB.data) != ("one", "one"):
            raise VerifyException(f"{what}: only scaleA = scaleB = one is supported")
        if self.satfinite is not None and self.satfinite.data != "wrapped":
            raise VerifyException(f"{what}: only satfinite = wrapped (or none) is supported")
        expected = form.result(n)
        for role, t in (
            ("the accumulator operand", self.inouts.type),
            ("the result", self.res.type),
        ):
            if t != expected:
                acc = "i32" if form.integer else "f32"
                raise VerifyException(
                    f"{what}: {role} must be a struct of n / 2 = {n // 2} {acc} fields (one per "
                    f"accumulator element of the thread), not {t}"
                )

    # ---- upstream's custom form ----

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.descriptorA)
        printer.print_string(", ")
        printer.print_ssa_value(self.descriptorB)
        printer.print_string(", ")
        printer.print_ssa_value(self.inouts)
        printer.print_string(", ")
        self.shape.print_parameters(printer)
        d = [self.typeD.data, self.scaleD.data]
        if self.satfinite is not None:
            d.append(self.satfinite.data)
        a = [self.typeA.data, self.scaleA.data, self.layoutA.data]
        b = [self.typeB.data, self.scaleB.data, self.layoutB.data]
        for letter, words in (("D", d), ("A", a), ("B", b)):
            printer.print_string(f", {letter}[{', '.join(f'<{w}>' for w in words)}]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.inouts.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.res.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        desc_a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        desc_b = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        acc = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        pos = parser.pos
        shape: Attribute
        if parser.parse_optional_punctuation("<") is not None:  # upstream prints ``<m = ...>``
            sizes = []
            for i, key in enumerate("mnk"):
                if i:
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                sizes.append(parser.parse_integer(allow_boolean=False))
            parser.parse_punctuation(">")
            shape = MmaShapeAttr(*sizes)
        else:
            shape = parser.parse_attribute()
        if not isinstance(shape, MmaShapeAttr):
            parser.raise_error("expected the shape: <m = 64, n = N, k = K>", pos)

        def group(letter: str, kinds: Sequence[type[_Keyword]], least: int) -> list[Attribute]:
            parser.parse_punctuation(",")
            pos = parser.pos
            parser.parse_keyword(letter)
            words = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: _angled_word(parser)
            )
            if not least <= len(words) <= len(kinds):
                names = ", ".join(f"<{k.name.removeprefix('nvvm.')}>" for k in kinds)
                parser.raise_error(f"expected {letter}[{names}]", pos)
            values: list[Attribute] = []
            for kind, word in zip(kinds, words, strict=False):
                if word not in kind.KEYWORDS:
                    parser.raise_error(
                        f"#{kind.name}: expected one of {', '.join(kind.KEYWORDS)}, got {word!r}",
                        pos,
                    )
                values.append(kind(word))
            return values

        d = group("D", (WgmmaTypeAttr, WgmmaScaleOutAttr, MmaIntOverflowAttr), 2)
        a = group("A", (WgmmaTypeAttr, WgmmaScaleInAttr, MmaLayoutAttr), 3)
        b = group("B", (WgmmaTypeAttr, WgmmaScaleInAttr, MmaLayoutAttr), 3)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        acc_type = parser.parse_type()
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        properties: dict[str, Attribute] = {
            "shape": shape,
            "typeD": d[0],
            "scaleD": d[1],
            "typeA": a[0],
            "scaleA": a[1],
            "layoutA": a[2],
            "typeB": b[0],
            "scaleB": b[1],
            "layoutB": b[2],
        }
        if len(d) == 3:
            properties["satfinite"] = d[2]
        return cls.build(
            operands=[
                parser.resolve_operand(acc, acc_type),
                parser.resolve_operand(desc_a, i64),
                parser.resolve_operand(desc_b, i64),
            ],
            result_types=[result_type],
            properties=properties,
            attributes=attributes,
        )


def _angled_word(parser: Parser) -> str:
    """``<word>``, as upstream spells each entry of the D, A and B groups."""
    with parser.in_angle_brackets():
        return parser.parse_identifier()


@irdl_op_definition
class WgmmaFenceAlignedOp(IRDLOperation):
    """``nvvm.wgmma.fence.aligned`` (PTX ``wgmma.fence.sync.aligned``): orders the warpgroup's
    earlier register and shared-memory accesses before the ``wgmma`` ops that follow."""

    name = "nvvm.wgmma.fence.aligned"
    assembly_format = "attr-dict"
    traits = traits_def(MemoryWriteEffect())

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class WgmmaCommitGroupSyncAlignedOp(IRDLOperation):
    """``nvvm.wgmma.commit.group.sync.aligned`` (PTX ``wgmma.commit_group.sync.aligned``): the
    warpgroup's uncommitted ``wgmma`` ops (possibly none) become its newest group."""

    name = "nvvm.wgmma.commit.group.sync.aligned"
    assembly_format = "attr-dict"
    traits = traits_def(MemoryWriteEffect())

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class WgmmaWaitGroupSyncAlignedOp(IRDLOperation):
    """``nvvm.wgmma.wait.group.sync.aligned N`` (PTX ``wgmma.wait_group.sync.aligned N``): wait
    until at most ``N`` of the warpgroup's committed groups are pending; the older ones' results
    are valid and their shared-memory reads done."""

    name = "nvvm.wgmma.wait.group.sync.aligned"
    group = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(MemoryWriteEffect())

    def __init__(self, group: int):
        super().__init__(properties={"group": IntegerAttr(group, i64)})

    @property
    def pending(self) -> int:
        """The most groups left pending (``group``)."""
        return self.group.value.data

    def verify_(self) -> None:
        if self.group.type != i64 or self.pending < 0:
            raise VerifyException(
                "nvvm.wgmma.wait.group.sync.aligned: group must be a non-negative i64"
            )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(f" {self.pending}")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        op = cls(parser.parse_integer(allow_boolean=False))
        op.attributes |= attributes
        return op


@irdl_op_definition
class FenceProxyOp(IRDLOperation):
    """``nvvm.fence.proxy`` (PTX ``fence.proxy.async.shared::cta``): makes the thread's earlier
    generic-proxy writes to the block's shared memory visible to the async proxy that ``wgmma``
    reads through (a barrier then publishes them to the other threads). Only ``kind =
    async.shared`` and ``space = cta`` are supported."""

    name = "nvvm.fence.proxy"
    kind = prop_def(ProxyKindAttr)
    space = opt_prop_def(SharedSpaceAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"
    traits = traits_def(MemoryWriteEffect())

    def __init__(self) -> None:
        super().__init__(
            properties={"kind": ProxyKindAttr("async.shared"), "space": SharedSpaceAttr("cta")}
        )

    def verify_(self) -> None:
        space = None if self.space is None else self.space.data
        if (self.kind.data, space) != ("async.shared", "cta"):
            raise VerifyException(
                "nvvm.fence.proxy: only kind = #nvvm.proxy_kind<async.shared> with space = "
                f"#nvvm.shared_space<cta> is supported, not kind = {self.kind.data}, space = "
                f"{space or '(none)'}"
            )


WGMMA_OPS: list[type[IRDLOperation]] = [
    WgmmaMmaAsyncOp,
    WgmmaFenceAlignedOp,
    WgmmaCommitGroupSyncAlignedOp,
    WgmmaWaitGroupSyncAlignedOp,
    FenceProxyOp,
]
WGMMA_ATTRS: list[type[Attribute]] = [
    WgmmaTypeAttr,
    WgmmaScaleInAttr,
    WgmmaScaleOutAttr,
    ProxyKindAttr,
    SharedSpaceAttr,
]
