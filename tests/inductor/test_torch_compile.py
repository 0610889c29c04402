"""``torch.compile`` (TorchInductor) on mytriton: every graph of ``graphs.py``, compiled with
``import triton`` being mytriton and checked against eager PyTorch, on each path:

- CPU (``torch._inductor.config.cpu_backend = "triton"``): Inductor's compiled path
  (``ASTSource`` -> ``triton.compile`` -> ``CompiledKernel.run``) on the interpreter and on
  gpusim, and its ``TRITON_INTERPRET=1`` path (kernels launched as ``@jit`` kernels);
- CUDA, where torch has a GPU: the cuda and mlir backends (``MYTRITON_BACKEND``).

The alias must be on before ``torch._inductor`` looks for triton, so each path runs all its
graphs in one subprocess (``runner.py``) with ``MYTRITON_AS_TRITON=1``, a fresh Inductor cache
(every kernel is compiled, by Inductor's parallel compile workers too) and reports one result
per graph.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.child_env import switch_hook_folder

torch = pytest.importorskip("torch", reason="the torch.compile suite needs torch ([torch] extra)")

from tests.gpu_required import gpu_missing, require_gpu  # noqa: E402 (after the torch check)
from tests.inductor.graphs import GRAPHS  # noqa: E402
from tests.inductor.runner import parse_results  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

#: path -> (device, environment)
PATHS: dict[str, tuple[str, dict[str, str]]] = {
    "interpreter": ("cpu", {"MYTRITON_BACKEND": "interpreter"}),
    "gpusim": ("cpu", {"MYTRITON_BACKEND": "gpusim"}),
    "triton-interpret": ("cpu", {"TRITON_INTERPRET": "1", "MYTRITON_BACKEND": "interpreter"}),
    "cuda": ("cuda", {"MYTRITON_BACKEND": "cuda"}),
    "mlir": ("cuda", {"MYTRITON_BACKEND": "mlir"}),
}

#: graphs a path cannot run, and why (every other graph runs on every path)
NOT_ON_PATH = {
    # With TRITON_INTERPRET=1, Inductor expects Dynamo not to capture user kernels (Triton's
    # interpreter kernels are not JITFunctions; mytriton's are), and its interpreter launch
    # then drops the kernel's constexpr arguments.
    ("triton-interpret", "user_triton_kernel"),
}

_RESULTS: dict[str, dict[str, Any]] = {}


def _cuda_available() -> bool:
    return gpu_missing("torch") is None


def _run_path(path: str, tmp: Path) -> dict[str, Any]:
    """All graphs of ``path`` in one subprocess: ``{"": header, graph: result}``."""
    device, extra = PATHS[path]
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("MYTRITON_BACKEND", "MYTRITON_CPU_BACKEND", "TRITON_INTERPRET")
        and k not in ("MYTRITON_INTERPRET",)
    }
    env.update(extra)
    env["MYTRITON_AS_TRITON"] = "1"
    env["TORCHINDUCTOR_CACHE_DIR"] = str(tmp / "inductor")
    env["TRITON_CACHE_DIR"] = str(tmp / "triton")
    hook = switch_hook_folder(tmp)  # where mytriton runs from a checkout, not an install
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (hook, str(ROOT), env.get("PYTHONPATH", "")) if p
    )
    graphs = [g for g in GRAPHS if (path, g) not in NOT_ON_PATH]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.inductor.runner",
            "--device",
            device,
            "--graphs",
            ",".join(graphs),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=1800,
    )
    results = parse_results(proc.stdout)
    if "" not in results:
        raise AssertionError(
            f"the {path} runner failed (rc {proc.returncode}):\n{proc.stdout[-3000:]}\n"
            f"{proc.stderr[-6000:]}"
        )
    results["_stderr"] = proc.stderr
    return results


@pytest.fixture(scope="module")
def path_results(tmp_path_factory: pytest.TempPathFactory) -> Any:
    def get(path: str) -> dict[str, Any]:
        if PATHS[path][0] == "cuda":
            require_gpu("torch")  # skips, or fails under MYTRITON_REQUIRE_CUDA=1
        if path not in _RESULTS:
            _RESULTS[path] = _run_path(path, tmp_path_factory.mktemp(path))
        return _RESULTS[path]

    return get


@pytest.mark.parametrize("path", list(PATHS))
def test_triton_is_mytriton(path: str, path_results: Any) -> None:
    header = path_results(path)[""]
    assert Path(header["triton"]).resolve().is_relative_to(ROOT / "mytriton")
    assert header["version"] == "3.6.0"
    if PATHS[path][0] == "cpu":
        # no GPU here: Triton's default driver is the active one, the CPU driver
        if not _cuda_available():
            assert header["driver"] == "CPUDriver"
        assert header["cpu_backend"] == PATHS[path][1]["MYTRITON_BACKEND"]


@pytest.mark.parametrize(
    ("path", "graph"),
    [(p, g) for p in PATHS for g in GRAPHS if (p, g) not in NOT_ON_PATH],
)
def test_graph(path: str, graph: str, path_results: Any) -> None:
    result = path_results(path).get(graph)
    assert result is not None, f"{graph}: no result from the {path} runner"
    assert result["ok"], f"{graph} on {path}: {result['error']}\n{result['traceback']}"
    if graph != "user_triton_kernel":
        assert result["kernels"] > 0


def test_enough_graphs() -> None:
    assert len(GRAPHS) >= 30
