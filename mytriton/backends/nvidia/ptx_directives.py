"""Launch options that become PTX performance directives on a kernel's entry.

``maxnreg`` (Triton's launch option) is written as ``.maxnreg N`` between the ``.entry``
signature and its body, as Triton's PTX has it; ptxas then keeps each thread within ``N``
registers. Functions (``.func``) are left alone. Both GPU backends produce PTX text, so both
apply it to their PTX stage.
"""

from __future__ import annotations

import re
from typing import Any

from mytriton.errors import BackendError

# `.entry name(` ... up to the `{` that opens its body (params hold no `{` or `;`)
_ENTRY = re.compile(r"(\.entry\s+[\w$]+\s*\([^{;]*?\)\s*)(?=[^{;]*\{)")


def add_maxnreg(ptx: str, maxnreg: int) -> str:
    """``ptx`` with ``.maxnreg maxnreg`` on every ``.entry`` (replacing one already there)."""
    ptx = re.sub(r"\n\s*\.maxnreg\s+\d+[^\n]*", "", ptx)
    new, count = _ENTRY.subn(lambda m: f"{m.group(1).rstrip()}\n.maxnreg {maxnreg}\n", ptx)
    if count == 0:
        raise BackendError("cannot set maxnreg: the PTX has no .entry function")
    return new


def apply_ptx_options(ptx: str, options: Any) -> str:
    """The PTX with the directives ``options`` ask for (``maxnreg``)."""
    maxnreg = getattr(options, "maxnreg", None)
    return add_maxnreg(ptx, maxnreg) if maxnreg is not None else ptx
