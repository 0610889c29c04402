"""C++ names for SSA values: readable (from ``name_hint``), unique, and never a keyword.

Values are numbered in definition order: ``offsets_3`` where the IR has a name hint, ``v12``
where it has none. Kernel parameters keep their Python names when those are safe in C++.
"""

from __future__ import annotations

import re

from xdsl.ir import SSAValue

from mytriton.errors import BackendError

_CPP_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue
    co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit
    export extern false float for friend goto if inline int long mutable namespace new noexcept
    not not_eq nullptr operator or or_eq private protected public register reinterpret_cast
    requires restrict return short signed sizeof static static_assert static_cast struct switch
    template this thread_local throw true try typedef typeid typename union unsigned using
    virtual void volatile wchar_t while xor xor_eq""".split()  # noqa: SIM905
)

#: CUDA built-in variables, macros and the functions the printer calls by bare name: a parameter
#: with one of these names would shadow it (math functions are in print_math.MATH_CALLS).
_CUDA_NAMES = frozenset(
    """threadIdx blockIdx blockDim gridDim warpSize INFINITY NAN isnan signbit abs llabs max min
    __syncthreads __shfl_xor_sync __shfl_down_sync __shfl_up_sync __shfl_sync __popc __popcll
    __clz __clzll __float_as_int __int_as_float __uint_as_float __double_as_longlong
    __longlong_as_double float2 float4 int2 int4 make_float2 make_float4 make_int2
    make_int4 ushort1 uint1 uint2 uint4 make_ushort1 make_uint1 make_uint2
    make_uint4""".split()  # noqa: SIM905
)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _sanitize(hint: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", hint)
    return name if _IDENT.fullmatch(name) else f"v_{name}"


class Namer:
    """Assigns each SSA value one C++ name; a value used before its definition is a printer bug."""

    def __init__(self, reserved: set[str] | frozenset[str] = frozenset()):
        self._names: dict[SSAValue, str] = {}
        self._used: set[str] = set(reserved)
        self._counter = 0

    def reserve(self, name: str) -> None:
        self._used.add(name)

    def is_free(self, name: str) -> bool:
        return (
            _IDENT.fullmatch(name) is not None
            and name not in self._used
            and name not in _CPP_KEYWORDS
            and name not in _CUDA_NAMES
            and not name.startswith("__")
        )

    def fresh(self, hint: str | None = None) -> str:
        """A new unique name: ``hint_N`` or ``vN``."""
        while True:
            n = self._counter
            self._counter += 1
            name = f"{_sanitize(hint)}_{n}" if hint else f"v{n}"
            if self.is_free(name):
                self._used.add(name)
                return name

    def parameter(self, value: SSAValue, index: int) -> str:
        """A kernel parameter keeps its Python name where C++ allows it."""
        hint = value.name_hint
        if hint is not None and self.is_free(_sanitize(hint)):
            name = _sanitize(hint)
            self._used.add(name)
        else:
            name = self.fresh(hint or f"arg{index}")
        self._names[value] = name
        return name

    def define(self, value: SSAValue) -> str:
        name = self.fresh(value.name_hint)
        self._names[value] = name
        return name

    def bind(self, value: SSAValue, name: str) -> None:
        """Make ``value`` another name for an existing C++ variable (loop-carried values)."""
        self._names[value] = name

    def __contains__(self, value: SSAValue) -> bool:
        return value in self._names

    def __getitem__(self, value: SSAValue) -> str:
        name = self._names.get(value)
        if name is None:
            raise BackendError(f"the CUDA printer met a value before its definition: {value}")
        return name
