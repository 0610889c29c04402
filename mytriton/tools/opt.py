"""``mytriton-opt``: xdsl-opt with the `tt` dialect and mytriton's passes (plugins included).

Every xdsl-opt flag keeps working (``-p``, ``--print-op-generic``, ``--split-input-file``,
``--verify-diagnostics``, stdin or a file), and every upstream xDSL dialect and pass stays
available, so `tt` IR mixed with ``scf``/``arith``/``gpu`` can be run through any pass; our
own dialects (`tt`, `ttg`, and ``arith``/``gpu`` extended with the upstream ops xDSL lacks)
replace xDSL's, so every stage of a kernel's ``asm`` parses.
``--jit-pipeline`` runs exactly what ``@jit`` runs on a kernel (``$MYTRITON_PIPELINE`` or
the default), so a kernel's ``asm["tt"]`` can be replayed by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException
from xdsl.xdsl_opt_main import xDSLOptMain

from mytriton.errors import MyTritonError
from mytriton.passes.pipeline import (
    PIPELINE_ENV,
    PipelineSpecError,
    check_pass_names,
    pipeline_spec,
)
from mytriton.passes.registry import available_passes

# Dialects mytriton defines (tt, ttg) or extends with upstream ops xDSL lacks (arith, gpu):
# every IR stage of a kernel must parse. Names only, so nothing is imported until used.
MYTRITON_DIALECTS = ("tt", "ttg", "arith", "gpu")


def _mytriton_dialect(name: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        from mytriton.dialects import all_dialects

        return next(d for d in all_dialects() if d.name == name)

    return load


class MyTritonOptMain(xDSLOptMain):
    """xDSL's opt driver plus mytriton's dialects (loaded on first use) and pass registry."""

    version_format = "mytriton-opt built on xdsl version {xdsl_version}"

    def register_all_dialects(self) -> None:
        ours = {name: _mytriton_dialect(name) for name in MYTRITON_DIALECTS}
        for name, factory in Universe.get_multiverse().all_dialects.items():
            self.ctx.register_dialect(name, ours.pop(name, factory))
        for name, factory in ours.items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        # ours and plugins take precedence over same-named upstream passes
        for name, factory in available_passes().items():
            self.register_pass(name, factory)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--jit-pipeline",
            default=False,
            action="store_true",
            help=f"run the pipeline @jit runs on kernels (${PIPELINE_ENV} if set, "
            "else the default); cannot be combined with -p",
        )

    def apply_passes(self, prog: ModuleOp) -> None:
        # A pass rejecting its input (CompilationError, BackendError) is a diagnostic like a
        # verifier error: with --verify-diagnostics it is printed and the next chunk runs.
        try:
            super().apply_passes(prog)
        except MyTritonError as e:
            if self.args.verify_diagnostics:
                raise DiagnosticException(str(e)) from e
            raise

    def setup_pipeline(self) -> None:
        if self.args.jit_pipeline:
            if self.args.passes:
                raise PipelineSpecError("--jit-pipeline and -p cannot be combined")
            self.args.passes = pipeline_spec()
        check_pass_names(self.args.passes, self.available_passes)
        try:
            super().setup_pipeline()
        except ValueError as e:  # a pass given an option it does not have
            raise PipelineSpecError(f"invalid pass pipeline '{self.args.passes}': {e}") from e


def main(args: Sequence[str] | None = None) -> None:
    """Console entry point (``mytriton-opt``): pipeline errors, and errors a pass raises
    (``CompilationError``, ``BackendError``), exit 2 with a one-line message."""
    try:
        tool = MyTritonOptMain(description="mytriton's modular optimizer driver", args=args)
        tool.run()
    except MyTritonError as e:
        print(f"mytriton-opt: error: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
