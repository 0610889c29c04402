"""The `tt` optimization pipeline run on every kernel, and how users replace it.

The pipeline is an xDSL pass spec over the registry's passes (plugins included), taken from
``MYTRITON_PIPELINE`` when set (an empty value runs no pass). The module is verified before the
first pass and after every pass, so a rewrite that breaks an op's rules is reported at the
kernel's source line of that op and names the pass that broke it. The compiler's own layout and
lowering pipelines verify their input and their result only (``each_pass=False``): verifying
the lowered module after each of its passes took a third of a matmul's compile; where the result
does not verify, or a pass fails unexpectedly, the pipeline is replayed pass by pass on a copy
of its input to name the pass, as the per-pass run would have. A stage whose input is the
verified result of the stage before (not a text parsed from a file) skips verifying it again
(``verified=True``; the gpu stage's input took 10-20 ms to verify for an attention kernel).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType
from xdsl.utils.arg_spec import parse_pipeline as parse_spec_names
from xdsl.utils.exceptions import ArgSpecParseError

from mytriton.errors import IRVerificationError, MyTritonError
from mytriton.passes.registry import (
    PassFactory,
    UnknownPassError,
    available_passes,
    unknown_pass_message,
)

PIPELINE_ENV = "MYTRITON_PIPELINE"

# tt-simplify: canonicalize (folding, splat hoisting, constant masks) and CSE to a fixpoint.
# licm: hoist pure ops out of scf.for bodies (loads and stores have memory effects and stay).
# tt-simplify again: ops hoisted out of different loops may now be duplicates of each other.
# (tt-pipeline, which loads a K loop's dot operands one iteration early, is not in it: with the
# tiles held in registers it made the H200 matmuls slower; see passes/ttg/pipelining/loads.py.
# K loops are pipelined through shared memory after layout assignment: ttg-pipeline,
# lower_to_gpu.py.)
DEFAULT_PIPELINE = "tt-simplify,licm,tt-simplify"
#: the default pipeline with tt-pipeline (``MYTRITON_PIPELINE``'s value to try it)
PIPELINED = "tt-simplify,licm,tt-pipeline,tt-simplify"


class PipelineSpecError(MyTritonError, ValueError):
    """A pass pipeline spec that does not parse, or gives a pass an option it lacks."""


def pipeline_spec() -> str:
    """The pipeline to run: ``$MYTRITON_PIPELINE`` if set, else ``DEFAULT_PIPELINE``."""
    return os.environ.get(PIPELINE_ENV, DEFAULT_PIPELINE).strip()


def check_pass_names(spec: str, passes: Mapping[str, PassFactory]) -> None:
    """Raise ``PipelineSpecError`` if ``spec`` does not parse, ``UnknownPassError`` (listing
    the known names) if it names a pass missing from ``passes``."""
    try:
        names = [p.name for p in parse_spec_names(spec)]
    except ArgSpecParseError as e:  # a BaseException in xDSL 0.74, not an Exception
        raise PipelineSpecError(f"invalid pass pipeline '{spec}': {e}") from None
    unknown = [n for n in names if n not in passes]
    if unknown:
        raise UnknownPassError(unknown_pass_message(unknown, passes))


def parse_pipeline(spec: str, callback: PassPipelineCallbackType | None = None) -> PassPipeline:
    """Parse ``spec`` against the registry; unknown names raise ``UnknownPassError``."""
    passes = available_passes()
    check_pass_names(spec, passes)
    try:
        return PassPipeline.parse_spec(passes, spec, callback)
    except ValueError as e:  # bad options: "Provided arguments [...] not found ..."
        raise PipelineSpecError(f"invalid pass pipeline '{spec}': {e}") from e


def verify_module(module: ModuleOp) -> None:
    """``mytriton.dialects.verify.verify_module``, imported on first use: it loads the
    dialects, which ``mytriton-opt --help`` and reading a pipeline do not need."""
    from mytriton.dialects.verify import verify_module as verify

    verify(module)


def _verify_between_passes(
    previous: ModulePass | None, module: ModuleOp, _next: ModulePass | None
) -> None:
    try:
        verify_module(module)
    except IRVerificationError as e:
        if previous is None:
            raise
        raise IRVerificationError(
            f"{e.message} (in the IR produced by pass '{previous.name}')", e.loc
        ) from e


def run_pipeline(
    module: ModuleOp,
    spec: str | None = None,
    ctx: Context | None = None,
    *,
    each_pass: bool = True,
    verified: bool = False,
    original: ModuleOp | None = None,
) -> None:
    """Apply ``spec`` (default: ``pipeline_spec()``) to ``module`` in place, verifying
    the module before the first pass and after each one (``each_pass=False``: after the last
    one, with the replay the module doc describes). ``verified``: ``module`` is known to verify
    (an earlier stage's verified result), so it is not verified before the first pass;
    ``original``: an unchanged module that ``module`` is a copy of, which the replay copies
    instead of copying ``module`` before every run."""
    if spec is None:
        spec = pipeline_spec()
    if ctx is None:
        from mytriton.dialects import make_context

        ctx = make_context()
    if each_pass:
        check = _verify_after_passes if verified else _verify_between_passes
        parse_pipeline(spec, check).apply(ctx, module)
        return
    pipeline = parse_pipeline(spec)
    if not verified:
        verify_module(module)
    copied = original is None
    pristine = module.clone() if original is None else original  # the replay's input
    try:
        pipeline.apply(ctx, module)
        verify_module(module)
    except IRVerificationError as e:
        _replay(pristine if copied else pristine.clone(), spec, ctx, e)
    except MyTritonError:
        raise  # a diagnosis of the kernel (say, too much shared memory), not a broken pass
    except Exception as e:
        _replay(pristine if copied else pristine.clone(), spec, ctx, e)


def _verify_after_passes(
    previous: ModulePass | None, module: ModuleOp, next_pass: ModulePass | None
) -> None:
    """``_verify_between_passes`` but for the input (``previous`` None), known to verify."""
    if previous is not None:
        _verify_between_passes(previous, module, next_pass)


def _replay(pristine: ModuleOp, spec: str, ctx: Context, error: Exception) -> NoReturn:
    """Run ``spec`` again on ``pristine`` pass by pass, to raise the error that names the pass
    which broke the IR; ``error`` where the replay does not fail (the final verification)."""
    parse_pipeline(spec, _verify_between_passes).apply(ctx, pristine)
    if isinstance(error, IRVerificationError):
        raise IRVerificationError(f"{error.message} (in the IR the pipeline produced)", error.loc)
    raise error
