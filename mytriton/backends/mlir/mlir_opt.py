"""The ``mlir-opt`` provider: one subprocess per pipeline (Debian's ``mlir-22-tools``, or any
``mlir-opt`` named by ``$MYTRITON_MLIR_OPT``). A variable naming something unusable disables the
provider rather than silently falling back to ``PATH``."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping

from mytriton.backends.mlir.binary import extract_objects
from mytriton.backends.mlir.provider import TIMEOUT_S, Provider, RunResult, exit_description
from mytriton.backends.mlir.provider_config import OPT_ENV_VAR, OPT_NAMES, find_mlir_opt


class MlirOptProvider(Provider):
    """The ``mlir-opt`` executable, one subprocess per pipeline."""

    name = "mlir-opt"

    def __init__(self, configured: str | None = None):
        self.configured = configured
        self.path = find_mlir_opt(configured)
        self._version: str | None = None

    def unavailable_reason(self) -> str | None:
        if self.path is not None:
            return None
        if self.configured:
            return f"${OPT_ENV_VAR}={self.configured} is not an executable"
        return f"none of {', '.join(OPT_NAMES)} is on PATH (and ${OPT_ENV_VAR} is not set)"

    def version(self) -> str:
        if self._version is None and self.path is not None:
            try:
                out = subprocess.run(
                    [self.path, "--version"], capture_output=True, text=True, timeout=30
                ).stdout
                self._version = next(
                    (ln.strip() for ln in out.splitlines() if "version" in ln.lower()), ""
                )
            except (OSError, subprocess.SubprocessError):
                self._version = ""
        return self._version or ""

    def describe(self) -> str:
        if self.path is None:
            return "mlir-opt executable"
        version = self.version()
        return f"{self.path}" + (f" ({version})" if version else "")

    def run(self, source: str, pipeline: str, env: Mapping[str, str]) -> RunResult:
        assert self.path is not None
        try:
            proc = subprocess.run(
                [self.path, f"--pass-pipeline={pipeline}", "-", "-o", "-"],
                input=source.encode(),
                capture_output=True,
                env=dict(env),
                timeout=TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return RunResult(False, f"error: mlir-opt did not finish in {TIMEOUT_S:.0f} s")
        except OSError as e:
            return RunResult(False, f"error: cannot run {self.path}: {e}")
        log = proc.stderr.decode(errors="replace")
        if proc.returncode != 0:
            log += f"\n{exit_description(proc.returncode, 'mlir-opt')}"
        output = proc.stdout.decode(errors="replace")
        return RunResult(proc.returncode == 0, log, extract_objects(output))
