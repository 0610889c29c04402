"""``#ttg.nvidia_mma``: the tensor-core instruction a ``tt.dot`` runs, as a fact of the IR.

``ttg-accelerate-matmul`` decides once per dot (``passes/ttg/mma_policy.py``) and writes the
decision on the dot, in Triton's spelling; layout assignment, the pipelining pass and the
lowering read it instead of deciding again::

    %d = tt.dot %a, %b, %c {ttg.mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0,
           warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>, ...} : ...

``versionMajor = 2`` is ``mma.sync`` (warp MMAs of ``16 x 8 x k``), ``3`` Hopper's
``wgmma.mma_async`` (warpgroup MMAs: four warps along M make one ``64 x n x k`` instruction,
spelled per warp, ``[16, n, k]``, as Triton does). ``k`` is 256 bits of the operand the
instruction reads: 8 tf32, 16 f16/bf16, 32 int8 or fp8. ``warpsPerCTA`` splits the
accumulator's M and N over the warps. A dot without ``ttg.mma`` runs the CUDA-core FMA loop.

Triton makes the decision the accumulator's encoding. Ours stays on the dot: the accumulator
keeps the blocked layout that already holds an MMA's result fragments
(``accumulator_layout``: lane ``4g + q`` owns columns ``2q, 2q + 1`` of row ``g`` of each
8 x 8 piece), so every op that reads it (elementwise, reductions, conversions, stores,
gpusim) needs nothing new, and two dots whose results meet compare equal layouts.

The other ``ttg`` attributes of a dot are declared on ``tt.dot`` and checked here
(``verify_dot``, run by its verifier): ``ttg.lhs_shared``/``ttg.rhs_shared``, how layout
assignment stages A and B in shared memory (padded ``#ttg.shared`` rows, or wgmma's swizzled
``#ttg.nvmma_shared`` tiles), and ``ttg.async`` (``ttg_async_dot``).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, IntAttr, f32, i8, i32
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt.types import element_type, shape_of
from mytriton.dialects.ttg.async_dot import ASYNC_ATTR
from mytriton.dialects.ttg.layouts import BlockedLayoutAttr, SharedLayoutAttr, layout_of
from mytriton.dialects.ttg.nvmma import NvmmaSharedLayoutAttr

MMA_ATTR = "ttg.mma"
LHS_SHARED_ATTR = "ttg.lhs_shared"
RHS_SHARED_ATTR = "ttg.rhs_shared"
STAGED_OPERANDS = {0: LHS_SHARED_ATTR, 1: RHS_SHARED_ATTR}  # by operand index: A, B
#: every ``ttg`` attribute a ``tt.dot`` may carry
DOT_ATTRIBUTES = (MMA_ATTR, LHS_SHARED_ATTR, RHS_SHARED_ATTR, ASYNC_ATTR)

MMA_SYNC, WGMMA = 2, 3  # versionMajor
INSTR_M = 16  # rows of an instruction per warp (a warpgroup MMA's 64 over its four warps)
MMA_SYNC_N = 8
WGMMA_MAX_N = 256
INSTR_BITS = 256  # k x the operand's bits, every form
INSTR_K = (8, 16, 32)  # tf32, f16/bf16, 8-bit
WARPGROUP_WARPS = 4
# the accumulator's blocked layout: two consecutive columns a thread, 8 x 4 lanes
ACC_SIZE_PER_THREAD = (1, 2)
ACC_THREADS_PER_WARP = (8, 4)


def _ints(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr([IntAttr(v) for v in values])


def _power_of_two(v: int) -> bool:
    return v > 0 and v & (v - 1) == 0


@irdl_attr_definition
class NvidiaMmaEncodingAttr(ParametrizedAttribute):
    """``#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2],
    instrShape = [16, 8, 16]}>`` (see the module doc)."""

    name = "ttg.nvidia_mma"

    version_major: IntAttr
    version_minor: IntAttr
    warps_per_cta: ArrayAttr[IntAttr]
    instr_shape: ArrayAttr[IntAttr]

    def __init__(self, version: int, warps: Sequence[int], instr_shape: Sequence[int]):
        super().__init__(IntAttr(version), IntAttr(0), _ints(warps), _ints(instr_shape))

    @property
    def version(self) -> int:
        return self.version_major.data

    @property
    def warps(self) -> tuple[int, ...]:
        return tuple(v.data for v in self.warps_per_cta.data)

    @property
    def instr(self) -> tuple[int, ...]:
        return tuple(v.data for v in self.instr_shape.data)

    @property
    def is_wgmma(self) -> bool:
        return self.version == WGMMA

    @property
    def operand_bits(self) -> int:
        """The width of the operand elements the instruction reads (8, 16 or 32)."""
        return INSTR_BITS // self.instr[2]

    def accumulator_layout(self) -> BlockedLayoutAttr:
        """The blocked layout that holds this instruction's results over ``warpsPerCTA``."""
        return BlockedLayoutAttr(ACC_SIZE_PER_THREAD, ACC_THREADS_PER_WARP, self.warps, (1, 0))

    def verify(self) -> None:
        what = "#ttg.nvidia_mma"
        if self.version not in (MMA_SYNC, WGMMA):
            raise VerifyException(f"{what}: versionMajor must be 2 (mma.sync) or 3 (wgmma)")
        if self.version_minor.data != 0:
            raise VerifyException(f"{what}: versionMinor must be 0")
        warps = self.warps
        if len(warps) != 2 or not all(_power_of_two(w) for w in warps):
            raise VerifyException(f"{what}: warpsPerCTA must be two powers of two, got {warps}")
        if self.is_wgmma and warps[0] % WARPGROUP_WARPS:
            raise VerifyException(
                f"{what}: wgmma needs whole warpgroups along M (warpsPerCTA[0] a multiple of "
                f"{WARPGROUP_WARPS}), got {list(warps)}"
            )
        problem = _instr_problem(self.version, self.instr)
        if problem is not None:
            raise VerifyException(f"{what}: {problem}")

    def print_parameters(self, printer: Printer) -> None:
        warps = ", ".join(map(str, self.warps))
        instr = ", ".join(map(str, self.instr))
        printer.print_string(
            f"<{{versionMajor = {self.version}, versionMinor = {self.version_minor.data}, "
            f"warpsPerCTA = [{warps}], instrShape = [{instr}]}}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_punctuation("{")
        values: dict[str, int | list[int]] = {"versionMinor": 0}
        lists = ("warpsPerCTA", "instrShape")
        while True:
            key = parser.parse_identifier()
            if key not in ("versionMajor", "versionMinor", *lists):
                parser.raise_error(f"#ttg.nvidia_mma: unknown parameter {key!r}")
            parser.parse_punctuation("=")
            if key in lists:
                delimiter = parser.Delimiter.SQUARE
                values[key] = parser.parse_comma_separated_list(delimiter, parser.parse_integer)
            else:
                values[key] = parser.parse_integer()
            if not parser.parse_optional_punctuation(","):
                break
        parser.parse_punctuation("}")
        parser.parse_punctuation(">")
        missing = [k for k in ("versionMajor", *lists) if k not in values]
        if missing:
            parser.raise_error(f"#ttg.nvidia_mma: missing {', '.join(missing)}")
        major, minor = values["versionMajor"], values["versionMinor"]
        assert isinstance(major, int) and isinstance(minor, int)
        warps, instr = values["warpsPerCTA"], values["instrShape"]
        assert isinstance(warps, list) and isinstance(instr, list)
        return (IntAttr(major), IntAttr(minor), _ints(warps), _ints(instr))


def _instr_problem(version: int, instr: Sequence[int]) -> str | None:
    """Why ``instrShape`` is no instruction of ``version``, or None."""
    if len(instr) != 3:
        return f"instrShape must be [m, n, k], got {list(instr)}"
    m, n, k = instr
    if m != INSTR_M or k not in INSTR_K:
        return f"instrShape must be [16, n, k] with k in {list(INSTR_K)}, got {list(instr)}"
    if version == MMA_SYNC and n != MMA_SYNC_N:
        return f"mma.sync's instrShape n is {MMA_SYNC_N}, got {n}"
    if version == WGMMA and (n % 8 or not 8 <= n <= WGMMA_MAX_N):
        return f"wgmma's instrShape n must be a multiple of 8 up to {WGMMA_MAX_N}, got {n}"
    return None


def dot_mma(op: tt.DotOp) -> NvidiaMmaEncodingAttr | None:
    """The instruction ``ttg-accelerate-matmul`` chose for ``op`` (None: the FMA loop)."""
    mma = op.mma
    return mma if isinstance(mma, NvidiaMmaEncodingAttr) else None


def set_dot_mma(op: tt.DotOp, mma: NvidiaMmaEncodingAttr | None) -> None:
    if mma is None:
        op.attributes.pop(MMA_ATTR, None)
    else:
        op.attributes[MMA_ATTR] = mma


def is_warpgroup_mma(op: tt.DotOp) -> bool:
    mma = dot_mma(op)
    return mma is not None and mma.is_wgmma


def staged_layout(op: tt.DotOp, operand: int) -> SharedLayoutAttr | NvmmaSharedLayoutAttr | None:
    """The shared-memory encoding layout assignment chose for operand ``operand`` (0: A)."""
    layout = op.attributes.get(STAGED_OPERANDS[operand])
    return layout if isinstance(layout, SharedLayoutAttr | NvmmaSharedLayoutAttr) else None


def verify_dot(op: tt.DotOp) -> None:
    """The ``ttg`` attributes of ``op``: declared, of their types, and consistent with the dot
    and with each other."""
    for name in op.attributes:
        if name.startswith("ttg.") and name not in DOT_ATTRIBUTES:
            raise VerifyException(
                f"tt.dot: unknown attribute {name} (a dot's ttg attributes: "
                f"{', '.join(DOT_ATTRIBUTES)})"
            )
    if op.mma is not None and dot_mma(op) is None:
        raise VerifyException(f"tt.dot: {MMA_ATTR} must be a #ttg.nvidia_mma")
    mma = dot_mma(op)
    if mma is not None:
        _check_instruction(op, mma)
    _check_staging(op, mma)
    if op.is_async is not None and (mma is None or not mma.is_wgmma):
        raise VerifyException(f"tt.dot: {ASYNC_ATTR} is for warpgroup MMAs (versionMajor = 3)")


def _check_instruction(op: tt.DotOp, mma: NvidiaMmaEncodingAttr) -> None:
    """``mma`` is an instruction for ``op``'s types and tile, its result in its layout."""
    a_shape, b_shape = shape_of(op.a.type), shape_of(op.b.type)
    if len(a_shape) != 2:
        raise VerifyException(f"tt.dot: {MMA_ATTR} is for rank-2 dots, got rank {len(a_shape)}")
    problem = _operand_problem(op, mma)
    if problem is not None:
        raise VerifyException(f"tt.dot: {problem}")
    (m, k), n = a_shape, b_shape[1]
    (wm, wn), (_, instr_n, instr_k) = mma.warps, mma.instr
    if m % (INSTR_M * wm) or n % (instr_n * wn) or k % instr_k:
        raise VerifyException(
            f"tt.dot: a [{m}, {n}, {k}] tile is no whole number of instructions "
            f"{list(mma.instr)} over warpsPerCTA = {list(mma.warps)}"
        )
    if mma.is_wgmma and (wn != 1 or instr_n != n):
        raise VerifyException(
            "tt.dot: warpgroup MMAs put every warp along M (warpsPerCTA = [w, 1]) and one "
            f"instruction spans N (instrShape n = {n}), got {list(mma.warps)}, n = {instr_n}"
        )
    acc = layout_of(op.acc.type)
    if acc is not None and acc != mma.accumulator_layout():
        raise VerifyException(
            f"tt.dot: the accumulator of {MMA_ATTR} must be laid out as "
            f"{mma.accumulator_layout()}, got {acc}"
        )


def _operand_problem(op: tt.DotOp, mma: NvidiaMmaEncodingAttr) -> str | None:
    """Why the instruction cannot read ``op``'s operands into its accumulator, or None."""
    operand, acc = element_type(op.a.type), element_type(op.acc.type)
    if acc not in (f32, i32) or (acc == i32) != (operand == i8):
        return f"{MMA_ATTR} needs an f32 accumulator (i32 for int8 operands), got {acc}"
    if operand == f32 and op.precision not in ("tf32", "tf32x3"):
        return f'{MMA_ATTR} reads f32 operands as tf32 only (input_precision = "tf32")'
    bits = getattr(operand, "bitwidth", 0)
    # fp8 operands may say f16: tt-legalize-fp8-dots widens them
    allowed = (bits, 16) if operand in tt.FP8_MMA_TYPES else (bits,)
    if mma.operand_bits not in allowed:
        return f"instrShape k = {mma.instr[2]} reads {mma.operand_bits}-bit operands, not {operand}"
    return None


def _check_staging(op: tt.DotOp, mma: NvidiaMmaEncodingAttr | None) -> None:
    """Both operands staged or neither (warpgroup MMAs, once laid out: both); wgmma's swizzled
    tiles exactly for warpgroup MMAs."""
    names = [name for name in (LHS_SHARED_ATTR, RHS_SHARED_ATTR) if name in op.attributes]
    swizzled = mma is not None and mma.is_wgmma
    if not names:
        if swizzled and layout_of(op.acc.type) is not None:
            raise VerifyException(
                f"tt.dot: a laid-out dot of warpgroup MMAs needs {LHS_SHARED_ATTR} and "
                f"{RHS_SHARED_ATTR} (its swizzled tiles)"
            )
        return
    if len(names) == 1:
        raise VerifyException(f"tt.dot: {LHS_SHARED_ATTR} and {RHS_SHARED_ATTR} go together")
    expected = NvmmaSharedLayoutAttr if swizzled else SharedLayoutAttr
    for name in names:
        if not isinstance(op.attributes[name], expected):
            raise VerifyException(
                f"tt.dot: {name} must be a #{expected.name}"
                + (" (warpgroup MMAs read swizzled tiles)" if swizzled else "")
            )


tt.DOT_ATTRIBUTE_CHECKS.append(verify_dot)
