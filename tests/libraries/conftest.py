"""Real libraries' kernels, unchanged, on mytriton through the ``triton`` switch. Each runs an
example of ``examples/`` in a fresh interpreter with ``MYTRITON_AS_TRITON=1`` (the switch acts
at start-up) and reads its JSON report. Nothing is installed at test time: a test is skipped,
saying so, when its library is not installed in the interpreter running the tests."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.child_env import switch_hook_folder

ROOT = Path(__file__).resolve().parents[2]
CPU_BACKENDS = ["interpreter", "gpusim"]


def require(*modules: str) -> None:
    """Skip unless every module is importable here (the example runs in this interpreter)."""
    for name in modules:
        if importlib.util.find_spec(name) is None:
            pytest.skip(
                f"{name} is not installed in this interpreter (nothing is installed at test time)"
            )


def run_python(
    args: list[str], backend: str, timeout: float = 900, **env_vars: str
) -> subprocess.CompletedProcess[str]:
    """``python *args`` with the switch on, ``backend`` selected, and this checkout first."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRITON_", "MYTRITON_"))}
    env.update(MYTRITON_AS_TRITON="1", MYTRITON_BACKEND=backend, **env_vars)
    hook = switch_hook_folder(Path(tempfile.mkdtemp(prefix="mytriton-libraries-")))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (hook, str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


def run_example(example: str, backend: str, *extra: str) -> dict[str, dict[str, Any]]:
    """The per-case JSON rows of ``examples/<example>`` run on the CPU under ``backend``. The
    child sees no GPU (CPU tensors, CPU backends): a library may gate a code path on the GPU it
    finds (fla refuses gated chunk kernels on Hopper for the Triton API level 3.6)."""
    proc = run_python(
        [str(ROOT / "examples" / example), "--device", "cpu", "--json", *extra],
        backend,
        CUDA_VISIBLE_DEVICES="",
    )
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert rows, f"no report from {example}:\n{proc.stdout}\n{proc.stderr[-4000:]}"
    return {row["case"]: row for row in rows}
