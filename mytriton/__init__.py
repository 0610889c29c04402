"""mytriton: a Triton-compatible GPU kernel compiler built MLIR-natively on xDSL.

``import mytriton as triton; import mytriton.language as tl`` and write kernels as in Triton.
"""

from __future__ import annotations

from mytriton import language
from mytriton.errors import CompilationError, LaunchError
from mytriton.runtime.jit import JITFunction, jit
from mytriton.utils import cdiv, next_power_of_2

__version__ = "0.1.0"

__all__ = [
    "CompilationError",
    "JITFunction",
    "LaunchError",
    "cdiv",
    "jit",
    "language",
    "next_power_of_2",
]
