"""Every error mytriton raises at compile or launch time, in one place.

Compile-time errors name the kernel's source location as ``file:line:col`` and show the source
line with a caret, the way Python's own ``SyntaxError`` does. Where the error lies in a
``@jit`` function's body, the first line also gives Triton's position, ``at L:C:`` (line from
the ``def`` line, 1-based; column 0-based, dedented), and the message comes last, as in Triton's
reports: code written for Triton looks for both.
"""

from __future__ import annotations

import linecache
import os
import warnings
from dataclasses import dataclass, field
from typing import ClassVar


@dataclass(frozen=True)
class FunctionScope:
    """The ``@jit`` function a location lies in: its name and where its ``def`` is (1-based
    line and column in the file)."""

    name: str
    def_line: int
    def_col: int


@dataclass(frozen=True)
class SourceLocation:
    """A position in the kernel's Python source (1-based line, 1-based column)."""

    file: str
    line: int
    col: int
    #: the function whose body holds it, where known (frontend locations)
    scope: FunctionScope | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def triton_position(self) -> str | None:
        """Triton's ``L:C``: line counted from the ``def`` line (1-based), column 0-based
        from the ``def``'s indentation."""
        if self.scope is None:
            return None
        return f"{self.line - self.scope.def_line + 1}:{self.col - self.scope.def_col}"

    def source_line(self) -> str | None:
        text = linecache.getline(self.file, self.line)
        return text.rstrip("\n") if text else None


def format_at(loc: SourceLocation | None, message: str) -> str:
    """``file:line:col: error: message`` followed by the source line and a caret; in a
    function's body ``file:line:col: error: in NAME at L:C:``, the source line, the caret, then
    the message (Triton's ``at L:C:`` and its message as the last line)."""
    if loc is None:
        return message
    position = loc.triton_position()
    if position is None or loc.scope is None:
        out = f"{loc}: error: {message}"
    else:
        out = f"{loc}: error: in {loc.scope.name} at {position}:"
    line = loc.source_line()
    if line is not None:
        out += f"\n    {line}\n    {' ' * max(loc.col - 1, 0)}^"
    if position is not None and message:
        out += f"\n{message}"
    return out


def warn_at(loc: SourceLocation | None, message: str) -> None:
    """A ``UserWarning`` attributed to the kernel's line (Triton warns the same words, from its
    own frames)."""
    if loc is None:
        warnings.warn(message, UserWarning, stacklevel=3)
    else:
        warnings.warn_explicit(message, UserWarning, loc.file, loc.line)


class MyTritonError(Exception):
    """Base of all mytriton errors."""


class CompilationError(MyTritonError):
    """A kernel could not be compiled; ``loc`` is where in the kernel source.

    A subclass naming a ``cause_type`` carries, as its ``__cause__``, that plain Python
    exception with the bare message (no location): Triton's ``CompilationError`` is caused by
    the ``ValueError``/``TypeError`` its semantics raised, and code written for Triton reads
    the message there. ``raise ... from`` another exception replaces it. ``cause`` gives that
    exception Triton's exact words where ours say more (code written for Triton compares them).
    """

    cause_type: ClassVar[type[Exception] | None] = None

    def __init__(
        self, message: str, loc: SourceLocation | None = None, *, cause: str | None = None
    ):
        self.message = message
        self.loc = loc
        self.tritons_words = cause  # the cause's message where it is not ours
        super().__init__(format_at(loc, message))
        if self.cause_type is not None:
            self.__cause__ = self.cause_type(message if cause is None else cause)

    @property
    def error_message(self) -> str:
        """The message without its location (Triton's attribute name)."""
        return self.message


class UnsupportedSyntaxError(CompilationError):
    """Python syntax the frontend does not compile (it would never silently run it)."""


class KernelNameError(CompilationError):
    """A name used in a kernel is not defined (or not usable inside a kernel)."""

    cause_type = NameError


class KernelTypeError(CompilationError):
    """Operands of the wrong dtype or shape for an operation."""

    cause_type = TypeError


class KernelValueError(CompilationError):
    """A compile-time value is out of range (shape not a power of two, axis out of range...)."""

    cause_type: ClassVar[type[Exception] | None] = ValueError


class StaticAssertionError(KernelValueError):
    """``tl.static_assert`` failed at compile time (Triton's ``CompileTimeAssertionFailure``,
    which ``triton.compiler.errors`` names this class). No cause: nothing in Python failed,
    and Triton's has none either."""

    cause_type = None


class DotSizeError(KernelValueError):
    """A ``tl.dot`` smaller than the target's tensor cores take (K < 16, K < 32 for 8-bit
    operands on NVIDIA); its cause is the ``AssertionError`` Triton's frontend raises."""

    cause_type = AssertionError


class UnusedResultError(CompilationError):
    """A call of a ``must_use_result`` function (``tl.advance``) drops its result: the call
    would do nothing. No cause, as in Triton."""


class ConstexprError(CompilationError):
    """A value that must be known at compile time (``tl.constexpr``) is a runtime value."""

    cause_type = TypeError


class IRVerificationError(CompilationError):
    """Generated IR broke an op's verifier: names the Python line the op came from."""


class SourceUnavailableError(CompilationError):
    """``inspect.getsource`` cannot find the kernel's source (lambdas, ``exec``, REPL)."""


class UnsupportedReferenceError(MyTritonError, RuntimeError):
    """A ``@jit`` or ``constexpr_function`` function reads a Python function that is neither
    one of them nor the language's (``torch.cuda.get_device_capability``): its cache key cannot
    follow what that function computes. Also a ``RuntimeError``, as in Triton."""


class LaunchError(MyTritonError):
    """Bad launch: wrong arguments, grid, arrays (dtype, device, contiguity, framework mix)."""


class ArgumentOverflowError(LaunchError, OverflowError):
    """An integer argument outside int64 and uint64 (also an ``OverflowError``, as in Triton)."""


class GlobalChangedError(LaunchError, RuntimeError):
    """A global the kernel compiled in has another value now (Triton raises RuntimeError)."""


class LaunchOptionError(LaunchError, ValueError, AssertionError):
    """A launch or ``@jit`` option mytriton cannot honour (``num_warps=3``, ``num_ctas=2``...).
    Also a ``ValueError`` and an ``AssertionError``: what Triton raises for these."""


class DescriptorAssertionError(LaunchError, AssertionError):
    """A host ``TensorDescriptor`` Triton refuses with an ``AssertionError`` (rank, alignment,
    strides, shape, padding)."""


class DescriptorValueError(LaunchError, ValueError):
    """A host ``TensorDescriptor`` whose block shape Triton refuses with a ``ValueError`` (a
    size that is not a power of two), or one a GPU's tensor map cannot hold."""


class AutotuneError(LaunchError, ValueError):
    """A misused ``@autotune``: a launch re-defining a tuned meta-parameter, pruning that leaves
    no config (also a ``ValueError``, what Triton raises for the first)."""


class AutotuneTypeError(AutotuneError, TypeError):
    """An ``@autotune`` setting of the wrong type (``prune_configs_by``'s ``top_k``); also a
    ``TypeError``, as in Triton."""


class BackendError(MyTritonError):
    """A backend failed to compile or run a kernel (compiler log attached)."""


class OutOfResources(BackendError):
    """A kernel needs more of a device resource (shared memory, threads, registers) than the
    device has; Triton's class, with its constructor, which autotuners catch to skip a config."""

    def __init__(self, required: int, limit: int, name: str):
        self.required = required
        self.limit = limit
        self.name = name
        self.message = (
            f"out of resource: {name}, Required: {required}, Hardware limit: {limit}. "
            "Reducing block sizes or `num_stages` may help."
        )
        super().__init__(self.message)

    def __reduce__(self) -> tuple[type, tuple[int, int, str]]:
        return (type(self), (self.required, self.limit, self.name))


class PTXASError(BackendError):
    """The PTX assembler rejected a kernel (Triton's class; autotuners skip such configs)."""


class DeviceAssertionError(BackendError):
    """A ``tl.device_assert`` (debug mode) failed while the kernel ran; the message names the
    kernel line and the program where the backend can tell."""


class BackendUnavailableError(BackendError):
    """The selected backend needs something this machine lacks (a GPU, CuPy, MLIR...)."""


class CompileOnlyWarning(UserWarning):
    """A launch under a GPU backend with host arrays compiled the kernel but ran nothing."""


class CacheEntryWarning(UserWarning):
    """An on-disk compile cache entry did not check out (truncated, edited) or could not be
    written; the kernel is compiled again."""


class OverrideIgnoredWarning(UserWarning):
    """A stage override file lies where no kernel looks for it (outside its ``<hash>/``)."""


def debug_enabled() -> bool:
    """``MYTRITON_DEBUG=1``: interpreter poison checks, and errors keep the compiler's stack."""
    return os.environ.get("MYTRITON_DEBUG", "") not in ("", "0")
