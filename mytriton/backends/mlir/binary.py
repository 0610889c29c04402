"""Taking the PTX or cubin out of the ``gpu.binary`` op that ``gpu-module-to-binary`` prints.

The object is an escaped string attribute: llvm's ``printEscapedString`` writes printable ASCII
as is, ``\\\\`` for a backslash and ``\\XX`` (hex) for everything else; MLIR's lexer also accepts
``\\n``, ``\\t`` and ``\\"``. (The Python bindings hand over the bytes directly.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_STR = r'"((?:[^"\\]|\\.)*)"'
# the payload closing a #gpu.object<...>: keyed (`assembly =` PTX, `bin =` cubin,
# `offload =` bitcode) or, for fatbin, right after a comma
_OBJECT_RE = re.compile(r"(?:\b(assembly|bin|offload)\s*=\s*|,\s*)" + _STR + r"\s*>")
_BINARY_RE = re.compile(r"gpu\.binary\s+@([\w$.]+)|\"gpu\.binary\"\(\)")
_ESCAPES = {"\\": 0x5C, '"': 0x22, "n": 0x0A, "t": 0x09}


@dataclass(frozen=True)
class GpuObject:
    """One object of a ``gpu.binary``: ``kind`` is ``ptx``, ``cubin``, ``fatbin`` or ``bc``."""

    kind: str
    data: bytes


def unescape(text: str) -> bytes:
    """The bytes of an MLIR string literal's body."""
    out = bytearray()
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c != "\\":
            start = i
            while i < n and text[i] != "\\":
                i += 1
            out += text[start:i].encode("utf-8")
            continue
        nxt = text[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(int(text[i + 1 : i + 3], 16))
            i += 3
    return bytes(out)


def object_kind(key: str | None, data: bytes) -> str:
    if key == "assembly":
        return "ptx"
    if key == "offload":
        return "bc"
    if data[:4] == b"\x7fELF":
        return "cubin"
    if data[:4] == b"\x50\xed\x55\xba":
        return "fatbin"
    return "bin"


def extract_objects(mlir_text: str) -> list[GpuObject]:
    """Every object of every ``gpu.binary`` op in ``mlir_text``, in order."""
    objects = []
    for line in mlir_text.splitlines():
        if not _BINARY_RE.search(line):
            continue
        for m in _OBJECT_RE.finditer(line):
            data = unescape(m.group(2))
            objects.append(GpuObject(object_kind(m.group(1), data), data))
    return objects
