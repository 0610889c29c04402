"""Prints ``asm["cuda"]`` of seed kernels for FileCheck, without the ``#line`` directives (their
placement is pinned by tests/cuda; here they would only interleave with the statements)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))


def show(*compiled: object) -> None:
    for c in compiled:
        text = c.asm["cuda"]  # type: ignore[attr-defined]
        print("\n".join(line for line in text.splitlines() if not line.startswith("#line")))
