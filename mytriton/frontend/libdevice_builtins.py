"""The ``libdevice`` functions that are calls of libdevice itself (``tt.extern_elementwise``).

Arguments are matched against the function's libdevice signatures as Triton does: the float
arguments promoted to one float type, the integer ones to one integer type, all broadcast to
one shape. An f16/bf16 argument is computed in f32 and the result rounded back (Triton has no
f16 libdevice version; real kernels upcast first). Functions of Triton's ``libdevice`` that
mytriton does not compile raise a typed error at the call (``libdevice_table.UNSUPPORTED``).
"""

from __future__ import annotations

from typing import Any

from mytriton.dialects.tt import dtype_table
from mytriton.dialects.tt import libdevice_table as lt
from mytriton.dialects.tt.libdevice_table import UNSUPPORTED
from mytriton.dialects.tt.math import ExternElementwiseOp
from mytriton.errors import KernelNameError, KernelTypeError
from mytriton.frontend.semantic import Semantic
from mytriton.frontend.values import TensorValue
from mytriton.language import core

#: the libdevice signature name of each dtype libdevice has functions of (``f32``...)
_SHORT_NAMES = {
    core.DTYPES[r.dtype_name]: r.ir_name for r in dtype_table.ROWS if r.libdevice is not None
}
_COMPUTED_IN_F32 = (core.float16, core.bfloat16)


class LibdeviceBuiltins:
    """``libdevice.<name>(...)`` for every name of ``libdevice_table`` (methods made below)."""

    sem: Semantic

    def extern(self, name: str, *args: Any) -> TensorValue:
        """A call of libdevice's ``name`` on ``args``, after Triton's argument matching."""
        what = f"libdevice.{name}"
        loc = self.sem.b.loc
        fns = lt.BY_NAME[name]
        arity = len(fns[0].params)
        if len(args) != arity:
            raise KernelTypeError(f"{what} takes {arity} arguments, got {len(args)}", loc)
        floats = [i for i in range(arity) if any(f.params[i][0] == "f" for f in fns)]
        ints = [i for i in range(arity) if i not in floats]
        values: list[TensorValue | None] = [None] * arity
        if floats:
            promoted = self.sem.float_operands(what, *(args[i] for i in floats))
            for i, v in zip(floats, promoted, strict=True):
                values[i] = v
        if ints:
            for i, v in zip(ints, self._int_operands(what, [args[i] for i in ints]), strict=True):
                values[i] = v
        operands = self.sem.broadcast_all(*(v for v in values if v is not None))
        narrow = operands[floats[0]].dtype if floats else None
        if narrow in _COMPUTED_IN_F32:
            operands = [
                self.sem.cast(v, core.float32) if i in floats else v for i, v in enumerate(operands)
            ]
        fn = lt.lookup(name, [_SHORT_NAMES.get(v.dtype, str(v.dtype)) for v in operands])
        if fn is None:
            takes = " or ".join(f"({', '.join(f.params)})" for f in fns)
            got = ", ".join(str(v.dtype) for v in operands)
            raise KernelTypeError(f"{what} takes {takes}, got ({got})", loc)
        op = self.sem.b.insert(ExternElementwiseOp.of(fn, [v.handle for v in operands]))
        result = TensorValue(op.results[0])
        if narrow in _COMPUTED_IN_F32 and fn.result[0] == "f":
            result = self.sem.cast(result, narrow)
        return result

    def _int_operands(self, what: str, args: list[Any]) -> list[TensorValue]:
        """Integer arguments: Python ints weakly typed, promoted to int64 if any is int64."""
        like = next((a for a in args if isinstance(a, TensorValue)), None)
        values = [self.sem.to_tensor(a, like) for a in args]
        for v in values:
            if v.dtype not in (core.int32, core.int64):
                raise KernelTypeError(
                    f"{what} expects int32 or int64 arguments, got {v.dtype}", self.sem.b.loc
                )
        wide = core.int64 if any(v.dtype == core.int64 for v in values) else core.int32
        return [self.sem.cast(v, wide) for v in values]

    # ---- names of libdevice for ops the compiler has ----

    def _float_math(self, fn: str, x: Any) -> TensorValue:
        return self.sem.float_math(fn, x, "libdevice")

    def fast_sinf(self, x: Any) -> TensorValue:
        return self._float_math("sin", x)

    def fast_cosf(self, x: Any) -> TensorValue:
        return self._float_math("cos", x)

    def fast_tanf(self, x: Any) -> TensorValue:
        return self._float_math("tan", x)

    def fast_log2f(self, x: Any) -> TensorValue:
        return self._float_math("log2", x)

    def fast_log10f(self, x: Any) -> TensorValue:
        return self._float_math("log10", x)

    def fast_exp10f(self, x: Any) -> TensorValue:
        return self.extern("exp10", x)

    def fast_powf(self, x: Any, y: Any) -> TensorValue:
        return self.sem.float_math2("pow", x, y, "libdevice")

    def nearbyint(self, x: Any) -> TensorValue:
        return self._float_math("rint", x)

    def fma_rn(self, x: Any, y: Any, z: Any) -> TensorValue:
        return self.sem.fma(x, y, z, "libdevice")

    def _converted(
        self, what: str, x: Any, src: core.dtype, dst: core.dtype, bitcast: bool = False
    ) -> TensorValue:
        """``x`` (of dtype ``src``) converted to ``dst``: by value, or its bits."""
        v = self.sem.to_tensor(x)
        if v.dtype != src:
            raise KernelTypeError(
                f"libdevice.{what} expects a {src} argument, got {v.dtype}", self.sem.b.loc
            )
        return self.sem.bitcast(v, dst) if bitcast else self.sem.cast(v, dst)

    def double2float_rn(self, x: Any) -> TensorValue:
        return self._converted("double2float_rn", x, core.float64, core.float32)

    def double2float_rz(self, x: Any) -> TensorValue:
        v = self._converted("double2float_rz", x, core.float64, core.float64)
        return self.sem.round_toward_zero(v, core.float32)

    def int2float_rn(self, x: Any) -> TensorValue:
        return self._converted("int2float_rn", x, core.int32, core.float32)

    def int2double_rn(self, x: Any) -> TensorValue:
        return self._converted("int2double_rn", x, core.int32, core.float64)

    def ll2float_rn(self, x: Any) -> TensorValue:
        return self._converted("ll2float_rn", x, core.int64, core.float32)

    def ll2double_rn(self, x: Any) -> TensorValue:
        return self._converted("ll2double_rn", x, core.int64, core.float64)

    def int_as_float(self, x: Any) -> TensorValue:
        return self._converted("int_as_float", x, core.int32, core.float32, bitcast=True)

    def float_as_int(self, x: Any) -> TensorValue:
        return self._converted("float_as_int", x, core.float32, core.int32, bitcast=True)

    def float_as_uint(self, x: Any) -> TensorValue:
        return self._converted("float_as_uint", x, core.float32, core.int32, bitcast=True)

    def longlong_as_double(self, x: Any) -> TensorValue:
        return self._converted("longlong_as_double", x, core.int64, core.float64, bitcast=True)

    def double_as_longlong(self, x: Any) -> TensorValue:
        return self._converted("double_as_longlong", x, core.float64, core.int64, bitcast=True)

    def unsupported(self, name: str) -> None:
        raise KernelNameError(
            f"libdevice.{name} is not supported by mytriton: {UNSUPPORTED[name]}",
            self.sem.b.loc,
        )


def _extern_method(name: str) -> Any:
    def method(self: LibdeviceBuiltins, *args: Any) -> TensorValue:
        return self.extern(name, *args)

    method.__name__ = name
    return method


def _unsupported_method(name: str) -> Any:
    def method(self: LibdeviceBuiltins, *args: Any) -> None:
        self.unsupported(name)

    method.__name__ = name
    return method


for _name in lt.BY_NAME:
    setattr(LibdeviceBuiltins, _name, _extern_method(_name))
for _name in UNSUPPORTED:
    setattr(LibdeviceBuiltins, _name, _unsupported_method(_name))
