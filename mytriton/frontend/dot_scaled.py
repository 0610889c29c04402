"""``tl.dot_scaled``: Triton's microscaled (OCP MX) matrix product, decomposed here into `tt`
ops as Triton's Hopper backend decomposes ``tt.dot_scaled`` (``DecomposeScaledBlocked``), so
every backend runs it with no op of its own and with sm_90 Triton's numerics:

* the compute type is float16 when either format is ``"fp16"``, else bfloat16;
* each operand is converted to it: e2m1 nibbles (two per uint8, the first element in the low
  bits, packed along K, or along M/N when its ``k_pack`` is False) exactly, the other formats
  by a conversion (a bf16 operand of an f16 dot rounds);
* an operand with a scale (e8m0 as uint8, one per 32 elements along K; the rhs's given as
  ``[N, K // 32]``) is multiplied in the compute type by the scale made as Triton makes it:
  bf16 ``s << 7`` reinterpreted (``2**(s - 127)``, but 0 for ``s == 0`` and inf for 255), f16
  ``s << 23`` reinterpreted as f32 and rounded to f16 (0 below ``2**-24``, inf above
  ``2**15``); unless ``fast_math``, elements whose scale is ``0xFF`` become NaN;
* the two are multiplied by ``tt.dot`` into f32, plus ``acc``.

The argument rules are Triton 3.6's (``semantic.dot_scaled``); each violation is a typed error
at the call's line, also for what Triton's Hopper path cannot compile (fp8 scales, scales of
batched operands).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mytriton.dialects.tt import core as tt
from mytriton.dialects.tt import elementwise as ew
from mytriton.errors import ConstexprError, KernelTypeError, KernelValueError
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

FORMATS = ("e2m1", "e4m3", "e5m2", "bf16", "fp16")
SCALE_GROUP = 32  # elements along K sharing one e8m0 scale
_FLOAT_TYPES = {
    "e4m3": core.float8e4nv,
    "e5m2": core.float8e5,
    "bf16": core.bfloat16,
    "fp16": core.float16,
}
_STORAGE_TYPES = {"e4m3": core.uint8, "e5m2": core.uint8, "bf16": core.uint16, "fp16": core.uint16}
# per compute type: mantissa bits, exponent bias, the bits of 0.5
_HALF_LAYOUT = {core.bfloat16: (7, 127, 0x3F00), core.float16: (10, 15, 0x3800)}


@dataclass(frozen=True)
class _Operand:
    """One side of the product, checked: ``value`` is uint8 for e2m1, else its float type."""

    side: str  # "lhs" or "rhs"
    value: TensorValue
    scale: TensorValue | None
    fmt: str
    k_pack: bool

    @property
    def packed_axis(self) -> int:
        """The axis along which two e2m1 values share a byte (K, or M/N without k_pack)."""
        rank = len(self.value.shape)
        k_axis = rank - 1 if self.side == "lhs" else rank - 2
        m_or_n_axis = rank - 2 if self.side == "lhs" else rank - 1
        return k_axis if self.k_pack else m_or_n_axis

    @property
    def logical_shape(self) -> tuple[int, ...]:
        """The shape of the operand's elements once unpacked."""
        shape = list(self.value.shape)
        if self.fmt == "e2m1":
            shape[self.packed_axis] *= 2
        return tuple(shape)


class DotScaledBuiltins:
    """``tl.dot_scaled``; ``Builtins`` inherits it (and gives it the shape builtins)."""

    sem: Semantic

    # ---- arguments ----

    def _static_arg(self, value: Any, what: str) -> Any:
        if isinstance(value, TensorValue):
            raise ConstexprError(
                f"tl.dot_scaled: {what} must be a compile-time constant (tl.constexpr)",
                self.sem.b.loc,
            )
        return value.value if isinstance(value, core.constexpr) else value

    def _flag(self, value: Any, what: str) -> bool:
        v = self._static_arg(value, what)
        if not isinstance(v, (bool, int)):
            raise KernelTypeError(
                f"tl.dot_scaled: {what} must be a bool, got {v!r}", self.sem.b.loc
            )
        return bool(v)

    def _format(self, value: Any, side: str) -> str:
        fmt = self._static_arg(value, f"{side}_format")
        if not isinstance(fmt, str) or fmt not in FORMATS:
            raise KernelValueError(
                f"Invalid float format: {fmt}. tl.dot_scaled's {side}_format must be one of "
                f"{', '.join(map(repr, FORMATS))}",
                self.sem.b.loc,
            )
        return fmt

    def _typed(self, value: Any, fmt: str, side: str) -> TensorValue:
        """``value`` as its format's float type (a bitcast from its unsigned storage type);
        e2m1 stays uint8 (Triton's ``_bitcast_to_fp_type``)."""
        if not isinstance(value, TensorValue) or not value.is_block:
            raise KernelTypeError(
                f"tl.dot_scaled: {side} must be a block, got {value!r}", self.sem.b.loc
            )
        if fmt == "e2m1":
            if value.dtype != core.uint8:
                raise KernelTypeError(
                    f"tl.dot_scaled: e2m1 format must be packed as uint8. Got {value.dtype} "
                    f"({side})",
                    self.sem.b.loc,
                )
            return value
        if value.dtype == _FLOAT_TYPES[fmt]:
            return value
        if value.dtype != _STORAGE_TYPES[fmt]:
            raise KernelTypeError(
                f"tl.dot_scaled: Unexpected dtype for {fmt}. Got {value.dtype} ({side}; "
                f"expected {_FLOAT_TYPES[fmt]} or {_STORAGE_TYPES[fmt]})",
                self.sem.b.loc,
            )
        return self.sem.bitcast(value, _FLOAT_TYPES[fmt])

    def _scale(self, scale: Any, side: str) -> TensorValue | None:
        if scale is None or (isinstance(scale, core.constexpr) and scale.value is None):
            return None
        if not isinstance(scale, TensorValue) or not scale.is_block:
            raise KernelTypeError(
                f"tl.dot_scaled: {side}_scale must be a block of uint8 (e8m0) or None, got "
                f"{scale!r}",
                self.sem.b.loc,
            )
        if scale.dtype == core.float8e4nv:
            raise KernelTypeError(
                f"tl.dot_scaled: float8e4nv scales ({side}_scale, NVFP4) are not supported: "
                "Triton's Hopper path does not compile them either; use uint8 (e8m0) scales",
                self.sem.b.loc,
            )
        if scale.dtype != core.uint8:
            raise KernelTypeError(
                f"tl.dot_scaled: {side}_scale must hold uint8 (e8m0 exponents), got {scale.dtype}",
                self.sem.b.loc,
            )
        return scale

    def _operand(self, value: Any, scale: Any, fmt_arg: Any, k_pack: Any, side: str) -> _Operand:
        fmt = self._format(fmt_arg, side)
        packed_k = self._flag(k_pack, f"{side}_k_pack")
        v = self._typed(value, fmt, side)
        if not packed_k and fmt != "e2m1":
            raise KernelValueError(
                f"tl.dot_scaled: only mxfp4 inputs can be packed along a dimension different "
                f"than K ({side}_format is {fmt!r} with {side}_k_pack=False)",
                self.sem.b.loc,
            )
        return _Operand(side, v, self._scale(scale, side), fmt, packed_k)

    def _check_scale_shape(self, op: _Operand, rows: int, k: int) -> None:
        if op.scale is None:
            return
        if len(op.value.shape) != 2:
            raise KernelValueError(
                f"tl.dot_scaled: {op.side}_scale is not supported with batched (3-D) operands: "
                "Triton's Hopper path does not compile it",
                self.sem.b.loc,
            )
        if list(op.scale.shape) != [rows, k // SCALE_GROUP]:
            got = [str(d) for d in op.scale.shape]  # Triton prints its dims so: ['32', '4']
            raise KernelValueError(
                f"{op.side}_scale must be a tensor of shape [{rows}, {k // SCALE_GROUP}]. "
                f"Got {got}",
                self.sem.b.loc,
            )
        if k % SCALE_GROUP:
            raise KernelValueError(
                f"tl.dot_scaled: K ({k}) must be a multiple of {SCALE_GROUP} with {op.side}_scale "
                f"(one e8m0 scale per {SCALE_GROUP} elements along K)",
                self.sem.b.loc,
            )

    # ---- the builtin ----

    def dot_scaled(
        self,
        lhs: Any,
        lhs_scale: Any,
        lhs_format: Any,
        rhs: Any,
        rhs_scale: Any,
        rhs_format: Any,
        acc: Any,
        fast_math: Any,
        lhs_k_pack: Any,
        rhs_k_pack: Any,
        out_dtype: Any,
    ) -> TensorValue:
        out = self._static_arg(out_dtype, "out_dtype")
        if out != core.float32:
            raise KernelTypeError(
                f"tl.dot_scaled: Only float32 is supported for out_dtype at the moment, got {out}",
                self.sem.b.loc,
            )
        a = self._operand(lhs, lhs_scale, lhs_format, lhs_k_pack, "lhs")
        b = self._operand(rhs, rhs_scale, rhs_format, rhs_k_pack, "rhs")
        nan_check = not self._flag(fast_math, "fast_math")
        a_shape, b_shape = a.logical_shape, b.logical_shape
        if len(a_shape) not in (2, 3) or len(a_shape) != len(b_shape):
            raise KernelTypeError(
                "tl.dot_scaled: Both inputs must be either 2D or 3D; "
                f"(lhs: {list(a.value.shape)} vs rhs: {list(b.value.shape)})",
                self.sem.b.loc,
            )
        (m, k), (k_rhs, n) = a_shape[-2:], b_shape[-2:]
        if k != k_rhs:
            raise KernelTypeError(
                "tl.dot_scaled: Reduction dimension should pack the same number of elements; "
                f"(lhs: {list(a.value.shape)} vs rhs: {list(b.value.shape)})",
                self.sem.b.loc,
            )
        batch = a_shape[:-2]
        if batch != b_shape[:-2]:
            raise KernelTypeError(
                f"tl.dot_scaled: batch dimensions differ: {list(a_shape)} x {list(b_shape)}",
                self.sem.b.loc,
            )
        self._check_scale_shape(a, m, k)
        self._check_scale_shape(b, n, k)
        result_shape = (*batch, m, n)
        if acc is None or (isinstance(acc, core.constexpr) and acc.value is None):
            c = self.zeros(result_shape, core.float32)  # type: ignore[attr-defined]
        else:
            c = acc
            if not isinstance(c, TensorValue) or c.shape != result_shape or c.dtype != out:
                got = f"{c.dtype} {list(c.shape)}" if isinstance(c, TensorValue) else repr(c)
                raise KernelTypeError(
                    f"tl.dot_scaled: acc must be a float32 block of shape {list(result_shape)}, "
                    f"got {got}",
                    self.sem.b.loc,
                )
        compute = core.float16 if "fp16" in (a.fmt, b.fmt) else core.bfloat16
        x = self._scaled_operand(a, compute, nan_check)
        y = self._scaled_operand(b, compute, nan_check)
        return TensorValue(self.sem.b.insert(tt.DotOp(x.handle, y.handle, c.handle)).result)

    # ---- the decomposition ----

    def _scaled_operand(self, op: _Operand, compute: core.dtype, nan_check: bool) -> TensorValue:
        """The operand's elements in ``compute``, times their scale (Triton's ``scaleArg``)."""
        if op.fmt == "e2m1":
            v = self._fp4_to(op.value, op.packed_axis, compute)
        else:
            v = self.sem.cast(op.value, compute)
        if op.scale is None:
            return v
        factor = self._along_k(self._scale_factor(op.scale, compute), op.side)
        scaled = TensorValue(self.sem.b.insert(ew.MulOp(v.handle, factor.handle)).result)
        if not nan_check:
            return scaled
        is_nan = self._along_k(self.sem.compare("==", op.scale, 0xFF), op.side)
        return self.sem.where(is_nan, self.sem.constant(float("nan"), compute), scaled)

    def _scale_factor(self, scale: TensorValue, compute: core.dtype) -> TensorValue:
        """``2**(s - 127)`` in ``compute``, from the exponent's bits (Triton's ``scaleTo16``)."""
        sem = self.sem
        if compute == core.bfloat16:
            bits = sem.shift("<<", sem.cast(scale, core.uint16), 7)
            return sem.bitcast(bits, core.bfloat16)
        bits = sem.shift("<<", sem.cast(scale, core.uint32), 23)
        return sem.cast(sem.bitcast(bits, core.float32), core.float16)

    def _along_k(self, per_group: TensorValue, side: str) -> TensorValue:
        """A ``[rows, K // 32]`` block repeated 32 times along K, as the operand's layout:
        ``[M, K]`` for the lhs, ``[K, N]`` for the rhs (whose scale comes as ``[N, K // 32]``)."""
        rows, groups = per_group.shape
        k = groups * SCALE_GROUP
        if side == "lhs":
            x = self.sem.expand_dims(per_group, 2)
            x = self.sem.broadcast_to(x, (rows, groups, SCALE_GROUP))
            return self._reshape(x, (rows, k), "tl.dot_scaled")  # type: ignore[attr-defined, no-any-return]
        x = self._permute(per_group, (1, 0), "tl.dot_scaled")  # type: ignore[attr-defined]
        x = self.sem.expand_dims(x, 1)
        x = self.sem.broadcast_to(x, (groups, SCALE_GROUP, rows))
        return self._reshape(x, (k, rows), "tl.dot_scaled")  # type: ignore[attr-defined, no-any-return]

    def _fp4_to(self, packed: TensorValue, axis: int, compute: core.dtype) -> TensorValue:
        """The e2m1 values of ``packed`` (uint8, two per byte along ``axis``, the first in the
        low nibble) in ``compute``: ``axis`` doubles (Triton's ``Fp4ToFpOp``)."""
        first = self._fp4_bits(self.sem.bitwise("&", packed, 0xF), compute)
        second = self._fp4_bits(self.sem.shift(">>", packed, 4), compute)
        pairs = self.join(first, second)  # type: ignore[attr-defined]
        rank = len(packed.shape)
        order = (*range(axis + 1), rank, *range(axis + 1, rank))  # the pair right after axis
        pairs = self._permute(pairs, order, "tl.dot_scaled")  # type: ignore[attr-defined]
        shape = list(packed.shape)
        shape[axis] *= 2
        return self._reshape(pairs, tuple(shape), "tl.dot_scaled")  # type: ignore[attr-defined, no-any-return]

    def _fp4_bits(self, nibble: TensorValue, compute: core.dtype) -> TensorValue:
        """One e2m1 value per uint8 (0..15: sign, 2 exponent bits, 1 mantissa bit) as a
        ``compute`` value, built from its bits: exact, as every e2m1 value is a bf16/f16."""
        sem = self.sem
        mantissa_bits, bias, half = _HALF_LAYOUT[compute]
        wide = sem.cast(nibble, core.uint16)
        magnitude = sem.bitwise("&", wide, 0x7)
        sign = sem.shift("<<", sem.bitwise("&", wide, 0x8), 12)
        # exponent e >= 1: 2**(e - 1) * (1 + m / 2); e's bits land on the exponent's low bits
        normal = sem.arith(
            "+", sem.shift("<<", magnitude, mantissa_bits - 1), (bias - 1) << mantissa_bits
        )
        zero = sem.constant(0, core.uint16)
        subnormal = sem.where(  # 0b001 is 0.5, 0b000 zero
            sem.compare("==", magnitude, 1), sem.constant(half, core.uint16), zero
        )
        bits = sem.where(sem.compare(">=", magnitude, 2), normal, subnormal)
        return sem.bitcast(sem.bitwise("|", bits, sign), compute)
