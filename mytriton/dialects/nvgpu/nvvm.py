"""The NVVM ops of tensor-core dots and asynchronous copies, which xDSL 0.74 lacks:
``nvvm.mma.sync``, ``nvvm.ldmatrix``, ``nvvm.cp.async.shared.global``,
``nvvm.cp.async.commit.group``, ``nvvm.cp.async.wait.group`` and their attributes.

Names, operands, properties and types match upstream MLIR 22 exactly, so ``mlir-opt`` parses the
generic form we print and lowers it to ``llvm.nvvm.mma.*``; the CUDA printer prints the same op
as the PTX ``mma.sync.aligned`` instruction; gpusim executes it warp by warp with the PTX ISA's
fragment layouts (which lane holds which element). A warp-wide matrix multiply-accumulate
``D = A @ B + C`` of one ``m x n x k`` tile, A row-major and B column-major:

    %d = "nvvm.mma.sync"(%a0, %a1, %a2, %a3, %b0, %b1, %c0, %c1, %c2, %c3) <{
           layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
           multiplicandAPtxType = #nvvm.mma_type<f16>, multiplicandBPtxType = #nvvm.mma_type<f16>,
           operandSegmentSizes = array<i32: 4, 2, 4>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}>
         : (vector<2xf16>, ..., f32, ...) -> !llvm.struct<(f32, f32, f32, f32)>

The forms we make (``MMA_FORMS``): f16 (``vector<2xf16>`` registers) and bf16 (``i32``
registers, two bf16 each) at m16n8k16, tf32 at m16n8k8 (``i32`` registers holding f32 bits:
the tensor core reads their upper 19 bits), each accumulating four f32 per lane; s8 at m16n8k32
(``i32`` registers, four int8 each, the lowest k in the low byte) accumulating four i32 per
lane, wrapping on overflow (``intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>``, which
upstream requires of integer forms).

``nvvm.ldmatrix`` loads a warp's fragment registers from shared memory: ``num`` (1, 2, 4) 8 x 8
matrices of 16-bit elements, lanes ``8j`` to ``8j + 7`` each giving the address of one 16-byte
row of matrix ``j``; lane ``4g + q`` receives, in its register ``j``, elements ``2q, 2q + 1``
of row ``g`` (``layout = row``) or, transposed (``col``), rows ``2q, 2q + 1`` of column ``g``
(the lower index in the low half):

    %r = "nvvm.ldmatrix"(%p) <{eltType = #nvvm.ld_st_matrix_elt_type<b16>,
           layout = #nvvm.mma_layout<row>, num = 4 : i32,
           shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}>
         : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>

``nvvm.cp.async.shared.global`` (PTX ``cp.async``) starts a copy of ``size`` (4, 8 or 16) bytes
from global to shared memory, both addresses aligned to ``size``; with ``cpSize``, only that
many bytes (0 to ``size``) are read and the rest of the destination is zero-filled (a masked-off
element: ``cpSize`` 0 reads nothing). ``modifier`` is ``ca`` (cache in L1) or ``cg`` (L2 only,
16-byte copies only). A thread's copies are in flight until it commits them as a group
(``nvvm.cp.async.commit.group``) and waits until at most ``n`` of its groups are pending
(``nvvm.cp.async.wait.group n``); other threads see the data after a barrier that follows:

    "nvvm.cp.async.shared.global"(%dst, %src, %n) <{modifier = #nvvm<load_cache_modifier cg>,
           size = 16 : i32}> : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
    "nvvm.cp.async.commit.group"() : () -> ()
    "nvvm.cp.async.wait.group"() <{n = 0 : i32}> : () -> ()

(upstream's custom form: ``nvvm.cp.async.shared.global %dst, %src, 16, cache = cg, %n :
!llvm.ptr<3>, !llvm.ptr<1>, i32``, ``nvvm.cp.async.commit.group``, ``nvvm.cp.async.wait.group 0``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    IntegerType,
    VectorType,
    f16,
    f32,
    i32,
)
from xdsl.ir import (
    Attribute,
    Data,
    Operation,
    ParametrizedAttribute,
    SpacedOpaqueSyntaxAttribute,
    SSAValue,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException


class _Keyword(Data[str]):
    """An attribute whose one parameter is a keyword: ``#nvvm.mma_layout<row>``."""

    KEYWORDS: tuple[str, ...] = ()

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        with parser.in_angle_brackets():
            word = parser.parse_identifier()
        if word not in cls.KEYWORDS:
            parser.raise_error(f"expected one of {', '.join(cls.KEYWORDS)}, got {word!r}")
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{self.data}>")

    def verify(self) -> None:
        if self.data not in self.KEYWORDS:
            raise VerifyException(f"#{self.name}: expected one of {', '.join(self.KEYWORDS)}")


def _print_sizes(printer: Printer, keys: str, values: Sequence[int]) -> None:
    """``<m = 16, n = 8, k = 16>``: upstream's spelling of a shape attribute."""
    fields = ", ".join(f"{k} = {v}" for k, v in zip(keys, values, strict=True))
    printer.print_string(f"<{fields}>")


def _parse_sizes(parser: AttrParser, keys: str) -> tuple[IntAttr, ...]:
    values = []
    with parser.in_angle_brackets():
        for i, key in enumerate(keys):
            if i:
                parser.parse_punctuation(",")
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            values.append(IntAttr(parser.parse_integer()))
    return tuple(values)


@irdl_attr_definition
class MmaLayoutAttr(_Keyword):
    """``#nvvm.mma_layout<row>`` / ``<col>``: how an operand's fragment is ordered."""

    name = "nvvm.mma_layout"
    KEYWORDS = ("row", "col")


@irdl_attr_definition
class MmaTypeAttr(_Keyword):
    """``#nvvm.mma_type<f16>``: the PTX type of an operand's elements."""

    name = "nvvm.mma_type"
    KEYWORDS = ("f16", "bf16", "tf32", "s8", "u8", "s32", "f32", "e4m3", "e5m2")  # upstream's


@irdl_attr_definition
class MmaShapeAttr(ParametrizedAttribute):
    """``#nvvm.shape<m = 16, n = 8, k = 16>``: the tile one instruction multiplies."""

    name = "nvvm.shape"

    m: IntAttr
    n: IntAttr
    k: IntAttr

    def __init__(self, m: int, n: int, k: int):
        super().__init__(IntAttr(m), IntAttr(n), IntAttr(k))

    @property
    def mnk(self) -> tuple[int, int, int]:
        return self.m.data, self.n.data, self.k.data

    def print_parameters(self, printer: Printer) -> None:
        _print_sizes(printer, "mnk", self.mnk)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_sizes(parser, "mnk")


@dataclass(frozen=True)
class MmaForm:
    """One instruction form: its shape, operand register type and registers per lane."""

    ptx_type: str
    shape: tuple[int, int, int]
    register: Attribute
    a_registers: int
    b_registers: int
    per_register: int  # operand elements packed in one register
    accumulator: Attribute = f32

    @property
    def integer(self) -> bool:
        return self.accumulator == i32

    @property
    def result(self) -> llvm.LLVMStructType:
        """The struct of the four accumulators an instruction returns."""
        return llvm.LLVMStructType.from_type_list([self.accumulator] * ACCUMULATORS)


F16_PAIR = VectorType(f16, [2])
MMA_FORMS = {
    "f16": MmaForm("f16", (16, 8, 16), F16_PAIR, 4, 2, 2),
    "bf16": MmaForm("bf16", (16, 8, 16), i32, 4, 2, 2),
    "tf32": MmaForm("tf32", (16, 8, 8), i32, 4, 2, 1),
    "s8": MmaForm("s8", (16, 8, 32), i32, 4, 2, 4, accumulator=i32),
}
ACCUMULATORS = 4  # per lane: D rows g and g + 8, columns 2q and 2q + 1


@irdl_attr_definition
class MmaIntOverflowAttr(_Keyword):
    """``#nvvm.mma_int_overflow<wrapped>``: what an integer MMA does on overflow."""

    name = "nvvm.mma_int_overflow"
    KEYWORDS = ("wrapped", "satfinite")


class WarpMmaOp(IRDLOperation):
    """The operands and properties of a warp-wide tensor-core MMA (``nvvm.mma.sync``, and
    ``ptx.mma.sync`` of fp8 operands), and what they say."""

    a_operands = var_operand_def()
    b_operands = var_operand_def()
    c_operands = var_operand_def()
    res = result_def(llvm.LLVMStructType)
    layoutA = prop_def(MmaLayoutAttr)  # noqa: N815 (upstream's property names)
    layoutB = prop_def(MmaLayoutAttr)  # noqa: N815
    shape = prop_def(MmaShapeAttr)
    multiplicandAPtxType = prop_def(MmaTypeAttr)  # noqa: N815
    multiplicandBPtxType = prop_def(MmaTypeAttr)  # noqa: N815
    intOverflowBehavior = opt_prop_def(MmaIntOverflowAttr)  # noqa: N815
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def __init__(
        self,
        form: MmaForm,
        a: Sequence[SSAValue],
        b: Sequence[SSAValue],
        c: Sequence[SSAValue],
    ):
        ptx = MmaTypeAttr(form.ptx_type)
        properties: dict[str, Attribute] = {
            "layoutA": MmaLayoutAttr("row"),
            "layoutB": MmaLayoutAttr("col"),
            "shape": MmaShapeAttr(*form.shape),
            "multiplicandAPtxType": ptx,
            "multiplicandBPtxType": ptx,
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [len(a), len(b), len(c)]),
        }
        if form.integer:  # wrapping, like Triton's int8 dot
            properties["intOverflowBehavior"] = MmaIntOverflowAttr("wrapped")
        super().__init__(
            operands=[list(a), list(b), list(c)],
            result_types=[form.result],
            properties=properties,
        )

    @property
    def form(self) -> MmaForm:
        """A's instruction form (the verifier guarantees there is one)."""
        raise NotImplementedError

    @property
    def b_form(self) -> MmaForm:
        """B's form: A's (``ptx.mma.sync``: either fp8 format)."""
        return self.form

    def verify_fragments(self, form: MmaForm, kind: str) -> None:
        """What every form checks: the layouts, ``form``'s shape, its registers and result
        (``kind``: the operand types, as the messages name them)."""
        what = self.name
        if (self.layoutA.data, self.layoutB.data) != ("row", "col"):
            raise VerifyException(f"{what}: only layoutA = row, layoutB = col is supported")
        if self.shape.mnk != form.shape:
            m, n, k = form.shape
            raise VerifyException(f"{what}: {kind} operands need shape m{m}n{n}k{k}")
        for role, values, count, t in (
            ("A", self.a_operands, form.a_registers, form.register),
            ("B", self.b_operands, form.b_registers, form.register),
            ("C", self.c_operands, ACCUMULATORS, form.accumulator),
        ):
            if len(values) != count or any(v.type != t for v in values):
                raise VerifyException(f"{what}: {kind} needs {count} {role} operands of {t}")
        if self.res.type != form.result:
            raise VerifyException(f"{what}: the result must be {form.result}")

    @property
    def instruction(self) -> str:
        """The PTX instruction, B's type as the op says (``ptx.mma.sync``: either fp8)."""
        m, n, k = self.form.shape
        acc = "s32" if self.form.integer else "f32"
        a, b = self.multiplicandAPtxType.data, self.multiplicandBPtxType.data
        return f"mma.sync.aligned.m{m}n{n}k{k}.row.col.{acc}.{a}.{b}.{acc}"


@irdl_op_definition
class MmaSyncOp(WarpMmaOp):
    """``nvvm.mma.sync``: one warp-wide tensor-core multiply-accumulate (see the module doc)."""

    name = "nvvm.mma.sync"

    @property
    def form(self) -> MmaForm:
        """The instruction form (the verifier guarantees there is one)."""
        return MMA_FORMS[self.multiplicandAPtxType.data]

    def verify_(self) -> None:
        kind = self.multiplicandAPtxType.data
        form = MMA_FORMS.get(kind)
        if form is None or self.multiplicandBPtxType.data != kind:
            raise VerifyException(
                f"nvvm.mma.sync: supported operand types are {', '.join(MMA_FORMS)} (A and B alike)"
            )
        self.verify_fragments(form, kind)
        overflow = self.intOverflowBehavior
        if form.integer and (overflow is None or overflow.data != "wrapped"):
            raise VerifyException(
                "nvvm.mma.sync: integer forms need intOverflowBehavior = "
                "#nvvm.mma_int_overflow<wrapped>"
            )
        if not form.integer and overflow is not None:
            raise VerifyException("nvvm.mma.sync: intOverflowBehavior is for integer forms only")


@irdl_attr_definition
class LdStMatrixEltTypeAttr(_Keyword):
    """``#nvvm.ld_st_matrix_elt_type<b16>``: the element size ``ldmatrix`` moves."""

    name = "nvvm.ld_st_matrix_elt_type"
    KEYWORDS = ("b16",)


@irdl_attr_definition
class LdStMatrixShapeAttr(ParametrizedAttribute):
    """``#nvvm.ld_st_matrix_shape<m = 8, n = 8>``: the matrices ``ldmatrix`` loads."""

    name = "nvvm.ld_st_matrix_shape"

    m: IntAttr
    n: IntAttr

    def __init__(self, m: int, n: int):
        super().__init__(IntAttr(m), IntAttr(n))

    def print_parameters(self, printer: Printer) -> None:
        _print_sizes(printer, "mn", (self.m.data, self.n.data))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_sizes(parser, "mn")


SHARED_POINTER = llvm.LLVMPointerType(IntAttr(3))
LDMATRIX_COUNTS = (1, 2, 4)


def ldmatrix_result(num: int) -> Attribute:
    """One ``i32`` register, or a struct of ``num`` of them."""
    return i32 if num == 1 else llvm.LLVMStructType.from_type_list([i32] * num)


@irdl_op_definition
class LdMatrixOp(IRDLOperation):
    """``nvvm.ldmatrix``: a warp's fragment registers from 8 x 8 matrices in shared memory (see
    the module doc)."""

    name = "nvvm.ldmatrix"
    ptr = operand_def(llvm.LLVMPointerType)
    res = result_def()
    num = prop_def(IntegerAttr[IntegerType])
    layout = prop_def(MmaLayoutAttr)
    shape = prop_def(LdStMatrixShapeAttr)
    eltType = prop_def(LdStMatrixEltTypeAttr)  # noqa: N815 (upstream's property name)
    traits = traits_def(MemoryReadEffect())

    def __init__(self, ptr: SSAValue, num: int, transposed: bool):
        super().__init__(
            operands=[ptr],
            result_types=[ldmatrix_result(num)],
            properties={
                "num": IntegerAttr(num, i32),
                "layout": MmaLayoutAttr("col" if transposed else "row"),
                "shape": LdStMatrixShapeAttr(8, 8),
                "eltType": LdStMatrixEltTypeAttr("b16"),
            },
        )

    @property
    def count(self) -> int:
        return self.num.value.data

    @property
    def transposed(self) -> bool:
        return self.layout.data == "col"

    def verify_(self) -> None:
        if self.count not in LDMATRIX_COUNTS:
            raise VerifyException("nvvm.ldmatrix: num must be 1, 2 or 4")
        if (self.shape.m.data, self.shape.n.data) != (8, 8):
            raise VerifyException("nvvm.ldmatrix: only the m8n8 shape is supported")
        if self.ptr.type != SHARED_POINTER:
            raise VerifyException("nvvm.ldmatrix: the address must be an !llvm.ptr<3>")
        if self.res.type != ldmatrix_result(self.count):
            raise VerifyException(
                f"nvvm.ldmatrix: num = {self.count} returns {ldmatrix_result(self.count)}"
            )


@irdl_attr_definition
class LoadCacheModifierAttr(_Keyword, SpacedOpaqueSyntaxAttribute):
    """``#nvvm<load_cache_modifier cg>``: the cache level a ``cp.async`` goes through (upstream
    prints it in this opaque form only; ``#nvvm.load_cache_modifier<cg>`` does not parse)."""

    name = "nvvm.load_cache_modifier"
    KEYWORDS = ("ca", "cg", "cs", "lu", "cv")

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> str:
        word = parser.parse_identifier()
        if word not in cls.KEYWORDS:
            parser.raise_error(f"expected one of {', '.join(cls.KEYWORDS)}, got {word!r}")
        return word

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data)


GLOBAL_POINTER = llvm.LLVMPointerType(IntAttr(1))
CP_ASYNC_SIZES = (4, 8, 16)


@irdl_op_definition
class CpAsyncOp(IRDLOperation):
    """``nvvm.cp.async.shared.global``: start copying ``size`` bytes from global memory at
    ``src`` to shared memory at ``dst`` (only ``cpSize`` of them read, the rest zeros, when
    given); see the module doc."""

    name = "nvvm.cp.async.shared.global"
    dst = operand_def(llvm.LLVMPointerType)
    src = operand_def(llvm.LLVMPointerType)
    cpSize = opt_operand_def(IntegerType)  # noqa: N815 (upstream's operand name)
    size = prop_def(IntegerAttr[IntegerType])
    modifier = prop_def(LoadCacheModifierAttr)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())

    def __init__(
        self,
        dst: SSAValue,
        src: SSAValue,
        size: int,
        cache_global: bool,
        src_bytes: SSAValue | None = None,
    ):
        super().__init__(
            operands=[dst, src, [] if src_bytes is None else [src_bytes]],
            properties={
                "size": IntegerAttr(size, i32),
                "modifier": LoadCacheModifierAttr("cg" if cache_global else "ca"),
            },
        )

    @property
    def bytes(self) -> int:
        """The bytes written to shared memory (``size``)."""
        return self.size.value.data

    @property
    def cache_global(self) -> bool:
        """``cg``: cached in L2 only (else ``ca``)."""
        return self.modifier.data == "cg"

    def verify_(self) -> None:
        if self.dst.type != SHARED_POINTER:
            raise VerifyException("nvvm.cp.async.shared.global: dst must be an !llvm.ptr<3>")
        if self.src.type != GLOBAL_POINTER:
            raise VerifyException("nvvm.cp.async.shared.global: src must be an !llvm.ptr<1>")
        if self.size.type != i32 or self.bytes not in CP_ASYNC_SIZES:
            raise VerifyException("nvvm.cp.async.shared.global: size must be 4, 8 or 16 (i32)")
        if self.modifier.data not in ("ca", "cg"):
            raise VerifyException("nvvm.cp.async.shared.global: the modifier must be ca or cg")
        if self.cache_global and self.bytes != 16:
            raise VerifyException("nvvm.cp.async.shared.global: cg is for 16-byte copies only")
        if self.cpSize is not None and self.cpSize.type != i32:
            raise VerifyException("nvvm.cp.async.shared.global: cpSize must be an i32")


@irdl_op_definition
class CpAsyncCommitGroupOp(IRDLOperation):
    """``nvvm.cp.async.commit.group``: the thread's uncommitted ``cp.async`` copies (possibly
    none) become its newest group."""

    name = "nvvm.cp.async.commit.group"
    traits = traits_def(MemoryWriteEffect())

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class CpAsyncWaitGroupOp(IRDLOperation):
    """``nvvm.cp.async.wait.group n``: wait until at most ``n`` of the thread's committed groups
    are pending (the older ones have written shared memory)."""

    name = "nvvm.cp.async.wait.group"
    n = prop_def(IntegerAttr[IntegerType])
    traits = traits_def(MemoryWriteEffect())

    def __init__(self, n: int):
        super().__init__(properties={"n": IntegerAttr(n, i32)})

    @property
    def pending(self) -> int:
        """The most groups left pending (``n``)."""
        return self.n.value.data

    def verify_(self) -> None:
        if self.n.type != i32 or self.pending < 0:
            raise VerifyException("nvvm.cp.async.wait.group: n must be a non-negative i32")


#: the ``nvvm`` ops of tensor cores before Hopper and of asynchronous copies (``nvgpu.dialect``
#: registers them in the one ``nvvm`` dialect)
NVVM_OPS: list[type[Operation]] = [
    MmaSyncOp,
    LdMatrixOp,
    CpAsyncOp,
    CpAsyncCommitGroupOp,
    CpAsyncWaitGroupOp,
]
NVVM_ATTRS: list[type[Attribute]] = [
    MmaLayoutAttr,
    MmaTypeAttr,
    MmaShapeAttr,
    MmaIntOverflowAttr,
    LdStMatrixEltTypeAttr,
    LdStMatrixShapeAttr,
    LoadCacheModifierAttr,
]
