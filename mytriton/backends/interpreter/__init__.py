"""The CPU interpreter backend: runs `tt` IR with NumPy, one block op at a time.

It is how CI executes kernels without a GPU and the oracle the GPU backends are checked against.
Semantics are the GPU's (f32 stays f32, i32 wraps, masked-off lanes are never read); out-of-bounds
accesses and, with ``debug=True``, uses of uninitialised values are reported at the kernel line.

``registry`` holds ``RULES``, one rule per op class (``@rule(Op)``; a base class's rule serves
its subclasses, so one rule runs every elementwise op), written in the ``rules_*`` modules;
``engine`` executes the IR for a batch of programs, ``launch`` walks the grid (``run_kernel``;
``batching`` says when programs may run together), ``memory`` and ``poison`` are the bounds
and uninitialised-value checks, ``backend`` is ``InterpreterBackend``.
"""

from mytriton.backends.interpreter.errors import InterpreterError, OutOfBoundsAccess, PoisonUse
from mytriton.backends.interpreter.launch import run_kernel

__all__ = ["InterpreterError", "OutOfBoundsAccess", "PoisonUse", "run_kernel"]
