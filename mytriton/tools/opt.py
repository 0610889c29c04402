"""``mytriton-opt``: xdsl-opt with the `tt` dialect and mytriton's passes (plugins included).

Every xdsl-opt flag keeps working (``-p``, ``--print-op-generic``, ``--split-input-file``,
``--verify-diagnostics``, stdin or a file), and every upstream xDSL dialect and pass stays
available, so `tt` IR mixed with ``scf``/``arith``/``gpu`` can be run through any pass; our
own dialects (`tt`, `ttg`, and ``arith``/``gpu`` extended with the upstream ops xDSL lacks)
replace xDSL's, so every stage of a kernel's ``asm`` parses.
``--jit-pipeline`` runs exactly what ``@jit`` runs on a kernel (``$MYTRITON_PIPELINE`` or
the default), so a kernel's ``asm["tt"]`` can be replayed by hand; the lowering's two named
pipelines (``mytriton.passes.gpu_lowering.lower_to_gpu``: ``ttg-accelerate-matmul{num_warps=N},
tt-legalize-fp8-dots,tt-legalize-tf32x3-dots,tt-assign-layouts{num_warps=N},cse,licm,
ttg-pipeline`` then
``tt-lower-to-gpu,cse,dce``) replay ``asm["ttg"]`` and ``asm["gpu"]`` from ``asm["tt-opt"]``.
Targets ``-t cuda``, ``-t nvvm-mlir`` and ``-t ptx`` print a lowered module as the GPU backends
do (CUDA C++, upstream-dialect MLIR, PTX through upstream MLIR).

Like mlir-opt, ``-`` names stdin, any file name parses as MLIR, and bad input (an unreadable
file, text that does not parse or verify, nesting too deep to walk) is a diagnostic on stderr
and a non-zero exit, never a Python traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from mytriton.errors import MyTritonError
from mytriton.passes.pipeline import (
    PIPELINE_ENV,
    PipelineSpecError,
    check_pass_names,
    pipeline_spec,
)
from mytriton.passes.registry import available_passes

# Dialects mytriton defines (tt, ttg, ptx) or extends with upstream ops xDSL lacks (arith, gpu):
# every IR stage of a kernel must parse. Names and where each object is defined
# (``mytriton.dialects.all_dialects`` lists them all), so a run imports only those its input uses.
_DIALECT_OBJECTS = {
    "tt": ("mytriton.dialects.tt.dialect", "TT"),
    "ttg": ("mytriton.dialects.ttg.dialect", "TTG"),
    "arith": ("mytriton.dialects.nvgpu.upstream", "ARITH"),
    "gpu": ("mytriton.dialects.nvgpu.upstream", "GPU"),
    "llvm": ("mytriton.dialects.nvgpu.upstream", "LLVM"),
    "nvvm": ("mytriton.dialects.nvgpu.dialect", "NVVM"),
    "ptx": ("mytriton.dialects.nvgpu.dialect", "PTX"),
}
MYTRITON_DIALECTS = tuple(_DIALECT_OBJECTS)


#: exit status for input the tool cannot read, parse or verify (as mlir-opt); pipeline
#: mistakes and inputs a pass rejects exit with ``USAGE_EXIT``
INPUT_EXIT = 1
USAGE_EXIT = 2
STDIN = "-"


class InputError(Exception):
    """An input or output file the tool cannot use: reported as a one-line diagnostic."""


def _mytriton_dialect(name: str) -> Callable[[], Dialect]:
    def load() -> Dialect:
        import importlib

        module, attribute = _DIALECT_OBJECTS[name]
        dialect: Dialect = getattr(importlib.import_module(module), attribute)
        return dialect

    return load


def _cuda_target(module: ModuleOp, output: IO[str]) -> None:
    from mytriton.backends.cuda.printer import print_cuda

    output.write(print_cuda(module))


def _nvvm_mlir_target(module: ModuleOp, output: IO[str]) -> None:
    from mytriton.backends.mlir.emit import emit_mlir

    output.write(emit_mlir(module))


def _ptx_target(module: ModuleOp, output: IO[str]) -> None:
    from mytriton.backends.mlir.emit import emit_mlir
    from mytriton.backends.mlir.pipeline import mlir_to_ptx
    from mytriton.passes.gpu_lowering.abi import find_kernel

    output.write(mlir_to_ptx(emit_mlir(module), kernel=find_kernel(module).sym_name.data))


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

    def register_all_targets(self) -> None:
        super().register_all_targets()
        # lowered IR (``-p tt-assign-layouts,tt-lower-to-gpu`` or an ``asm["gpu"]``) printed as
        # the backends print it: CUDA C++, upstream-dialect MLIR, or PTX through upstream MLIR
        self.available_targets["cuda"] = _cuda_target
        self.available_targets["nvvm-mlir"] = _nvvm_mlir_target
        self.available_targets["ptx"] = _ptx_target

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.add_argument(
            "--jit-pipeline",
            default=False,
            action="store_true",
            help=f"run the pipeline @jit runs on kernels (${PIPELINE_ENV} if set, "
            "else the default); cannot be combined with -p",
        )

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The input (``-`` or no file: stdin) and its frontend; unknown extensions are MLIR."""
        name = self.args.input_file
        if name is None or name == STDIN:
            return sys.stdin.buffer, "mlir"
        try:
            f, extension = super().get_input_stream()
        except OSError as e:
            raise InputError(f"cannot open input file '{name}': {e.strerror}") from None
        return f, extension if extension in self.available_frontends else "mlir"

    def get_input_name(self) -> str:
        name = self.args.input_file
        return "stdin" if name is None or name == STDIN else str(name)

    def prepare_output(self) -> IO[str]:
        try:
            return super().prepare_output()
        except OSError as e:
            raise InputError(
                f"cannot open output file '{self.args.output_file}': {e.strerror}"
            ) from None

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        try:
            return super().parse_chunk(chunk, file_extension, start_offset)
        except UnicodeDecodeError as e:
            line = start_offset + e.object[: e.start].count(b"\n") + 1
            raise InputError(
                f"{self.get_input_name()}:{line}: byte {e.object[e.start]:#04x} is not UTF-8: "
                "the input must be MLIR text"
            ) from None

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
    """Console entry point (``mytriton-opt``). Every error is a diagnostic on stderr: input
    that cannot be read, parsed or verified exits 1; pipeline errors, and errors a pass raises
    (``CompilationError``, ``BackendError``), exit 2 with a one-line message."""
    try:
        tool = MyTritonOptMain(description="mytriton's modular optimizer driver", args=args)
        tool.run()
    except MyTritonError as e:
        _fail(str(e), USAGE_EXIT)
    except InputError as e:
        _fail(str(e), INPUT_EXIT)
    except (ParseError, DiagnosticException) as e:
        notes = getattr(e, "__notes__", [])
        _fail("\n".join([str(e), *notes]), INPUT_EXIT)
    except RecursionError:
        _fail(
            "the input nests too deeply (Python's recursion limit was reached walking it)",
            INPUT_EXIT,
        )
    except OSError as e:  # reading the input or writing the output failed midway
        _fail(f"{e.strerror or e}", INPUT_EXIT)


def _fail(message: str, status: int) -> None:
    print(f"mytriton-opt: error: {message}", file=sys.stderr)
    sys.exit(status)


if __name__ == "__main__":
    main()
