"""The ``tl`` builtins for debugging, compiler hints, inline assembly and the memory-access
options of ``tl.load``/``tl.store`` (Triton 3.6's ``core.py``/``semantic.py`` rules).

``Builtins`` inherits these; they use its helpers (``_constexpr``, ``_tensor``, ``_dtype``).
"""

from __future__ import annotations

import builtins as py
import string
from typing import Any

from xdsl.dialects import gpu
from xdsl.dialects.builtin import DenseArrayBase, StringAttr, UnitAttr, i32
from xdsl.ir import Block, Operation

from mytriton.dialects.tt import debug as tt_debug
from mytriton.dialects.tt.debug import CACHE_ATTR, EVICT_ATTR, VOLATILE_ATTR
from mytriton.errors import (
    ConstexprError,
    KernelTypeError,
    KernelValueError,
    StaticAssertionError,
)
from mytriton.frontend.builder import IRBuilder
from mytriton.frontend.dtypes import to_ir
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

#: ``tl.load``'s cache modifiers, ``tl.store``'s, and both's eviction policies (Triton's)
LOAD_CACHE_MODIFIERS = (".ca", ".cg", ".cv")
STORE_CACHE_MODIFIERS = (".wb", ".cg", ".cs", ".wt")
EVICTION_POLICIES = ("evict_first", "evict_last")


class DebugBuiltins:
    """``tl.device_print``, ``device_assert``, ``debug_barrier``, ``static_print``/``assert``,
    the hints, ``assume``, ``inline_asm_elementwise``; the load/store options."""

    sem: Semantic
    b: IRBuilder

    def _constexpr(self, value: Any, what: str) -> Any:
        raise NotImplementedError

    def _tensor(self, v: Any, what: str) -> TensorValue:
        raise NotImplementedError

    def _dtype(self, d: Any) -> core.dtype:
        raise NotImplementedError

    def _string(self, value: Any, what: str) -> str:
        v = self._constexpr(value, what)
        if not isinstance(v, str):
            raise KernelTypeError(f"{what} must be a string literal, got {v!r}", self.b.loc)
        return v

    # ---- printing and assertions ----

    def device_print(self, prefix: Any, *args: Any, hex: Any = False) -> None:
        text = self._string(prefix, "tl.device_print's prefix")
        if any(ch not in string.printable for ch in text):
            raise KernelValueError(
                f"tl.device_print's prefix must be printable ASCII, got {text!r}", self.b.loc
            )
        values = [self._printable(a) for a in args]
        # Triton's munging: a prefix with values reads " prefix: "
        if values and not text.endswith(" "):
            text += " "
        if values and not text.endswith(": "):
            text = text[:-1] + ": "
        if len(text) > 2 and not text.startswith(" "):
            text = " " + text
        as_hex = bool(self._constexpr(hex, "tl.device_print's hex"))
        self.b.insert(tt_debug.PrintOp(text, [v.handle for v in values], as_hex))

    def _printable(self, value: Any) -> TensorValue:
        v = (
            self._constexpr(value, "a tl.device_print value")
            if not isinstance(value, TensorValue)
            else value
        )
        if isinstance(v, str):
            raise KernelTypeError(
                "tl.device_print prints one prefix string, then values; got another string "
                f"{v!r} (put it in the prefix)",
                self.b.loc,
            )
        t = self._tensor(v, "a tl.device_print value")
        if t.is_pointer:
            raise KernelTypeError("tl.device_print of pointers is not supported", self.b.loc)
        if t.dtype.is_fp8():
            raise KernelTypeError(
                f"tl.device_print of {t.dtype} is not supported: convert to tl.float32 first",
                self.b.loc,
            )
        return t

    def device_assert(self, cond: Any, msg: Any = "", mask: Any = None) -> None:
        message = self._string(msg, "tl.device_assert's message")
        c = self._tensor(cond, "tl.device_assert's condition")
        if c.is_pointer:
            raise KernelTypeError("tl.device_assert's condition cannot be a pointer", self.b.loc)
        if not self.b.debug:
            return  # compiled out, as in Triton, unless in debug mode
        c = self.sem.to_bool(c)
        if mask is not None:  # masked-off elements pass: cond | ~mask
            m = self.sem.to_bool(self._tensor(mask, "tl.device_assert's mask"))
            c = self.sem.logical("or", c, self.sem.logical_not(m))
        self.b.insert(tt_debug.AssertOp(c.handle, message))

    def debug_barrier(self) -> None:
        self.b.insert(gpu.BarrierOp())

    def static_assert(self, cond: Any, msg: Any = "") -> None:
        c = self._constexpr(cond, "tl.static_assert's condition")
        if not c:
            text = self._constexpr(msg, "tl.static_assert's message")
            raise StaticAssertionError(
                f"static_assert failed: {text}" if text else "static_assert failed", self.b.loc
            )

    def static_print(
        self, *values: Any, sep: Any = " ", end: Any = "\n", file: Any = None, flush: Any = False
    ) -> None:
        shown = [v.value if isinstance(v, core.constexpr) else v for v in values]
        py.print(
            *shown,
            sep=self._constexpr(sep, "sep"),
            end=self._constexpr(end, "end"),
            file=self._constexpr(file, "file"),
            flush=bool(self._constexpr(flush, "flush")),
        )

    # ---- hints ----

    def _hint(self, name: str, attr: str, input: Any, values: Any, scalar_ok: bool) -> Any:
        x = self._tensor(input, f"tl.{name}'s input")
        raw = values if isinstance(values, (list, tuple)) else [values]
        ints: list[int] = []
        for i, v in enumerate(raw):
            if isinstance(v, TensorValue):
                raise ConstexprError(
                    f"tl.{name}: values element {i} must be a compile-time constant", self.b.loc
                )
            v = v.value if isinstance(v, core.constexpr) else v
            if not isinstance(v, int) or isinstance(v, bool):
                raise KernelTypeError(
                    f"tl.{name}: values element {i} must be an int, got {v!r}", self.b.loc
                )
            ints.append(v)
        rank = len(x.shape)
        if len(ints) != (py.max(1, rank) if scalar_ok else rank):
            raise KernelValueError(
                f"tl.{name}: {len(ints)} value(s) given for a value of shape {list(x.shape)} "
                "(one per dimension)",
                self.b.loc,
            )
        hint = DenseArrayBase.from_list(i32, ints)
        owner = x.handle.owner
        if isinstance(owner, Operation):
            owner.attributes[attr] = hint
        elif isinstance(owner, Block):  # a loop's argument: on the loop, as Triton does
            parent = owner.parent_op()
            if parent is not None and owner is parent.regions[0].blocks.first:
                index = x.handle.index  # type: ignore[attr-defined]
                parent.attributes[f"{attr}_arg{index}"] = hint
            # else: the loop is built after its body, so the hint is dropped (the analysis
            # derives an induction variable's divisibility from its bounds and step anyway)
        return x

    def multiple_of(self, input: Any, values: Any) -> Any:
        return self._hint("multiple_of", "tt.divisibility", input, values, scalar_ok=True)

    def max_contiguous(self, input: Any, values: Any) -> Any:
        return self._hint("max_contiguous", "tt.contiguity", input, values, scalar_ok=False)

    def max_constancy(self, input: Any, values: Any) -> Any:
        return self._hint("max_constancy", "tt.constancy", input, values, scalar_ok=False)

    def assume(self, cond: Any) -> None:
        c = self._tensor(cond, "tl.assume's condition")
        if c.dtype != core.int1:
            raise KernelTypeError(
                f"tl.assume's condition must be a boolean, got {c.dtype}", self.b.loc
            )
        self.b.insert(tt_debug.AssumeOp(c.handle))

    # ---- inline assembly ----

    def inline_asm_elementwise(
        self, asm: Any, constraints: Any, args: Any, dtype: Any, is_pure: Any, pack: Any
    ) -> Any:
        text = self._string(asm, "tl.inline_asm_elementwise's asm")
        cons = self._string(constraints, "tl.inline_asm_elementwise's constraints")
        n = self._constexpr(pack, "tl.inline_asm_elementwise's pack")
        if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n & (n - 1):
            raise KernelValueError(
                f"tl.inline_asm_elementwise: pack must be a power of two, got {n!r}", self.b.loc
            )
        pure = bool(self._constexpr(is_pure, "tl.inline_asm_elementwise's is_pure"))
        d = self._constexpr(dtype, "tl.inline_asm_elementwise's dtype")
        multiple = isinstance(d, (tuple, list))
        dtypes = [self._dtype(x) for x in (d if multiple else [d])]
        if not dtypes:
            raise KernelValueError(
                "tl.inline_asm_elementwise needs at least one output dtype", self.b.loc
            )
        raw = args.value if isinstance(args, core.constexpr) else args
        if not isinstance(raw, (tuple, list)):
            raise KernelTypeError(
                "tl.inline_asm_elementwise's args must be a list or tuple", self.b.loc
            )
        values = [self._tensor(a, "a tl.inline_asm_elementwise argument") for a in raw]
        if values:
            values = self.sem.broadcast_all(*values)
        shape = values[0].shape if values else ()
        if n > 1 and not shape:
            raise KernelValueError(
                "tl.inline_asm_elementwise: pack > 1 needs block arguments", self.b.loc
            )
        result_types = [to_ir(x, self.b.loc) for x in dtypes]
        if shape:
            from mytriton.dialects.tt.types import block_type

            result_types = [block_type(t, shape) for t in result_types]
        op = self.b.insert(
            tt_debug.ElementwiseInlineAsmOp(
                text, cons, [v.handle for v in values], result_types, pure, n
            )
        )
        results = [TensorValue(r) for r in op.results]
        return tuple(results) if multiple else results[0]

    # ---- tl.load / tl.store options ----

    def memory_options(
        self, what: str, op: Operation, cache_modifier: Any, eviction_policy: Any, volatile: Any
    ) -> None:
        """Check the options as Triton does and keep them on ``op`` (``tt.load``/``store``)."""
        allowed = LOAD_CACHE_MODIFIERS if what == "tl.load" else STORE_CACHE_MODIFIERS
        cache = self._constexpr(cache_modifier, f"{what}'s cache_modifier")
        if cache not in ("", None, *allowed):
            raise KernelValueError(
                f"{what}: cache_modifier must be one of {', '.join(map(repr, allowed))}, "
                f"got {cache!r}",
                self.b.loc,
            )
        evict = self._constexpr(eviction_policy, f"{what}'s eviction_policy")
        if evict not in ("", None, *EVICTION_POLICIES):
            raise KernelValueError(
                f"{what}: eviction_policy must be 'evict_first' or 'evict_last', got {evict!r}",
                self.b.loc,
            )
        if cache:
            op.attributes[CACHE_ATTR] = StringAttr(cache.lstrip("."))
        if evict in EVICTION_POLICIES:
            op.attributes[EVICT_ATTR] = StringAttr(evict)
        if self._constexpr(volatile, f"{what}'s volatile"):
            op.attributes[VOLATILE_ATTR] = UnitAttr()
