"""The objects a kernel names through ``tl``: dtypes, ``constexpr`` and builtin functions
(Triton's ``triton.language.core``).

The functions here are never executed: the frontend recognises them by identity and emits `tt`
ops. Calling one from ordinary Python raises, as it does in Triton. ``builtin`` registers them
(``BUILTINS``); the builtins' signatures are declared in builtins.py, shape.py, atomic.py...

The dtypes live in dtypes.py and ``constexpr``/``const``/``constexpr_type`` in
constexpr_values.py; this module holds them too, under Triton's ``tl.core`` names.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Any, TypeVar

from mytriton.language.constexpr_values import (  # noqa: F401 (tl.core's names)
    CONSTEXPR_0,
    _unwrap,
    _unwrap_if_constexpr,
    const,
    constexpr,
    constexpr_type,
)
from mytriton.language.dtypes import (  # noqa: F401 (tl.core's names)
    _BITWIDTHS,
    _FP_LAYOUTS,
    _TRITON_KINDS,
    DTYPES,
    TRITON_MAX_TENSOR_NUMEL,
    DtypeKind,
    _validate_block_shape,
    bfloat16,
    block_type,
    dtype,
    float8e4b8,
    float8e4b15,
    float8e4nv,
    float8e5,
    float8e5b16,
    float16,
    float32,
    float64,
    get_int_dtype,
    int1,
    int8,
    int16,
    int32,
    int64,
    pi32_t,
    pointer_type,
    uint8,
    uint16,
    uint32,
    uint64,
    void,
)

F = TypeVar("F", bound=Callable[..., Any])


def __getattr__(name: str) -> Any:
    # ``tl.core.tensor``: the frontend's value class (imported late: the frontend imports us)
    if name == "tensor":
        from mytriton.frontend.values import TensorValue

        return TensorValue
    # Triton defines its builtins in ``triton.language.core``; libraries call them from there
    # (``core.reshape``, ``core.arange`` in hand-written bitonic sorts): the same ``tl`` objects
    import mytriton.language as tl

    if not name.startswith("__") and name in tl.__all__:
        return getattr(tl, name)
    raise AttributeError(f"module 'mytriton.language.core' has no attribute {name!r}")


class PropagateNan(enum.Enum):
    """NaN handling of ``tl.maximum``/``tl.minimum``/``tl.clamp`` (Triton's values).

    ``NONE`` (the default) returns the other operand when one is NaN (IEEE maxNum, PTX
    ``max.f32``); ``ALL`` returns NaN when either operand is NaN (PTX ``max.NaN.f32``).
    """

    NONE = 0x0000
    ALL = 0xFFFF


BUILTINS: dict[Callable[..., Any], str] = {}


def must_use_result(x: Any, s: str | bool = True) -> Any:
    """``triton.must_use_result``: calling the function ``x`` as a statement of its own (its
    result dropped) is a compile error; ``must_use_result("words")`` adds words to the error.
    For functions with no effect but their result (``tl.advance``)."""
    if isinstance(x, str):
        words = x
        return lambda fn: must_use_result(fn, words)
    x._must_use_result = s
    return x


def builtin(fn: F) -> F:
    """Mark ``fn`` as a kernel builtin; the frontend implements it under ``fn.__name__``."""

    def outside_kernel(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"tl.{fn.__name__} can only be called inside a @mytriton.jit kernel")

    outside_kernel.__name__ = fn.__name__
    outside_kernel.__qualname__ = fn.__qualname__
    outside_kernel.__doc__ = fn.__doc__
    outside_kernel.__wrapped__ = fn  # type: ignore[attr-defined]
    BUILTINS[outside_kernel] = fn.__name__
    return outside_kernel  # type: ignore[return-value]


@builtin
def to_tensor(x: Any) -> Any:
    """``x`` as a runtime value (a Python scalar gets the dtype Triton gives it: int32, uint32,
    int64 or uint64 by range; float32); ``tl.core.to_tensor`` in Triton, used by helpers such as
    ``tl.philox`` that take either a Python number or a runtime scalar."""


@builtin
def tensor_logical_and(x: Any, other: Any) -> Any:
    """``x.logical_and(other)``, Triton's tensor method (not a ``tl`` function): the ``&`` of
    two booleans (int1); other dtypes are an error, as Triton's bitcast to int1 is."""


@builtin
def tensor_logical_or(x: Any, other: Any) -> Any:
    """``x.logical_or(other)``: the ``|`` of two booleans (int1), as ``tensor_logical_and``."""


@builtin
def descriptor_gather(desc: Any, *offsets: Any) -> Any:
    """``desc.gather(x_offsets, y_offset)``: the ``[len(x_offsets), N]`` block whose row ``i`` is
    the descriptor's ``[1, N]`` block at ``(x_offsets[i], y_offset)`` (padding out of bounds)."""


@builtin
def descriptor_scatter(desc: Any, value: Any, *offsets: Any) -> Any:
    """``desc.scatter(value, x_offsets, y_offset)``: row ``i`` of ``value`` stored as the
    descriptor's ``[1, N]`` block at ``(x_offsets[i], y_offset)`` (out of bounds dropped)."""


@builtin
def descriptor_atomic_add(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.atomic_add(offsets, value)``: add ``value`` (a block of the descriptor's block
    shape) to the block at ``offsets`` element by element, atomically; out of bounds dropped."""


@builtin
def descriptor_atomic_min(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.atomic_min(offsets, value)``: as ``atomic_add``, keeping the smaller."""


@builtin
def descriptor_atomic_max(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.atomic_max(offsets, value)``: as ``atomic_add``, keeping the larger."""


@builtin
def descriptor_atomic_and(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.atomic_and(offsets, value)``: as ``atomic_add``, with a bitwise and."""


@builtin
def descriptor_atomic_or(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.atomic_or(offsets, value)``: as ``atomic_add``, with a bitwise or."""


@builtin
def descriptor_atomic_xor(desc: Any, offsets: Any, value: Any) -> Any:
    """``desc.atomic_xor(offsets, value)``: as ``atomic_add``, with a bitwise xor."""
