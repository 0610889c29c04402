"""``tl.dot`` of ``Builtins``: its operands' and accumulator's rules (Triton 3.6's), the
precision of f32 dots, the result dtype, and batched dots of any rank, as ``tt.dot``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from mytriton import knobs
from mytriton.dialects.tt import core as tt
from mytriton.errors import KernelTypeError, KernelValueError
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

# Operand dtypes ``tl.dot`` handles (Triton rejects uint8 too; bfloat16 is not supported yet).
_DOT_OPERAND_DTYPES = (
    core.int8,
    core.float16,
    core.bfloat16,
    core.float32,
    core.float64,
    core.float8e4nv,
    core.float8e5,
)
_DOT_INPUT_PRECISIONS = ("tf32", "tf32x3", "bf16x3", "bf16x6", "ieee")  # any case


def _mma_fp8(v: TensorValue) -> bool:
    """fp8e4nv and fp8e5 blocks stay fp8 in a ``tt.dot`` (either format each: the fp8 warpgroup
    MMAs read them; ``tt-legalize-fp8-dots`` widens them where none runs the dot)."""
    return v.dtype in (core.float8e4nv, core.float8e5)


class DotBuiltins:
    """``tl.dot`` (mixed into ``Builtins``)."""

    sem: Semantic
    b: IRBuilder

    if TYPE_CHECKING:  # Builtins' helpers and ``zeros``, and the shape builtins' reshape

        def _constexpr(self, value: Any, what: str) -> Any: ...

        def _tensor(self, v: Any, what: str) -> TensorValue: ...

        def _dtype(self, d: Any) -> core.dtype: ...

        def zeros(self, shape: Any, dtype: Any) -> TensorValue: ...

        def _reshape(self, x: TensorValue, shape: tuple[int, ...], what: str) -> TensorValue: ...

    def dot(
        self,
        input: Any,
        other: Any,
        acc: Any,
        input_precision: Any,
        allow_tf32: Any,
        max_num_imprecise_acc: Any,
        out_dtype: Any,
    ) -> TensorValue:
        a, b = self._tensor(input, "tl.dot's input"), self._tensor(other, "tl.dot's other")
        if a.dtype.is_fp8() and b.dtype.is_fp8() and not (_mma_fp8(a) and _mma_fp8(b)):
            # fp8 formats that no MMA takes: as float16 (exact), an f16 dot
            a, b = self.sem.cast(a, core.float16), self.sem.cast(b, core.float16)
        for v, what in ((a, "input"), (b, "other")):
            if len(v.shape) < 2 or len(v.shape) != len(a.shape):
                raise KernelTypeError(
                    f"tl.dot's {what} must be a rank-2 block (a higher rank for a batched dot, "
                    f"both operands alike), got shape {list(v.shape)}",
                    self.b.loc,
                )
            if v.dtype not in _DOT_OPERAND_DTYPES:
                raise KernelTypeError(
                    f"tl.dot's {what} must hold tl.int8, tl.float16, tl.bfloat16, tl.float32 or "
                    f"tl.float64 (or both operands an fp8 dtype), got {v.dtype}",
                    self.b.loc,
                )
        if a.dtype != b.dtype and not (_mma_fp8(a) and _mma_fp8(b)):
            raise KernelTypeError(
                f"tl.dot: both operands must have the same dtype, got {a.dtype} and {b.dtype} "
                "(cast one with .to())",
                self.b.loc,
            )
        (m, k), (k2, n) = a.shape[-2:], b.shape[-2:]
        batch = a.shape[:-2]  # () or (B,): a batched dot multiplies B matrix pairs
        if batch != b.shape[:-2]:
            raise KernelTypeError(
                f"tl.dot: batch dimensions differ: {list(a.shape)} x {list(b.shape)}", self.b.loc
            )
        if k != k2:
            raise KernelTypeError(
                f"tl.dot: inner dimensions differ: [{m}, {k}] x [{k2}, {n}]", self.b.loc
            )
        if len(batch) > 1:  # several batch dimensions: one batched dot over all of them
            options = (input_precision, allow_tf32, max_num_imprecise_acc, out_dtype)
            return self._multidim_dot(a, b, acc, options)
        precision = self._dot_precision(input_precision, allow_tf32)
        interval = self._imprecise_acc(max_num_imprecise_acc, a, b, k)
        out = self._dtype(out_dtype)
        result = self._dot_result_dtype(a.dtype, out)
        if result != core.float32:
            interval = None  # the MMAs of f16 accumulators have no wider one to promote into
        f32_precision = precision if a.dtype == core.float32 else None
        # ``out_dtype=tl.float16``: the dot accumulates in f32 over its K and rounds once at
        # its end, so the tensor cores take it (f32-accumulator MMAs) and how often the result
        # rounds does not depend on the backend or the tile. Triton's f16-accumulator MMAs
        # round after every 16 k, its CUDA-core loop after every k.
        wide = core.float32 if result == core.float16 else result
        if acc is None:
            zeros = self.zeros((*batch, m, n), wide).handle
            dot = tt.DotOp(a.handle, b.handle, zeros, f32_precision, interval)
            return self.sem.cast(TensorValue(self.b.insert(dot).result), result)
        c = self._tensor(acc, "tl.dot's acc")
        if c.shape != (*batch, m, n) or c.dtype != result or c.dtype != out:
            raise KernelTypeError(
                f"tl.dot: acc must be a {result} block of shape {[*batch, m, n]} and out_dtype "
                "must be "
                f"{result} for {a.dtype} operands, got acc {c.dtype} {list(c.shape)} with "
                f"out_dtype {out}",
                self.b.loc,
            )
        c_wide = self.sem.cast(c, wide).handle
        dot = tt.DotOp(a.handle, b.handle, c_wide, f32_precision, interval)
        return self.sem.cast(TensorValue(self.b.insert(dot).result), result)

    def _multidim_dot(
        self, a: TensorValue, b: TensorValue, acc: Any, options: tuple[Any, ...]
    ) -> TensorValue:
        """``[*batch, M, K] @ [*batch, K, N]`` as the batched dot of ``[prod(batch), M, K]``
        and ``[prod(batch), K, N]``, its result reshaped back (Triton's rank-4 and higher
        dots)."""
        (m, k), n = a.shape[-2:], b.shape[-1]
        batch = a.shape[:-2]
        flat = math.prod(batch)
        what = "tl.dot"
        a3 = self._reshape(a, (flat, m, k), what)
        b3 = self._reshape(b, (flat, k, n), what)
        c3 = acc
        if acc is not None:
            c = self._tensor(acc, "tl.dot's acc")
            if c.shape != (*batch, m, n):
                raise KernelTypeError(
                    f"tl.dot: acc must be a block of shape {[*batch, m, n]}, got {list(c.shape)}",
                    self.b.loc,
                )
            c3 = self._reshape(c, (flat, m, n), what)
        out = self.dot(a3, b3, c3, *options)  # the other tl.dot arguments, in order
        return self._reshape(out, (*batch, m, n), what)

    def _imprecise_acc(self, value: Any, a: TensorValue, b: TensorValue, k: int) -> int | None:
        """``max_num_imprecise_acc``, checked as Triton does (at most K); kept for dots of fp8
        operands, the only ones whose tensor cores sum with fewer bits than f32."""
        n = self._constexpr(value, "tl.dot's max_num_imprecise_acc")
        if n is None:
            return None
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise KernelValueError(
                f"tl.dot: max_num_imprecise_acc must be a non-negative int, got {n!r}",
                self.b.loc,
            )
        fp8 = _mma_fp8(a) and _mma_fp8(b)
        if fp8 and n > k:
            raise KernelValueError(
                f"tl.dot: max_num_imprecise_acc ({n}) must be <= K ({k})",
                self.b.loc,
                cause=f"max_num_imprecise_acc ({n}) must be <= K ({k})",
            )
        return max(n, 1) if fp8 else None  # 0: after every instruction, as 1

    def _dot_precision(self, input_precision: Any, allow_tf32: Any) -> str:
        """The precision of an f32 dot, checked and defaulted like Triton: ``allow_tf32``
        picks tf32 or ieee, else ``$TRITON_F32_DEFAULT``, else tf32."""
        precision = self._constexpr(input_precision, "tl.dot's input_precision")
        tf32 = self._constexpr(allow_tf32, "tl.dot's allow_tf32")
        if precision is not None and tf32 is not None:
            raise KernelValueError(
                "tl.dot: only one of input_precision and allow_tf32 can be specified", self.b.loc
            )
        if precision is not None and (
            not isinstance(precision, str) or precision.lower() not in _DOT_INPUT_PRECISIONS
        ):
            raise KernelValueError(
                f"tl.dot: input_precision must be one of {', '.join(_DOT_INPUT_PRECISIONS)}, "
                f"got {precision!r}",
                self.b.loc,
            )
        if precision is not None:
            return str(precision).lower()
        if tf32 is not None:
            return "tf32" if tf32 else "ieee"
        default = str(knobs.language.fp32_default or "tf32").lower()
        if default not in _DOT_INPUT_PRECISIONS:
            raise KernelValueError(
                f"$TRITON_F32_DEFAULT must be one of {', '.join(_DOT_INPUT_PRECISIONS)}, got "
                f"{default!r}",
                self.b.loc,
            )
        return default

    def _dot_result_dtype(self, operands: core.dtype, out: core.dtype) -> core.dtype:
        """Triton's rule: int8 -> int32, bf16 and f32 -> f32, f64 -> f64 whatever ``out_dtype``
        says (bfloat16 excepted); f16 and fp8 -> ``out_dtype``, float16 or float32."""
        if operands == core.int8:
            return core.int32
        if out == core.bfloat16:
            raise KernelTypeError(
                "tl.dot: out_dtype=bfloat16 is unsupported; use float32 or float16 and cast "
                "with .to(tl.bfloat16)",
                self.b.loc,
            )
        if operands == core.bfloat16:
            return core.float32
        if operands in (core.float32, core.float64):
            return operands
        if out not in (core.float16, core.float32):
            raise KernelTypeError(
                f"tl.dot: out_dtype must be tl.float16 or tl.float32 for {operands} operands, "
                f"got {out}",
                self.b.loc,
            )
        return out
