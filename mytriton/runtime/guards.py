"""What a launch plan's fast path checks of each parameter: the facts of the value it was made
with that decide the specialization (``binder.describe``'s, read off one value). Both fast
paths render these same guards, the generated Python one (``fast_path.py``) and the native one
(``native_fast_path.py``), so they accept exactly the same launches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mytriton.frontend.signature import DIVISIBILITY
from mytriton.runtime.binder import describer
from mytriton.runtime.specialization import constexpr_key, int_kind


@dataclass(frozen=True)
class Guard:
    """One parameter's guard. ``kind``: ``const_int`` (an int equal to ``value``),
    ``constexpr`` (``constexpr_key`` equal to ``value``), ``none``, ``int`` (width
    ``int_kind``; not 1 where ``not_one``; divisible by 16 as ``divisible`` unless None),
    ``float``, ``bool``, ``torch`` / ``cupy`` (an array of ``type``, ``dtype`` on ``device``,
    16-byte aligned as ``aligned`` unless None)."""

    kind: str
    value: Any = None
    type: Any = None
    dtype: Any = None
    device: int = 0
    int_kind: int = 0
    not_one: bool = False
    divisible: bool | None = None
    aligned: bool | None = None


def guard_of(value: Any, is_constexpr: bool, no_value: bool, no_alignment: bool) -> Guard | None:
    """The guard of a parameter that had ``value`` (``no_value`` / ``no_alignment``: its
    ``do_not_specialize`` options); None where no cheap guard covers it."""
    t = type(value)
    if value is None:
        return Guard("none")
    if is_constexpr:
        if t is int and -(2**63) <= value < 2**63:
            return Guard("const_int", value)
        return Guard("constexpr", constexpr_key(value))
    if t is int:
        if value == 1 and not no_value:
            return Guard("const_int", 1)
        width = int_kind(value)
        if width > 2:
            return None
        divisible = None if no_value or no_alignment else value % DIVISIBILITY == 0
        return Guard("int", int_kind=width, not_one=not no_value, divisible=divisible)
    if t is float or t is bool:
        return Guard(t.__name__)
    kind_of = describer(t).__name__
    if kind_of == "_torch":
        kind, device = "torch", value.get_device()
    elif kind_of == "_cupy":
        kind, device = "cupy", value.device.id
    else:
        return None
    aligned = None if no_value or no_alignment else bool(describer(t)(value)[-1])
    return Guard(kind, type=t, dtype=value.dtype, device=device, aligned=aligned)
