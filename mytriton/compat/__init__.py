"""Triton's host API over mytriton, in one place.

Everything that makes mytriton a drop-in for ``import triton`` lives here: the alias that makes
``triton.X`` the module ``mytriton.X`` (``alias.py``, switched on by ``MYTRITON_AS_TRITON=1`` or
``install_as_triton()``), and Triton 3.6's host-side compiler API that TorchInductor drives
(``ASTSource``, ``compile``, ``CompiledKernel``, ``GPUTarget``, the ``backends`` registry and
its drivers). The modules under Triton's names (``mytriton.compiler``,
``mytriton.backends.compiler``, ``mytriton.runtime.cache`` ...) only re-export from here; the
compiling and launching are the runtime's own (``runtime/compiler.py``, ``runtime/launch.py``).
"""

from __future__ import annotations

from mytriton.compat.alias import TRITON_API_VERSION, install_as_triton

__all__ = ["TRITON_API_VERSION", "install_as_triton"]
