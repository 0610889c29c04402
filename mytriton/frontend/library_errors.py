"""Errors inside the ``@jit`` library functions (``tl.cumsum``, ``tl.argmax``, ``tl.rand``...)
are the kernel's errors: reported at the kernel's call of the library function.

The library is plain ``tl`` code in ``mytriton/language``; an error it raises on the user's
input (an integer ``xor_sum`` of floats, a scalar ``cumsum``) would otherwise point into
mytriton's own source. At the boundary where kernel code calls library code, such an error
is re-raised, same class and message (naming the library function), at the call.

An error in the user's own ``@jit`` function is reported at the call too, as in Triton: same
class and message, located at the call, caused by the callee's error (located in the callee).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from mytriton.errors import CompilationError, SourceLocation

_LIBRARY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "language")


def is_library_file(path: str) -> bool:
    """Whether ``path`` is a source file of ``mytriton.language``."""
    return os.path.abspath(path).startswith(_LIBRARY + os.sep)


@contextmanager
def reported_at_call(
    caller_file: str, call: SourceLocation | None, callee_file: str, callee: str
) -> Iterator[None]:
    """Inline the function ``callee`` with its errors located at ``call``: a library function's
    in place of its own (when the caller is kernel code, not the library itself), a user
    function's as the cause of the error at the call."""
    try:
        yield
    except CompilationError as e:
        if call is not None and not is_library_file(callee_file):
            at_call = type(e).__new__(type(e))
            CompilationError.__init__(at_call, e.message, call, cause=e.tritons_words)
            raise at_call from e
        if (
            call is None
            or not is_library_file(callee_file)
            or is_library_file(caller_file)
            or e.loc is None
            or not is_library_file(e.loc.file)
        ):
            raise
        relocated = type(e).__new__(type(e))
        CompilationError.__init__(relocated, f"{e.message} (in tl.{callee})", call)
        raise relocated from e.__cause__  # what the library raised, as in Triton
