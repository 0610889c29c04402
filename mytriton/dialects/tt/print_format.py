"""What ``tt.print`` prints, written once for every backend: Triton's per-element line

    ``pid (<x>, <y>, <z>) idx (<i>, <j>)<prefix>[(operand <n>) ]<value>``

as a C ``printf`` format (the lowering passes it to ``gpu.printf``), and a Python rendering of
the C format subset we produce (the interpreter and gpusim print with it, so all backends print
the same text). Index widths are ``ceil(log10(dim))`` digits, as Triton pads them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from xdsl.ir import Attribute

from mytriton.dialects.tt.types import byte_size, is_bool, is_float, is_unsigned

PID_FORMAT = "pid (%u, %u, %u)"


def index_widths(shape: Sequence[int]) -> list[int]:
    return [math.ceil(math.log10(d)) if d > 0 else 0 for d in shape]


def value_format(elem: Attribute, hex: bool) -> str:
    """The conversion of one element: ``%d``/``%u``/``%lld``/``%llu``, ``%f`` for floats,
    ``0x%0Nx`` (``N`` hex digits of the type) with ``hex``. Narrow values travel as 32 bits."""
    bits = 1 if is_bool(elem) else byte_size(elem) * 8
    wide = "ll" if bits > 32 else ""
    if hex:
        return f"0x%0{max(bits // 4, 1)}{wide}x"
    if is_float(elem):
        return "%f"
    if is_bool(elem) or is_unsigned(elem):
        return f"%{wide}u"
    return f"%{wide}d"


def escape_percent(text: str) -> str:
    return text.replace("%", "%%")


def line_format(
    prefix: str, shape: Sequence[int], elem: Attribute, hex: bool, operand: int, operands: int
) -> str:
    """The format of one element's line (without the newline); its arguments are the three
    program ids, the element's indices, then the value."""
    idx = ", ".join(f"%{w}u" for w in index_widths(shape))
    tag = f"(operand {operand}) " if operands > 1 else ""
    return f"{PID_FORMAT} idx ({idx}){escape_percent(prefix)}{tag}{value_format(elem, hex)}"


def message_format(prefix: str) -> str:
    """``tl.device_print`` without values: the pid and the prefix as it was given."""
    return f"{PID_FORMAT}{escape_percent(prefix)}"


_CONVERSION = re.compile(
    r"%(?P<flags>[-0 +#]*)(?P<width>\d*)(?:\.(?P<prec>\d+))?(?P<len>hh|h|ll|l)?"
    r"(?P<conv>[diuxXfeEgGcs%])"
)


def c_printf(fmt: str, args: Sequence[tuple[int | float, int]]) -> str:
    """Render the C format ``fmt`` (the subset above) with ``args``: ``(value, bits)`` pairs,
    ``bits`` the width the value travels in (unsigned and hex conversions reinterpret it)."""
    pending = list(args)
    out: list[str] = []
    pos = 0
    for m in _CONVERSION.finditer(fmt):
        out.append(fmt[pos : m.start()])
        pos = m.end()
        conv = m["conv"]
        if conv == "%":
            out.append("%")
            continue
        value, bits = pending.pop(0)
        spec = f"%{m['flags']}{m['width']}" + (f".{m['prec']}" if m["prec"] else "")
        if conv in "uxX":
            out.append((spec + ("d" if conv == "u" else conv)) % (int(value) & ((1 << bits) - 1)))
        elif conv in "di":
            v = int(value) & ((1 << bits) - 1)
            out.append((spec + "d") % (v - (1 << bits) if v >> (bits - 1) else v))
        elif conv in "feEgG":
            out.append((spec + conv) % float(value))
        else:
            out.append((spec + conv) % value)
    out.append(fmt[pos:])
    return "".join(out)
