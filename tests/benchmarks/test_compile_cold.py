"""``benchmarks/compile_cold.py``: its table, its argument errors, and one real cold compile
split into the compiler's Python and its tools."""

from __future__ import annotations

import sys

import pytest

from tests.benchmarks.test_static_compare import _load
from tests.child_env import child_pythonpath

cc = _load("compile_cold")


def _times(python: float, tools: float) -> dict[str, float]:
    return {"python": python, "tools": tools, "total": python + tools}


def test_table_gives_each_split_and_the_ratio_to_triton() -> None:
    results = {
        "softmax": {"triton": _times(0.3, 0.1), "mytriton-cuda": _times(0.2, 0.4)},
        "matmul.cfg0": {"triton": _times(0.5, 0.1), "mytriton-cuda": {"error": "boom"}},
    }
    lines = cc.table(results, ["triton", "mytriton-cuda"])
    assert lines[0].endswith("| mytriton-cuda / triton |")
    assert lines[2] == "| softmax | 0.30 / 0.10 / 0.40 | 0.20 / 0.40 / 0.60 | 1.50 |"
    assert lines[3] == "| matmul.cfg0 | 0.50 / 0.10 / 0.60 | failed | - |"


@pytest.mark.parametrize("argv", [["--kernels", "no_such_kernel"], ["--impls", "mytriton-gpusim"]])
def test_unknown_kernel_or_implementation_is_an_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cc.main(argv)
    assert "unknown kernels or implementations" in capsys.readouterr().err


def test_profiling_triton_needs_its_python(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cc.main(["--profile", "triton", "softmax"])
    assert "needs --triton-python" in capsys.readouterr().err


def test_a_cold_cuda_compile_splits_python_and_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    """softmax through the cuda backend's stages, then nvcc and ptxas (a toolkit needed)."""
    from mytriton.backends.mlir.toolkit import find_cuda_toolkit

    toolkit = find_cuda_toolkit()
    if toolkit is None or toolkit.ptxas is None or not (toolkit.root / "bin" / "nvcc").exists():
        pytest.skip("no CUDA toolkit with nvcc and ptxas")
    monkeypatch.setenv("PYTHONPATH", child_pythonpath())  # where mytriton's dependencies are
    times = cc.run_cold(sys.executable, "mytriton-cuda", "softmax")
    assert "error" not in times, times
    # then nvcc, off the table; where a GPU is, NVRTC and ptxas are the stages ptx and cubin
    assert list(times["stages"]) in (
        ["tt-opt", "ttg", "gpu", "cuda"],
        ["tt-opt", "ttg", "gpu", "cuda", "ptx", "cubin"],
    )
    assert 0 < times["tools"] < times["total"]
    assert times["python"] == pytest.approx(times["total"] - times["tools"])
    # the compiler's own stages fit in its Python time (ptx and cubin, where a GPU is, are tools)
    own = [
        t for stage, t in times["stages"].items() if stage not in cc.TOOL_STAGES["mytriton-cuda"]
    ]
    assert times["frontend"] + sum(own) <= times["python"]
