"""What ``for i in range/tl.range(start, stop, step)`` means: its arguments, ``tl.range``'s
options, and the ``scf.for`` a runtime loop becomes.

``scf.for`` counts upward by a positive step (upstream semantics; our verifier insists on a
positive constant), so a loop whose step is not a positive constant is rewritten here, in the
loop variable's integer type (int32, or int64 when a bound is int64: Triton's promotion):

* a positive constant step: ``scf.for`` over ``start`` to ``stop`` with that step, the loop
  variable being the induction variable (the common case, and the IR Triton emits);
* a negative constant step ``-s`` (Triton's rewriting): ``scf.for iv = stop to start step s``
  and ``i = start - iv + stop``;
* a runtime step: ``scf.for k = 0 to trips step 1`` and ``i = start + k * step``, where
  ``trips`` is Python's ``len(range(start, stop, step))`` for either sign of the step. A step
  of 0 gives 0 trips: Triton's GPU code would loop forever (``iv += 0``), and a hung kernel
  helps no one. ``trips`` is computed in unsigned arithmetic, so a span as wide as the type
  does not overflow, and counted by an int64 (an int32 loop may run 2**32 - 1 times).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, UnitAttr, i32
from xdsl.ir import Attribute

from mytriton.dialects.tt import loop_attrs
from mytriton.errors import KernelTypeError, KernelValueError, SourceLocation
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue, unwrap_constexpr
from mytriton.language import core

# the scf.for attribute each option sets (dialects/tt/loop_attrs.py says who reads them)
_INT_OPTIONS = {
    "num_stages": loop_attrs.NUM_STAGES,
    "loop_unroll_factor": loop_attrs.LOOP_UNROLL_FACTOR,
}
_FLAG_OPTIONS = {
    "disallow_acc_multi_buffer": loop_attrs.DISALLOW_ACC_MULTI_BUFFER,
    "flatten": loop_attrs.FLATTEN,
    "warp_specialize": loop_attrs.WARP_SPECIALIZE,
    "disable_licm": loop_attrs.DISABLE_LICM,
}


@dataclass(frozen=True)
class RangeArgs:
    """``start``, ``stop``, ``step`` (compile-time ints or runtime scalars) and the ``scf.for``
    attributes the options ask for."""

    start: Any
    stop: Any
    step: Any
    attributes: dict[str, Attribute]


def range_args(
    stub: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], loc: SourceLocation | None
) -> RangeArgs:
    """Bind a ``tl.range``/``tl.static_range`` call like Triton's ``range(arg1, arg2=None,
    step=None, ...)``, checking the options' types."""
    sig = inspect.signature(stub.__wrapped__)  # type: ignore[attr-defined]
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError as e:
        raise KernelTypeError(f"{stub.__name__}: {e}", loc) from e.with_traceback(None)
    bound.apply_defaults()
    a = {k: unwrap_constexpr(v) for k, v in bound.arguments.items()}
    start, stop = (0, a["arg1"]) if a["arg2"] is None else (a["arg1"], a["arg2"])
    step = 1 if a["step"] is None else a["step"]
    attributes: dict[str, Attribute] = {}
    for name, attr in _INT_OPTIONS.items():
        v = a.get(name)
        if v is None:
            continue
        if isinstance(v, TensorValue) or not isinstance(v, int) or isinstance(v, bool):
            raise KernelTypeError(f"tl.range: `{name}` must be a compile-time int, got {v!r}", loc)
        if not 0 <= v < 2**31:
            raise KernelValueError(f"tl.range: `{name}` must be non-negative, got {v}", loc)
        attributes[attr] = IntegerAttr(v, i32)
    for name, attr in _FLAG_OPTIONS.items():
        v = a.get(name, False)
        if not isinstance(v, bool):
            raise KernelTypeError(f"tl.range: `{name}` must be a compile-time bool, got {v!r}", loc)
        if v:
            attributes[attr] = UnitAttr()
    return RangeArgs(start, stop, step, attributes)


def python_range_args(args: list[Any], loc: SourceLocation | None) -> RangeArgs:
    """``range(stop)``, ``range(start, stop)``, ``range(start, stop, step)``."""
    if not 1 <= len(args) <= 3:
        raise KernelTypeError(f"range expects 1 to 3 arguments, got {len(args)}", loc)
    a = [unwrap_constexpr(x) for x in args]
    start, stop, step = (0, a[0], 1) if len(a) == 1 else (a[0], a[1], 1)
    if len(a) == 3:
        step = a[2]
    return RangeArgs(start, stop, step, {})


def is_constant_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True)
class LoopPlan:
    """The ``scf.for`` a runtime loop becomes: its bounds and step (``dtype`` scalars), and how
    the body computes the loop variable from the induction variable."""

    lb: TensorValue
    ub: TensorValue
    step: TensorValue
    dtype: core.dtype
    loop_variable: Callable[[TensorValue], TensorValue]
    normalised: bool  # the induction variable is a counter, not the loop variable


def loop_dtype(
    sem: Semantic, values: tuple[Any, Any, Any], loc: SourceLocation | None
) -> core.dtype:
    """int64 if a bound or the step is int64, else int32 (Triton promotes the three like an
    operator's operands); other types are rejected rather than iterated differently."""
    dtypes = []
    for x in values:
        if isinstance(x, TensorValue):
            if x.is_block:
                raise KernelTypeError(
                    f"range bounds and step must be scalars, got a block of shape {list(x.shape)}",
                    loc,
                )
            dtypes.append(x.dtype)
        elif is_constant_int(x):
            dtypes.append(sem.python_dtype(x))
        else:
            raise KernelTypeError(
                f"range bounds and step must be integers, got {type(x).__name__} {x!r}", loc
            )
    for d in dtypes:
        if d not in (core.int32, core.int64):
            raise KernelTypeError(
                f"range bounds and step must be int32 or int64 scalars, got {d}", loc
            )
    return core.int64 if core.int64 in dtypes else core.int32


def plan_loop(
    sem: Semantic, start: Any, stop: Any, step: Any, loc: SourceLocation | None
) -> LoopPlan:
    """Emit what the loop needs before it (bounds in the loop's type, the trip count) and say
    how to get the loop variable; see the module docstring for the three shapes."""
    d = loop_dtype(sem, (start, stop, step), loc)

    def value(x: Any) -> TensorValue:
        return sem.constant(x, d) if not isinstance(x, TensorValue) else sem.cast(x, d)

    if is_constant_int(step) and step == 0:
        raise KernelValueError("the step of a range must not be zero", loc)
    lb, ub = value(start), value(stop)
    if is_constant_int(step) and step > 0:
        return LoopPlan(lb, ub, sem.constant(step, d), d, lambda iv: iv, normalised=False)
    if is_constant_int(step) and -step <= d.get_int_max_value():
        # iv runs over [stop, start) upward; start - (iv - stop) runs down from start
        up = sem.constant(-step, d)
        return LoopPlan(
            ub, lb, up, d, lambda iv: sem.arith("+", sem.arith("-", lb, iv), ub), normalised=True
        )
    stp = value(step)
    trips = _trip_count(sem, lb, ub, stp, d)
    # an int32 loop may run up to 2**32 - 1 times: its counter is an int64, and the variable
    # `start + k * step` is computed in int64 and wraps back to int32 (it always fits)
    wide_lb, wide_step = sem.cast(lb, core.int64), sem.cast(stp, core.int64)

    def variable(k: TensorValue) -> TensorValue:
        return sem.cast(sem.arith("+", wide_lb, sem.arith("*", k, wide_step)), d)

    return LoopPlan(
        sem.constant(0, core.int64),
        trips,
        sem.constant(1, core.int64),
        core.int64,
        variable,
        normalised=True,
    )


def _trip_count(
    sem: Semantic, start: TensorValue, stop: TensorValue, step: TensorValue, d: core.dtype
) -> TensorValue:
    """``len(range(start, stop, step))`` (an int64) for a runtime step of either sign, 0 for a
    step of 0:
    ``(hi - lo - 1) // |step| + 1`` when ``hi > lo``, in unsigned arithmetic (the span of two
    int32s needs 32 unsigned bits)."""
    u = core.uint64 if d == core.int64 else core.uint32
    zero = sem.constant(0, step.dtype)
    up = sem.compare(">", step, zero)
    down = sem.compare("<", step, zero)
    hi, lo = sem.where(up, stop, start), sem.where(up, start, stop)
    nonempty = sem.bitwise("&", sem.bitwise("|", up, down), sem.compare(">", hi, lo))
    magnitude = sem.where(nonempty, sem.where(up, step, sem.neg(step)), 1)  # never 0
    span = sem.bitcast(sem.arith("-", hi, lo), u)
    count = sem.arith("+", sem.floordiv(sem.arith("-", span, 1), sem.bitcast(magnitude, u)), 1)
    # a uint32 count fits an int64; a uint64 one above 2**63 - 1 is beyond any kernel's time
    wide = sem.cast(count, core.int64) if d == core.int32 else sem.bitcast(count, core.int64)
    return sem.where(nonempty, wide, 0)
