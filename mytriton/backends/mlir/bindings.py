"""The Python-bindings provider: upstream MLIR's Python bindings, used from a persistent worker
process (``worker.py``), because LLVM's fatal errors ``abort()`` the process that hits them.

The package prefix is ``$MYTRITON_MLIR_PYTHON``: ``mlir`` (the default, from
``pip install "mytriton[mlir]"``), ``ncm_mlir``, ``numba_cuda_mlir._mlir``... One worker serves
every compile of a process; a crashed one is replaced at the next compile. The bindings drop
error diagnostics of a pipeline that succeeds (unlike ``mlir-opt``, which prints them): the
known cases (a toolkit path that does not exist) are ruled out before MLIR runs.
"""

from __future__ import annotations

import base64
import contextlib
import importlib.util
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, ClassVar

from mytriton.backends.mlir.binary import GpuObject, object_kind
from mytriton.backends.mlir.provider import TIMEOUT_S, Provider, RunResult, exit_description
from mytriton.backends.mlir.provider_config import PYTHON_ENV_VAR
from mytriton.backends.mlir.toolkit import find_cuda_toolkit, tool_env

WORKER_SCRIPT = Path(__file__).with_name("worker.py")
START_TIMEOUT_S = 120.0
# what MLIR reads to find ptxas and libdevice: the worker takes them from each request
TOOLKIT_VARS = ("PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT")


class BindingsProvider(Provider):
    """Upstream MLIR Python bindings, used from a persistent worker subprocess."""

    name = "python"
    worker_command: ClassVar[list[str]] = [sys.executable, "-u", str(WORKER_SCRIPT)]

    def __init__(self, prefix: str):
        self.prefix = prefix
        self._worker: WorkerProcess | None = None
        self._failure: str | None = None
        self._version = ""
        self._lock = threading.Lock()

    def _importable(self) -> bool:
        try:
            return importlib.util.find_spec(self.prefix.split(".")[0]) is not None
        except (ImportError, ValueError):
            return False

    def unavailable_reason(self) -> str | None:
        if not self._importable():
            return f"package {self.prefix!r} (${PYTHON_ENV_VAR}) is not installed"
        with self._lock:
            self._ensure_worker(tool_env(find_cuda_toolkit()))
        return self._failure

    def describe(self) -> str:
        what = f"MLIR Python bindings {self.prefix!r} in a worker process"
        return what + (f" ({self._version})" if self._version else "")

    def _ensure_worker(self, env: Mapping[str, str]) -> WorkerProcess | None:
        """The running worker, started if needed (``None`` if the bindings do not load)."""
        if self._failure is not None:
            return None
        if self._worker is not None and self._worker.alive():
            return self._worker
        worker = WorkerProcess([*self.worker_command, self.prefix], env)
        hello = worker.read_message(START_TIMEOUT_S)
        if hello is None or not hello.get("ready"):
            if hello is not None:
                reason = str(hello.get("error", ""))
            else:
                reason = f"{worker.death_report()}\n{worker.stderr_since(0).strip()[-2000:]}"
            self._failure = f"package {self.prefix!r} does not load as MLIR bindings: {reason}"
            worker.close()
            return None
        self._version = str(hello.get("version", ""))
        self._worker = worker
        return worker

    def run(self, source: str, pipeline: str, env: Mapping[str, str]) -> RunResult:
        with self._lock:
            worker = self._ensure_worker(env)
            if worker is None:
                return RunResult(False, f"error: {self._failure}")
            start = worker.stderr_position()
            toolkit_env = {name: env.get(name) for name in TOOLKIT_VARS}
            worker.send({"source": source, "pipeline": pipeline, "env": toolkit_env})
            reply = worker.read_message(TIMEOUT_S)
            stderr = worker.stderr_since(start)
            if reply is None:  # crashed (an LLVM abort) or hung: the next run starts afresh
                log = f"{stderr}\nerror: {worker.death_report()} (the user's process is unaffected)"
                worker.close()
                self._worker = None
                return RunResult(False, log.strip())
        log = "\n".join([stderr.strip(), *reply.get("diagnostics", [])]).strip()
        objects = []
        for fmt, data in reply.get("objects", []):
            raw = base64.b64decode(data)
            objects.append(GpuObject(object_kind(fmt, raw), raw))
        return RunResult(bool(reply.get("ok")), log, objects)

    def close(self) -> None:
        with self._lock:
            if self._worker is not None:
                self._worker.close()
                self._worker = None


class WorkerProcess:
    """A running ``worker.py``: JSON lines over its stdin/stdout, its stderr in a temp file."""

    def __init__(self, command: list[str], env: Mapping[str, str]):
        # lives as long as the worker, closed in close()
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=dict(env),
        )
        self._timed_out = False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):  # it died: read_message reports how
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()

    def read_message(self, timeout: float) -> dict[str, Any] | None:
        """The next reply, or ``None`` if the worker died or took longer than ``timeout``."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            self._timed_out = True
            self.proc.kill()
            return None
        line = self.proc.stdout.readline()
        if not line.endswith(b"\n"):
            return None
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            return None
        return message if isinstance(message, dict) else None

    def stderr_position(self) -> int:
        return self._stderr.seek(0, os.SEEK_END)

    def stderr_since(self, position: int) -> str:
        self._stderr.seek(position)
        return self._stderr.read().decode(errors="replace")

    def death_report(self) -> str:
        """How the worker ended (its stderr, which says why, is read separately)."""
        if self._timed_out:
            return (
                f"the MLIR worker did not answer in time and was killed (limit {TIMEOUT_S:.0f} s)"
            )
        try:
            code = self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        return exit_description(code, "the MLIR worker process")

    def close(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._stderr.close()
