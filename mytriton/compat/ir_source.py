"""``triton.compiler.IRSource``: a kernel given as one stage's file, for ``triton.compile``.

Triton reads its own ``.ttir``/``.ttgir``/``.ptx`` files; here the files are mytriton's stages
(``k.tt.mlir``, ``k.ttg.mlir``, ``k.cu``, ``k.ptx``... as ``TRITON_KERNEL_DUMP`` writes them),
compiled from that stage on by ``mytriton.compile`` (``runtime/compile_ir.py``).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from mytriton.compat.target import Language

#: where each kind of stage text names its kernel
_KERNEL_NAME = (
    re.compile(r"^\s*func\.func\s+(?:public\s+)?@([\w$.]+)", re.MULTILINE),  # tt, ttg, llvm
    re.compile(r"^\s*\.visible\s+\.entry\s+([\w$]+)", re.MULTILINE),  # ptx
    re.compile(r"__global__\s+(?:__launch_bounds__\([^)]*\)\s+)?void\s+(\w+)"),  # cu
)


class IRSource:
    """One stage file of a kernel: ``path``, its stage suffix ``ext``, its text ``src`` and the
    kernel's ``name`` (``@k``, Triton's spelling). ``context`` and ``backend`` are Triton's MLIR
    context and backend, which mytriton's parser does not need."""

    def __init__(self, path: str | Path, context: Any = None, backend: Any = None) -> None:
        self.path = str(path)
        file = Path(path)
        self.ext = file.suffix[1:]
        self.language = Language.TRITON
        self.src = file.read_text()
        found = next((m for p in _KERNEL_NAME if (m := p.search(self.src))), None)
        self.name = "@" + found.group(1) if found else "@" + file.name.split(".")[0]

    def hash(self) -> str:
        return hashlib.sha256(self.src.encode("utf-8")).hexdigest()
