"""A seeded generator of random Triton kernels: source text using only ``tl.`` names, and inputs.

Each program loads 1-3 full blocks (1-D or 2-D), combines them with Python scalars (literals
and constexprs), runtime scalars, promotion, casts, arithmetic/bitwise/comparison ops,
min/max/where/clamp, math functions, reductions and scans along axes, a ``for`` loop or an
``if`` on a runtime scalar, and stores some values. Every value's dtype is predicted by
``types.py`` and asserted with ``tl.static_assert(..., "difftype")``. Operations with
undefined behaviour are guarded (integer division by 0 or -1, shift amounts, float-to-int
casts of out-of-range values), so any difference is a real one. Some programs contain one
operation Triton rejects: mytriton must reject them too.

``generate(seed, index, reference)`` is a pure function of its arguments: a mismatch is
reproduced by regenerating the same (seed, index).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

from tests.differential.known import (
    COMPILED_DIFFERENCES,
    FTZ_DIFFERENCES,
    INTERPRETER_DEFECTS,
    KNOWN_DIVERGENCES,
)
from tests.differential.typerules import (
    BF16,
    BOOL,
    DTYPES,
    F16,
    F32,
    FLOATS,
    I32,
    INTS,
    U32,
    DType,
    Kind,
    Rejected,
    arg_dtype,
    check_scalars,
    computation_type,
    scalar_dtype,
)
from tests.differential.values import (
    FLOAT_ARGS,
    FLOAT_CONSTEXPRS,
    FLOAT_SCALARS,
    INT_ARGS,
    INT_SCALARS,
    input_array,
    literal,
)

TYPE_MARKER = "difftype"  # in every generated static_assert: Triton failing one is our bug


class Retry(Exception):
    """This choice does not fit (shapes, an excluded category, undefined behaviour)."""


@dataclass
class Arg:
    kind: str  # "in" | "out" | "scalar" | "constexpr"
    name: str
    dtype: str = ""
    shape: tuple[int, ...] = ()
    data: np.ndarray | None = None
    value: Any = None


@dataclass
class Output:
    """A stored value and how to compare it (see compare.py)."""

    arg: str
    dtype: str
    check: str  # "exact" | "zero_sign" | "math" | "sum" | "prod"
    operand: int | None = None  # "sum"/"prod": the output holding the reduced operand
    axis: int | None = None
    keep_dims: bool = False


@dataclass
class Program:
    seed: int
    index: int
    reference: str
    source: str  # the ``@triton.jit`` kernel, without the imports
    args: list[Arg]
    outputs: list[Output]
    expect_reject: str | None
    categories: set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        return f"diff_{self.seed}_{self.index}"


@dataclass
class Value:
    expr: str
    dtype: DType
    shape: tuple[int, ...]
    weak: bool = False  # a Python scalar (literal or constexpr)
    pyval: Any = None
    leaf: bool = False  # loaded unchanged: a float's NaN payload is the input's
    check: str = "exact"  # "zero_sign": a float min/max, stored, not computed on


def broadcast(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise Retry("shapes") from None


_ARITH = ["+", "-", "*", "/", "//", "%"]
_BITWISE = ["&", "|", "^", "<<", ">>"]
_COMPARE = ["<", "<=", ">", ">=", "==", "!="]
_MATH_EXACT = ["floor", "ceil", "abs", "sqrt_rn"]
_MATH_INEXACT = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin", "cos", "erf"]


class _Builder:
    def __init__(self, seed: int, index: int, reference: str) -> None:
        self.rng = np.random.default_rng([seed, index])
        self.seed, self.index, self.reference = seed, index, reference
        self.excluded = set(KNOWN_DIVERGENCES) | set(FTZ_DIFFERENCES)
        if reference == "interpreter":
            self.excluded |= set(INTERPRETER_DEFECTS)
        else:
            self.excluded |= set(COMPILED_DIFFERENCES)
        self.allow_reject = self.rng.random() < 0.1
        self.expect_reject: str | None = None
        self.rank = int(self.rng.integers(1, 3))
        sizes = [1, 2, 4, 8, 16] if self.rank == 2 else [1, 2, 4, 8, 16, 32]
        self.shape = tuple(int(self.rng.choice(sizes)) for _ in range(self.rank))
        self.args: list[Arg] = []
        self.outputs: list[Output] = []
        self.prologue: list[str] = []
        self.body: list[str] = []
        self.offsets: dict[tuple[int, ...], str] = {}
        self.pool: list[Value] = []
        self.scalars: list[Value] = []  # runtime scalar arguments
        self.categories: set[str] = set()
        self.counter = 0

    # --- helpers -------------------------------------------------------------------------
    def choice(self, items: list[Any]) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def use(self, *cats: str) -> None:
        for cat in cats:
            if cat in self.excluded:
                raise Retry(cat)
        self.categories.update(cats)

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def offset(self, shape: tuple[int, ...]) -> str:
        """An offsets expression for a row-major buffer of ``shape``, defined once."""
        if shape == ():
            return "0"
        if shape not in self.offsets:
            name = f"o{len(self.offsets)}"
            ars = []
            for n in shape:
                ar = f"a{n}"
                if f"    {ar} = tl.arange(0, {n})" not in self.prologue:
                    self.prologue.append(f"    {ar} = tl.arange(0, {n})")
                ars.append(ar)
            if len(shape) == 1:
                expr = ars[0]
            else:
                expr = f"{ars[0]}[:, None] * {shape[1]} + {ars[1]}[None, :]"
            self.prologue.append(f"    {name} = {expr}")
            self.offsets[shape] = name
        return self.offsets[shape]

    def emit(self, value: Value, indent: str = "    ") -> Value:
        """Assigns ``value`` to a fresh variable and asserts its predicted dtype."""
        name = self.fresh()
        self.body.append(f"{indent}{name} = {value.expr}")
        self.assert_type(name, value.dtype, indent)
        return Value(name, value.dtype, value.shape, leaf=value.leaf, check=value.check)

    def assert_type(self, name: str, dt: DType, indent: str = "    ") -> None:
        self.body.append(
            f'{indent}tl.static_assert({name}.dtype == tl.{dt.name}, "{TYPE_MARKER} {name}")'
        )

    def store(self, value: Value, check: str = "exact", **how: Any) -> int:
        dt = value.dtype
        expr = value.expr
        if dt == BOOL:  # stored as int8 (0/1)
            expr, dt = f"{expr}.to(tl.int8)", DTYPES["int8"]
        name = self.fresh("out")
        self.args.append(Arg("out", name, dt.name, value.shape))
        self.body.append(f"    tl.store({name} + {self.offset(value.shape)}, {expr})")
        self.outputs.append(Output(name, dt.name, check, **how))
        return len(self.outputs) - 1

    # --- operands ------------------------------------------------------------------------
    def weak(self, kind: Kind | None = None) -> Value:
        """A Python scalar operand: a literal, or a constexpr argument."""
        floats = kind == Kind.FLOAT or (kind is None and self.rng.random() < 0.4)
        as_constexpr = self.rng.random() < 0.3
        if floats:
            value = self.choice(FLOAT_CONSTEXPRS if as_constexpr else FLOAT_SCALARS)
        else:
            value = self.choice(INT_SCALARS)
        if isinstance(value, float) and value == 0.0 and np.signbit(value):
            self.use("neg_zero_literal")
        if as_constexpr:
            name = self.fresh("C")
            self.args.append(Arg("constexpr", name, value=value))
            expr = name
        else:
            expr = literal(value)
        return Value(expr, scalar_dtype(value), (), weak=True, pyval=value)

    def operand(self, allow_weak: bool = True) -> Value:
        r = self.rng.random()
        if allow_weak and r < 0.25:
            return self.weak()
        if self.scalars and r < 0.35:
            return self.choice(self.scalars)
        return self.choice(self.pool)

    def fit(self, a: Value, b: Value) -> tuple[Value, Value]:
        """Makes two operands' shapes broadcast, expanding a 1-D one in a 2-D kernel."""
        try:
            broadcast(a.shape, b.shape)
            return a, b
        except Retry:
            pass
        if self.rank == 2:
            for x, y in ((a, b), (b, a)):
                if len(x.shape) == 1 and len(y.shape) == 2:
                    for axis, idx in ((1, "[:, None]"), (0, "[None, :]")):
                        shape = (x.shape[0], 1) if axis == 1 else (1, x.shape[0])
                        try:
                            broadcast(shape, y.shape)
                        except Retry:
                            continue
                        ex = Value(f"{x.expr}{idx}", x.dtype, shape, leaf=x.leaf)
                        self.categories.add("expand_dims")
                        return (ex, y) if x is a else (y, ex)
        raise Retry("shapes")

    # --- operations ----------------------------------------------------------------------
    def typed(self, fn: Any) -> Any:
        """Runs a typing rule; a rejection is kept only in a program meant to be rejected."""
        try:
            return fn()
        except Rejected as e:
            if not self.allow_reject or self.expect_reject is not None:
                raise Retry("rejected") from None
            self.expect_reject = str(e)
            return None

    def binary(self, op: str, a: Value, b: Value) -> Value:
        a, b = self.fit(a, b)
        shape = broadcast(a.shape, b.shape)
        div = op in ("/", "//", "%")
        dts = {a.dtype, b.dtype}

        # a comparison makes its Python scalar a tensor first (to_tensor): no weak typing
        strong = op in _COMPARE

        def rule(a: Value, b: Value) -> DType:
            ct = computation_type(
                a.dtype, a.weak and not strong, b.dtype, b.weak and not strong, div
            )
            if not strong:
                check_scalars(ct, [x.pyval for x in (a, b) if x.weak])
            if op == "//" and ct.is_float:
                raise Rejected("// of floats")
            if op in _BITWISE and ct.is_float:
                raise Rejected(f"{op} of floats")
            return ct

        if op in ("<<", ">>"):  # mask the amount first: the mask may change its dtype
            ct0 = self.typed(lambda: rule(a, b))
            if ct0 is None:
                return Value(f"({a.expr} {op} {b.expr})", BOOL, shape)
            b = self.shift_amount(b, ct0)
        ct = self.typed(lambda: rule(a, b))
        if ct is None:  # the rejected operation: the program ends here
            return Value(f"({a.expr} {op} {b.expr})", BOOL, shape)
        if ct == BOOL and op not in _BITWISE[:3] + _COMPARE:
            raise Retry("bool arithmetic")  # Triton: i1 add is xor; no one writes it
        if BF16 in dts or ct == BF16:
            self.use("bf16_arith")
        if op in ("/", "%") and (dts & {F16, BF16} or ct in (F16, BF16)):
            self.use("divmod_f16")
        if strong and (a.weak or b.weak):
            self.use("compare_scalar")
        if op == ">>" and (b if a.weak else a).dtype.signed and not ct.signed:
            self.use("ashr_unsigned")  # Triton picks ashr by the block the call is made on
        if op in ("//", "%") and ct.is_int:
            if b.dtype == BOOL:
                raise Retry("a bool divisor")  # its guard would change its dtype
            b = self.divisor(b)
        if op == "%" and ct.is_float:
            self.use("frem")
        self.use(f"op{op}:{ct.name}")
        result = F32 if op == "/" and ct.is_int else ct
        if op in _COMPARE:
            result = BOOL
        if op == "/" and result == F32 and self.reference == "compiled":
            raise Retry("approximate f32 division is terminal")  # see inexact()
        return Value(f"({a.expr} {op} {b.expr})", result, shape)

    def divisor(self, b: Value) -> Value:
        """An integer divisor without 0 and -1 (division by 0, INT_MIN / -1: undefined)."""
        if b.weak:
            if b.pyval in (0, -1):
                raise Retry("divisor")
            return b
        cond = f"({b.expr} == 0) | ({b.expr} == -1)" if b.dtype.signed else f"{b.expr} == 0"
        return Value(f"tl.where({cond}, 3, {b.expr})", b.dtype, b.shape)

    def shift_amount(self, b: Value, ct: DType) -> Value:
        """A shift amount below the width (larger ones are undefined)."""
        if b.weak:
            if not 0 <= b.pyval < ct.bits:
                raise Retry("shift")
            return b
        masked = Value(f"({b.expr} & {ct.bits - 1})", b.dtype, b.shape)
        masked.dtype = computation_type(b.dtype, False, I32, True, False)
        return masked

    def where(self, c: Value, a: Value, b: Value) -> Value:
        a, b = self.fit(a, b)
        c, _ = self.fit(c, a)
        c, _ = self.fit(c, b)
        shape = broadcast(c.shape, a.shape, b.shape)

        def rule() -> DType:
            ct = computation_type(a.dtype, a.weak, b.dtype, b.weak, False)
            check_scalars(ct, [x.pyval for x in (a, b) if x.weak])
            return ct

        ct = self.typed(rule)
        if ct is None:
            return Value(f"tl.where({c.expr}, {a.expr}, {b.expr})", BOOL, shape)
        if ct == BF16:
            self.use("bf16_arith")
        self.use(f"where:{ct.name}")
        return Value(f"tl.where({c.expr}, {a.expr}, {b.expr})", ct, shape)

    def minmax(self, fn: str, args: list[Value]) -> Value:
        if len(args) == 2:
            args = list(self.fit(args[0], args[1]))
        else:
            x, lo = self.fit(args[0], args[1])
            x, hi = self.fit(x, args[2])
            x, lo = self.fit(x, lo)
            args = [x, lo, hi]
        shape = broadcast(*(a.shape for a in args))
        if any(a.weak for a in args):
            self.use("minmax_scalar")
        if any(a.dtype == BF16 for a in args):
            self.use("minmax_bf16")
        if fn == "clamp" and args[1].dtype != args[2].dtype:
            self.use("clamp_bounds")

        def widened(d: DType) -> DType:
            return F32 if d == BF16 else d  # tl.maximum/minimum/clamp widen bf16 operands first

        def rule() -> DType:
            if fn == "clamp":
                x, lo, hi = (widened(a.dtype) for a in args)
                ct = computation_type(lo, False, hi, False, False)
                ct = computation_type(x, False, ct, False, False)
                if not ct.is_float:
                    raise Rejected("clamp of integers")
                return ct
            a, b = args  # tl.maximum/minimum/clamp make scalars tensors: no weak typing
            return computation_type(widened(a.dtype), False, widened(b.dtype), False, False)

        ct = self.typed(rule)
        text = ", ".join(a.expr for a in args)
        if ct is None:
            return Value(f"tl.{fn}({text})", BOOL, shape)
        if ct == BOOL:
            raise Retry("min/max of bools")
        if ct.is_float:
            if self.rng.random() < 0.5:
                text += ", propagate_nan=tl.PropagateNan.ALL"
            else:
                self.use("minmax_nan_none")
        self.use(f"{fn}:{ct.name}")
        # the sign of a zero min/max of +0.0 and -0.0 is free (NumPy and PTX differ)
        return Value(f"tl.{fn}({text})", ct, shape, check="zero_sign" if ct.is_float else "exact")

    def cast(self, x: Value) -> Value:
        target = self.choice([*INTS, *FLOATS, BOOL])
        src = x.dtype
        if self.rng.random() < 0.2 and src != BOOL:  # a bitcast to another type of its width
            same = [d for d in [*INTS, *FLOATS] if d.bits == src.bits and d != src]
            target = self.choice(same)
            if src.is_float and not x.leaf:
                raise Retry("a computed NaN's payload is not portable")
            if BF16 in (src, target):
                self.use("bf16_arith")
            self.use(f"bitcast:{src.name}->{target.name}")
            return Value(f"{x.expr}.to(tl.{target.name}, bitcast=True)", target, x.shape)
        if target == src:
            raise Retry("same dtype")
        if target == BF16:
            self.use("bf16_round" if src == F32 else "bf16_arith")
        if src == BF16 and target != F32:
            self.use("bf16_arith")
        self.use(f"cast:{src.name}->{target.name}")
        expr = x.expr
        if src.is_float and target.is_int and target != BOOL:
            # fptosi/fptoui of NaN, inf or an out-of-range value is undefined: those become 0
            lo, hi = target.int_range()
            expr = f"tl.where(({expr} > {literal(float(lo - 1))}) & ({expr} < {float(hi + 1)}), {expr}, 0)"
        return Value(f"{expr}.to(tl.{target.name})", target, x.shape)

    def unary(self, x: Value) -> Value:
        kind = self.choice(["abs", "invert", "neg", "math", "cast", "cast"])
        if kind == "cast":
            return self.cast(x)
        if kind == "abs":
            if x.dtype == BOOL:
                raise Retry("abs of bool")
            if x.dtype == BF16:
                self.use("bf16_arith")
            self.use(f"abs:{x.dtype.name}")
            return Value(f"tl.abs({x.expr})", x.dtype, x.shape)
        if kind == "invert":
            if self.typed(lambda: _need(x.dtype.is_int, "~ of a float")) is None:
                return Value(f"(~{x.expr})", BOOL, x.shape)
            if x.dtype.kind == Kind.UINT:
                self.use("invert_unsigned")
            self.use(f"invert:{x.dtype.name}")
            return Value(f"(~{x.expr})", x.dtype, x.shape)
        if kind == "neg":
            if x.dtype == BOOL:
                raise Retry("neg of bool")
            self.use("neg_float" if x.dtype.is_float else f"neg:{x.dtype.name}")
            return Value(f"(-{x.expr})", x.dtype, x.shape)
        fn = self.choice(_MATH_EXACT)
        allowed = ["float32"] if fn == "sqrt_rn" else ["float32", "float64"]
        if fn == "abs":
            raise Retry("abs above")
        if self.typed(lambda: _need(x.dtype.name in allowed, f"tl.{fn} of {x.dtype}")) is None:
            return Value(f"tl.{fn}({x.expr})", BOOL, x.shape)
        self.use(f"{fn}:{x.dtype.name}")
        return Value(f"tl.{fn}({x.expr})", x.dtype, x.shape)

    # --- terminal (tolerance-compared) values ----------------------------------------------
    def inexact(self) -> None:
        """A value compared within a tolerance, stored and not computed on: math functions,
        float sums/scans (their order is free) and the GPU's approximate f32 division."""
        x = self.choice(self.pool)
        r = self.rng.random()
        if r < 0.5:
            fn = self.choice(_MATH_INEXACT)
            ok = x.dtype.name in ("float32", "float64")
            if self.typed(lambda: _need(ok, f"tl.{fn} of {x.dtype}")) is None:
                self.emit(Value(f"tl.{fn}({x.expr})", BOOL, x.shape))
                return
            self.use(f"{fn}:{x.dtype.name}")
            v = self.emit(Value(f"tl.{fn}({x.expr})", x.dtype, x.shape))
            self.store(v, "math")
            return
        if r < 0.6 and self.reference == "compiled":
            y = self.choice(self.pool)
            if not (x.dtype == F32 and y.dtype in (F32, *INTS)):
                raise Retry("division")
            x, y = self.fit(x, y)
            self.use("op/:float32")
            v = self.emit(Value(f"({x.expr} / {y.expr})", F32, broadcast(x.shape, y.shape)))
            self.store(v, "math")
            return
        if not x.dtype.is_float or not x.shape:
            raise Retry("float block")
        fn = self.choice(["sum", "cumsum", "cumprod"])
        dt = F32 if x.dtype == BF16 and fn != "sum" else x.dtype
        if x.dtype == BF16:
            self.use("bf16_arith" if fn == "sum" else "bf16_promote")
        axis = self.axis(x, scan=fn != "sum")
        keep = fn == "sum" and self.rng.random() < 0.3
        shape = _reduced(x.shape, axis, keep) if fn == "sum" else x.shape
        operand = self.store(x)
        self.use(f"{fn}:{dt.name}")
        call = self.reduction_call(fn, x, axis, keep)
        v = self.emit(Value(call, dt, shape))
        self.store(
            v, "prod" if fn == "cumprod" else "sum", operand=operand, axis=axis, keep_dims=keep
        )

    def axis(self, x: Value, scan: bool) -> int | None:
        axes: list[int | None] = list(range(len(x.shape)))
        if not scan:
            axes.append(None)
        return self.choice(axes)

    def reduction_call(self, fn: str, x: Value, axis: int | None, keep: bool) -> str:
        if fn in ("cumsum", "cumprod"):
            rev = ", reverse=True" if self.rng.random() < 0.2 else ""
            if rev:
                self.categories.add("scan_reverse")
            return f"tl.{fn}({x.expr}, axis={axis}{rev})"
        kd = ", keep_dims=True" if keep else ""
        return f"tl.{fn}({x.expr}, axis={axis}{kd})"

    def reduction(self, x: Value) -> Value:
        """An exact reduction or scan: integers, float max/min, argmax/argmin."""
        if not x.shape:
            raise Retry("scalar")
        fn = self.choice(["sum", "max", "min", "argmax", "argmin", "xor_sum", "cumsum", "cumprod"])
        scan = fn in ("cumsum", "cumprod")
        dt = x.dtype
        if fn in ("sum", "cumsum", "cumprod", "xor_sum") and dt.is_float:
            if fn != "xor_sum":
                raise Retry("float sums are inexact")
            if self.typed(lambda: _need(False, "xor_sum of floats")) is None:
                return Value(f"tl.xor_sum({x.expr}, axis=0)", BOOL, ())
        if fn in ("max", "min") and dt == BOOL:
            self.use("reduce_minmax_bool")
        if fn in ("argmax", "argmin") and dt.is_float:
            self.use("argminmax_float")
        if fn in ("argmax", "argmin") and dt == BOOL:
            raise Retry("argmax of bools")
        if dt == BF16:
            self.use("bf16_promote")
        if fn in ("sum", "cumsum") and dt.is_int and dt.bits < 32:
            result = I32 if dt.signed else U32  # int1 is unsigned
        elif fn in ("max", "min") and dt.bits < 32:
            result = F32 if dt.is_float else I32
        elif fn in ("argmax", "argmin"):
            result = I32
        elif fn == "cumprod" and dt == BOOL:
            raise Retry("product of bools")
        else:
            result = dt
        axis = self.axis(x, scan)
        if fn in ("argmax", "argmin") and axis is None:
            axis = 0  # Triton's argmax wants an axis
        keep = not scan and self.rng.random() < 0.3
        shape = x.shape if scan else _reduced(x.shape, axis, keep)
        if fn == "xor_sum" and axis is None and keep and len(x.shape) > 1:
            self.use("reduce_none_keep_dims")
        if fn == "sum" and dt.is_int and shape == ():
            self.use("int_sum_scalar")
        self.use(f"{fn}:{dt.name}")
        check = "zero_sign" if fn in ("max", "min") and dt.is_float else "exact"
        return Value(self.reduction_call(fn, x, axis, keep), result, shape, check=check)

    # --- statements ----------------------------------------------------------------------
    def expression(self) -> Value:
        r = self.rng.random()
        if r < 0.45:
            op = self.choice(_ARITH + _BITWISE + _COMPARE)
            a, b = self.operand(), self.operand()
            if a.weak and b.weak:
                raise Retry("two scalars")
            return self.binary(op, a, b)
        if r < 0.55:
            c = self.choice([v for v in self.pool if v.dtype == BOOL] or [None])
            if c is None:
                raise Retry("no condition")
            return self.where(c, self.operand(), self.operand(allow_weak=False))
        if r < 0.65:
            fn = self.choice(["maximum", "minimum", "clamp"])
            n = 3 if fn == "clamp" else 2
            return self.minmax(fn, [self.operand(allow_weak=i > 0) for i in range(n)])
        if r < 0.85:
            return self.unary(self.choice(self.pool))
        return self.reduction(self.choice(self.pool))

    def statement(self) -> None:
        r = self.rng.random()
        if r < 0.12:
            self.inexact()
        elif r < 0.22:
            self.loop()
        elif r < 0.3 and self.scalars:
            self.branch()
        else:
            v = self.emit(self.expression())
            if v.check == "exact":
                self.pool.append(v)
            else:
                self.store(v, v.check)

    def loop(self) -> None:
        acc = self.choice([v for v in self.pool if v.shape] or [None])
        if acc is None:
            raise Retry("no block")
        name = self.fresh("acc")
        placeholder = Value(name, acc.dtype, acc.shape)
        other: Value = self.operand()
        if self.scalars and self.rng.random() < 0.3:
            s = self.choice([s for s in self.scalars if s.dtype.is_int] or [self.scalars[0]])
            other = Value(f"(i + {s.expr})", s.dtype, ())  # the index: an int32 tensor
        new = self.binary(self.choice(["+", "-", "*", "^", "|"]), placeholder, other)
        if self.expect_reject is not None or new.shape != acc.shape:
            raise Retry("loop")
        if new.dtype != acc.dtype:  # a loop-carried value keeps its type
            if (new.dtype.is_float and acc.dtype.is_int) or BF16 in (new.dtype, acc.dtype):
                raise Retry("loop cast")
            new = Value(f"{new.expr}.to(tl.{acc.dtype.name})", acc.dtype, acc.shape)
        trips = self.choice(["2", "3", "0"])
        self.use("for")
        self.body.append(f"    {name} = {acc.expr}")
        self.body.append(f"    for i in range({trips}):")
        self.body.append(f"        {name} = {new.expr}")
        self.assert_type(name, acc.dtype)
        self.pool.append(Value(name, acc.dtype, acc.shape))

    def branch(self) -> None:
        s = self.choice([s for s in self.scalars if s.dtype.is_int] or [None])
        if s is None:
            raise Retry("no scalar")
        first, second = self.expression(), self.expression()
        if first.check != "exact" or second.check != "exact":
            raise Retry("branch of a float min/max")
        if self.expect_reject is not None or first.shape != second.shape:
            raise Retry("branch")
        if first.dtype != second.dtype:
            if (second.dtype.is_float and first.dtype.is_int) or BF16 in (
                first.dtype,
                second.dtype,
            ):
                raise Retry("branch cast")
            if first.dtype == BOOL:
                raise Retry("branch cast")
            second = Value(f"{second.expr}.to(tl.{first.dtype.name})", first.dtype, first.shape)
        name = self.fresh()
        self.use("if")
        # a small literal: the branch tests control flow, binary() tests comparison typing
        bound = int(self.rng.integers(0 if s.dtype.kind == Kind.UINT else -3, 4))
        self.body.append(f"    if {s.expr} > {literal(bound)}:")
        self.body.append(f"        {name} = {first.expr}")
        self.body.append("    else:")
        self.body.append(f"        {name} = {second.expr}")
        self.assert_type(name, first.dtype)
        self.pool.append(Value(name, first.dtype, first.shape))

    # --- the program ---------------------------------------------------------------------
    def inputs(self) -> None:
        for _ in range(int(self.rng.integers(1, 4))):
            dt = self.choice([*INTS, *INTS, *FLOATS, *FLOATS, F32, BOOL])
            if dt == BOOL:
                dt = DTYPES["int8"]
            name = self.fresh("x")
            data = input_array(dt, self.shape, self.rng)
            if dt == BF16 and "bf16_subnormal" in self.excluded:
                tiny = float(ml_dtypes.finfo(ml_dtypes.bfloat16).tiny)
                data = np.where(np.abs(data.astype(np.float32)) < tiny, np.zeros_like(data), data)
            if dt == F32 and "f32_subnormal" in self.excluded:
                tiny = float(np.finfo(np.float32).tiny)
                data = np.where(np.abs(data) < tiny, np.zeros_like(data), data)
            self.args.append(Arg("in", f"{name}_ptr", dt.name, self.shape, data))
            load = f"tl.load({name}_ptr + {self.offset(self.shape)})"
            if dt == BF16 and "bf16_arith" in self.excluded:
                # the interpreter decodes bf16 only in a conversion to f32 (known.py)
                self.body.append(f"    {name} = {load}.to(tl.float32)")
                self.pool.append(Value(name, F32, self.shape, leaf=False))
                self.categories.add("load:bfloat16")
            else:
                self.body.append(f"    {name} = {load}")
                self.pool.append(Value(name, dt, self.shape, leaf=True))
                self.categories.add(f"load:{dt.name}")
        for _ in range(int(self.rng.integers(0, 3))):
            floats = "float_scalar_arg" not in self.excluded and self.rng.random() < 0.3
            value = self.choice(FLOAT_ARGS if floats else INT_ARGS)
            name = self.fresh("s")
            self.args.append(Arg("scalar", name, value=value))
            dt = F32 if floats else arg_dtype(value)
            self.scalars.append(Value(name, dt, ()))

    def build(self) -> Program:
        self.inputs()
        goal = int(self.rng.integers(2, 7))
        done = tries = 0
        while done < goal and tries < 60 and self.expect_reject is None:
            tries += 1
            mark = (len(self.body), len(self.args), len(self.outputs), len(self.pool))
            cats = set(self.categories)
            try:
                self.statement()
                done += 1
            except Retry:
                self.body = self.body[: mark[0]]
                self.args = self.args[: mark[1]]
                self.outputs = self.outputs[: mark[2]]
                self.pool = self.pool[: mark[3]]
                self.categories = cats
                self.expect_reject = None
        if self.expect_reject is None:
            for v in self.pool[-int(self.rng.integers(1, 3)) :]:
                self.store(v)
        else:
            self.categories.add("reject")
        return self.program()

    def program(self) -> Program:
        order = {"in": 0, "out": 1, "scalar": 2, "constexpr": 3}
        self.args.sort(key=lambda a: order[a.kind])
        params = [a.name + (": tl.constexpr" if a.kind == "constexpr" else "") for a in self.args]
        name = f"diff_{self.seed}_{self.index}"
        lines = ["@triton.jit", f"def {name}({', '.join(params)}):", *self.prologue, *self.body]
        return Program(
            self.seed,
            self.index,
            self.reference,
            "\n".join(lines) + "\n",
            self.args,
            self.outputs,
            self.expect_reject,
            self.categories,
        )


def _need(ok: bool, why: str) -> bool:
    if not ok:
        raise Rejected(why)
    return True


def _reduced(shape: tuple[int, ...], axis: int | None, keep: bool) -> tuple[int, ...]:
    if axis is None:
        return tuple(1 for _ in shape) if keep else ()
    if keep:
        return tuple(1 if i == axis else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i != axis)


def generate(seed: int, index: int, reference: str = "interpreter") -> Program:
    """Program ``index`` of the batch ``seed``, avoiding what ``reference`` computes wrongly."""
    return _Builder(seed, index, reference).build()


def generate_batch(seed: int, count: int, reference: str = "interpreter") -> list[Program]:
    return [generate(seed, i, reference) for i in range(count)]
