"""IR names for Python variables: the readable ``%offsets`` of the printed IR.

xDSL keeps a value's name without a trailing ``_<digits>`` and rejects names outside
``[A-Za-z_$.-][A-Za-z0-9_$.-]*``: a variable ``_0`` would get the empty name, which xDSL accepts
when set but rejects when a pass copies it, and ``größe`` is rejected at once. Such variables give
unnamed values (printed ``%0``), as a name is only a reading aid.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"[A-Za-z_$.-][A-Za-z0-9_$.-]*")
_NUMBER_SUFFIX = re.compile(r"_\d+$")


def value_name(name: str) -> str | None:
    """``name`` where xDSL keeps a non-empty name for it, else None (leave the value unnamed)."""
    if _NAME.fullmatch(name) is None or not _NUMBER_SUFFIX.sub("", name):
        return None
    return name
