"""``torch.compile`` (TorchInductor) on mytriton: every graph of ``graphs.py``, compiled with
``import triton`` being mytriton and checked against eager PyTorch, on each path:

- CPU (``torch._inductor.config.cpu_backend = "triton"``): Inductor's compiled path
  (``ASTSource`` -> ``triton.compile`` -> ``CompiledKernel.run``) on the interpreter and on
  gpusim, and its ``TRITON_INTERPRET=1`` path (kernels launched as ``@jit`` kernels);
- CUDA, where torch has a GPU: the cuda and mlir backends (``MYTRITON_BACKEND``).

The alias must be on before ``torch._inductor`` looks for triton, so each path runs its graphs
in subprocesses (``runner.py``) with ``MYTRITON_AS_TRITON=1``, a fresh Inductor cache (every
kernel is compiled, by Inductor's parallel compile workers too), each reporting one result per
graph: one subprocess per path where cores are few (each imports torch), up to four where there
are many. The tests of one subprocess are an ``xdist_group`` (``--dist loadgroup``), so that one
pytest worker runs it once.
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

#: runner subprocesses per path (each imports torch: one where cores are few)
CHUNKS = max(1, min(4, (os.cpu_count() or 1) // 4))

_RESULTS: dict[tuple[str, int], dict[str, Any]] = {}


def _path_graphs(path: str) -> list[str]:
    return [g for g in GRAPHS if (path, g) not in NOT_ON_PATH]


def _graphs(path: str, chunk: int) -> list[str]:
    """The graphs the runner of ``chunk`` of ``path`` compiles."""
    return _path_graphs(path)[chunk::CHUNKS]


def _chunk(path: str, graph: str) -> int:
    return _path_graphs(path).index(graph) % CHUNKS


def _grouped(path: str, chunk: int, *values: str) -> Any:
    """A test's parameters, in the ``xdist_group`` of its runner subprocess."""
    return pytest.param(*values, marks=pytest.mark.xdist_group(f"inductor-{path}-{chunk}"))


def _cuda_available() -> bool:
    return gpu_missing("torch") is None


def _run_path(path: str, chunk: int, tmp: Path) -> dict[str, Any]:
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
    # Inductor's compile workers, per runner: the runners run side by side, and a worker pool
    # per core in each of them left the 16-core GPU machine's pytest workers starving
    runners = len(PATHS) * CHUNKS
    env["TORCHINDUCTOR_COMPILE_THREADS"] = str(max(2, (os.cpu_count() or 1) // runners))
    env["TRITON_CACHE_DIR"] = str(tmp / "triton")
    hook = switch_hook_folder(tmp)  # where mytriton runs from a checkout, not an install
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (hook, str(ROOT), env.get("PYTHONPATH", "")) if p
    )
    graphs = _graphs(path, chunk)
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
    def get(path: str, chunk: int = 0) -> dict[str, Any]:
        if PATHS[path][0] == "cuda":
            require_gpu("torch")  # skips, or fails under MYTRITON_REQUIRE_CUDA=1
        if (path, chunk) not in _RESULTS:
            tmp = tmp_path_factory.mktemp(f"{path}-{chunk}")
            _RESULTS[path, chunk] = _run_path(path, chunk, tmp)
        return _RESULTS[path, chunk]

    return get


@pytest.mark.parametrize("path", [_grouped(p, 0, p) for p in PATHS])
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
    [_grouped(p, _chunk(p, g), p, g) for p in PATHS for g in GRAPHS if (p, g) not in NOT_ON_PATH],
)
def test_graph(path: str, graph: str, path_results: Any) -> None:
    result = path_results(path, _chunk(path, graph)).get(graph)
    assert result is not None, f"{graph}: no result from the {path} runner"
    assert result["ok"], f"{graph} on {path}: {result['error']}\n{result['traceback']}"
    if graph != "user_triton_kernel":
        assert result["kernels"] > 0


def test_enough_graphs() -> None:
    assert len(GRAPHS) >= 30
