"""Print laid-out IR with layout aliases (``#blocked = #ttg.blocked<...>``), as Triton does.

xDSL never prints aliases (it parses them), and a layout repeated on every tensor type makes
the IR unreadable; this rewrites the printed text, which still re-parses to the same module.
"""

from __future__ import annotations

import re

_BLOCKED = re.compile(r"#ttg\.blocked<\{[^{}]*\}>")
_SLICE = re.compile(r"#ttg\.slice<\{dim = \d+, parent = #\w+\}>")


def with_layout_aliases(text: str) -> str:
    aliases: list[tuple[str, str]] = []

    def name_for(prefix: str, layout: str, table: dict[str, str]) -> str:
        if layout not in table:
            name = f"#{prefix}{len(table) or ''}"
            table[layout] = name
            aliases.append((name, layout))
        return table[layout]

    blocked: dict[str, str] = {}
    text = _BLOCKED.sub(lambda m: name_for("blocked", m.group(0), blocked), text)
    sliced: dict[str, str] = {}
    while True:
        new = _SLICE.sub(lambda m: name_for("slice", m.group(0), sliced), text)
        if new == text:
            break
        text = new
    if not aliases:
        return text
    header = "\n".join(f"{name} = {layout}" for name, layout in aliases)
    return f"{header}\n{text}"
