"""``mytriton.testing`` (Triton's ``triton.testing``): do_bench, perf_report, assert_close."""

from __future__ import annotations

import csv
import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as my_tl
from mytriton import testing
from mytriton.errors import BackendUnavailableError
from mytriton.testing import device_peaks, timers
from tests.gpu_required import gpu_missing, require_gpu

HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
HAS_PANDAS = importlib.util.find_spec("pandas") is not None


@pytest.fixture
def host_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time on the host even where a GPU is present (the CPU-only path)."""
    monkeypatch.setattr(timers, "torch_cuda", lambda: None)
    monkeypatch.setattr(timers, "cupy_cuda", lambda: None)


def sleep_1ms() -> None:
    time.sleep(1e-3)


def test_reachable_as_triton_testing() -> None:
    assert triton.testing is testing
    assert triton.testing.do_bench is testing.do_bench


# ---------------------------------------------------------------- do_bench (CPU)


@pytest.mark.usefixtures("host_only")
@pytest.mark.parametrize("mode", ["min", "max", "mean", "median"])
def test_do_bench_return_modes(mode: str) -> None:
    ms = testing.do_bench(sleep_1ms, warmup=2, rep=8, return_mode=mode)
    assert isinstance(ms, float)
    assert 1.0 <= ms < 100.0  # sleeps at least 1 ms per call


@pytest.mark.usefixtures("host_only")
def test_do_bench_all_and_counts() -> None:
    calls = 0

    def fn() -> None:
        nonlocal calls
        calls += 1
        time.sleep(1e-3)

    times = testing.do_bench(fn, warmup=3, rep=6, return_mode="all")
    assert isinstance(times, list)
    # rep / estimate timed calls: 1 ms calls, 6 ms budget -> at most 6, at least 1
    assert 1 <= len(times) <= 6
    assert all(isinstance(t, float) and t >= 1.0 for t in times)
    # one first call, five estimate calls, at least one warm-up call, then the timed ones
    assert calls >= 1 + 5 + 1 + len(times)
    mean = testing.do_bench(fn, warmup=3, rep=6)
    assert isinstance(mean, float) and mean >= 1.0


@pytest.mark.usefixtures("host_only")
def test_do_bench_quantiles() -> None:
    qs = testing.do_bench(sleep_1ms, warmup=2, rep=8, quantiles=[0.2, 0.5, 0.8])
    assert isinstance(qs, list) and len(qs) == 3
    assert all(isinstance(q, float) and q > 0 for q in qs)
    assert qs[0] <= qs[1] <= qs[2]
    one = testing.do_bench(sleep_1ms, warmup=2, rep=8, quantiles=[0.5])
    assert isinstance(one, float) and one > 0


def test_quantiles_match_numpy() -> None:
    data = [5.0, 1.0, 3.0, 2.0, 8.0, 13.0]
    qs = [0.0, 0.2, 0.5, 0.75, 1.0]
    np.testing.assert_allclose(testing._quantiles(data, qs), np.quantile(data, qs))
    assert testing._summarize(data, None, "median") == float(np.median(data))
    assert testing._summarize(data, None, "mean") == pytest.approx(float(np.mean(data)))


@pytest.mark.usefixtures("host_only")
def test_do_bench_fast_fn_and_grad_to_none() -> None:
    class Param:
        grad: Any = "stale"

    p = Param()
    ms = testing.do_bench(lambda: None, warmup=1, rep=2, grad_to_none=[p])
    assert isinstance(ms, float) and ms >= 0
    assert p.grad is None


@pytest.mark.usefixtures("host_only")
def test_do_bench_bad_arguments() -> None:
    with pytest.raises(ValueError, match="return_mode"):
        testing.do_bench(sleep_1ms, warmup=1, rep=1, return_mode="avg")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        testing.do_bench(sleep_1ms, warmup=1, rep=2, quantiles=[1.5])


@pytest.mark.usefixtures("host_only")
def test_do_bench_cudagraph_needs_torch_cuda() -> None:
    with pytest.raises(BackendUnavailableError, match="torch with a CUDA device"):
        testing.do_bench_cudagraph(sleep_1ms)


# ---------------------------------------------------------------- perf_report


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_perf_report_writes_csv_and_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: list[dict[str, Any]] = []

    @testing.perf_report(
        testing.Benchmark(
            x_names=["N"],
            x_vals=[2, 4, 8],
            line_arg="provider",
            line_vals=["a", "b"],
            line_names=["A", "B"],
            plot_name="bench-add",
            args={"scale": 0.5},
            ylabel="GB/s",
            styles=[("blue", "-"), ("green", "--")],
        )
    )
    def bench(N: int, provider: str, scale: float) -> float:
        seen.append({"N": N, "provider": provider, "scale": scale})
        return N * scale if provider == "a" else N * scale + 0.25

    table = bench.run(print_data=True, save_path=str(tmp_path), return_df=True)
    assert [(s["N"], s["provider"]) for s in seen] == [
        (n, p) for n in (2, 4, 8) for p in ("a", "b")
    ]
    assert all(s["scale"] == 0.5 for s in seen)

    rows = _read_csv(tmp_path / "bench-add.csv")
    assert list(rows[0]) == ["N", "A (GB/s)", "B (GB/s)"]
    for row, n in zip(rows, (2, 4, 8), strict=True):
        assert int(row["N"]) == n
        assert float(row["A (GB/s)"]) == pytest.approx(n * 0.5)
        assert float(row["B (GB/s)"]) == pytest.approx(n * 0.5 + 0.25)
    assert list(table["A (GB/s)"]) == [1.0, 2.0, 4.0]

    out = capsys.readouterr()
    assert "bench-add:" in out.out
    assert "A (GB/s)" in out.out and "4.25" in out.out
    assert (tmp_path / "bench-add.png").exists() == HAS_MATPLOTLIB
    if not HAS_MATPLOTLIB:
        assert "matplotlib is not installed" in out.err
    assert "bench-add.png" in (tmp_path / "results.html").read_text()


def test_perf_report_tuple_results_and_several_x_names(tmp_path: Path) -> None:
    """A (mean, min, max) result: the mean is tabulated, min/max bound the plotted band."""
    benches = [
        testing.Benchmark(
            x_names=["M", "N"],
            x_vals=[3, (4, 5)],
            line_arg="impl",
            line_vals=[1, 2],
            line_names=["one", "two"],
            plot_name=name,
            args={},
        )
        for name in ("p1", "p2")
    ]

    @testing.perf_report(benches)
    def bench(M: int, N: int, impl: int) -> tuple[float, float, float]:
        mean = float(M * N * impl)
        return mean, mean - 1, mean + 1

    tables = bench.run(save_path=str(tmp_path), return_df=True)
    assert len(tables) == 2
    for name in ("p1", "p2"):
        rows = _read_csv(tmp_path / f"{name}.csv")
        assert list(rows[0]) == ["M", "N", "one ()", "two ()"]
        got = [[float(v) for v in r.values()] for r in rows]
        assert got == [[3, 3, 9, 18], [4, 5, 20, 40]]


def test_perf_report_errors_and_no_save(tmp_path: Path) -> None:
    bench = testing.Benchmark(["M", "N"], [(1, 2, 3)], "p", [0], ["zero"], "", {})
    with pytest.raises(ValueError, match="expected 2 values"):
        testing.perf_report(bench)(lambda M, N, p: 1.0).run()

    bad = testing.Benchmark(["N"], [1], "p", [0], ["zero"], "", {})
    with pytest.raises(ValueError, match=r"\(mean, min, max\)"):
        testing.perf_report(bad)(lambda N, p: (1.0, 2.0)).run()

    ok = testing.perf_report(bad)(lambda N, p: float(N + p))
    assert ok.run() is None  # nothing saved, nothing returned
    assert list(tmp_path.iterdir()) == []


def test_result_table_plain_text() -> None:
    table = testing.ResultTable(["N", "ms"], [[1, 0.5], [16, None]])
    lines = table.to_string().splitlines()
    assert lines[0].split() == ["N", "ms"]
    assert lines[1].split() == ["0", "1", "0.5"]
    assert lines[2].split() == ["1", "16", "NaN"]


# ---------------------------------------------------------------- assert_close


def test_assert_close_numpy_and_lists() -> None:
    x = np.linspace(0, 1, 16, dtype=np.float32)
    testing.assert_close(x, x + 5e-3)  # default atol 1e-2
    testing.assert_close(x.tolist(), (x + 5e-3).tolist())
    with pytest.raises(AssertionError):
        testing.assert_close(x, x + 2e-2)
    testing.assert_close(x, x * 1.01, atol=0, rtol=0.02)
    with pytest.raises(AssertionError, match="mine"):
        testing.assert_close(x, x * 1.1, atol=0, rtol=0.02, err_msg="mine")
    nan = np.array([np.nan, 1.0])
    testing.assert_close(nan, nan.copy())


def test_assert_close_scalars_and_callable_tolerances() -> None:
    testing.assert_close(1.0, 1.005)
    with pytest.raises(AssertionError, match=r"out: 1.0 is not close to 1.5 \(atol=0.01"):
        testing.assert_close(1.0, 1.5, err_msg="out:")
    seen = []

    def atol(dtype: Any) -> float:
        seen.append(dtype)
        return 0.6

    testing.assert_close(np.float16(1.0), np.float16(1.5), atol=atol)
    assert seen == [np.dtype(np.float16)]


# ---------------------------------------------------------------- device peaks


def test_peak_formulas(monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton's formulas on given properties (H200-like: 132 SMs, 6144-bit HBM at 2.6 GHz)."""
    props = {"major": 9, "multiprocessor_count": 132, "mem_clock_rate": 2_619_000}
    props["mem_bus_width"] = 6144
    monkeypatch.setattr(device_peaks, "_device_properties", lambda device: props)
    assert testing.get_dram_gbps() == pytest.approx(2_619_000 * 6144 * 2 / 1e6 / 8)
    clock_khz = 1_980_000
    for dtype, ops in [("fp16", 512), (my_tl.bfloat16, 512), (np.float32, 256), ("int8", 1024)]:
        got = testing.get_max_tensorcore_tflops(dtype, clock_khz)
        assert got == pytest.approx(132 * 4 * clock_khz * ops * 1e-9)
    assert testing.get_max_simd_tflops(np.float16, clock_khz) == pytest.approx(
        132 * 4 * clock_khz * 64 * 1e-9
    )
    with pytest.raises(RuntimeError, match="float64 not supported"):
        testing.get_max_tensorcore_tflops(np.float64, clock_khz)
    props["major"] = 7  # before Ampere: float16 tensor cores only
    with pytest.raises(RuntimeError, match="not supported"):
        testing.get_max_tensorcore_tflops("float32", clock_khz)


def test_device_peaks_need_a_gpu() -> None:
    if gpu_missing("cupy") is None:
        pytest.skip("a GPU is present")
    with pytest.raises(BackendUnavailableError):
        testing.get_dram_gbps()


# ---------------------------------------------------------------- GPU


def test_do_bench_cupy(monkeypatch: pytest.MonkeyPatch) -> None:
    cp = require_gpu("cupy")
    monkeypatch.setattr(timers, "torch_cuda", lambda: None)  # CuPy events even beside torch
    x = cp.arange(1 << 20, dtype=cp.float32)
    out = cp.empty_like(x)
    for mode in ("min", "max", "mean", "median"):
        ms = testing.do_bench(
            lambda: cp.multiply(x, 2, out=out), warmup=5, rep=20, return_mode=mode
        )
        assert isinstance(ms, float) and 0 < ms < 100
    qs = testing.do_bench(lambda: cp.multiply(x, 2, out=out), quantiles=[0.2, 0.5, 0.8])
    assert isinstance(qs, list) and 0 < qs[0] <= qs[1] <= qs[2]
    testing.assert_close(out, cp.asnumpy(x) * 2, atol=0)
    assert testing.get_dram_gbps() > 100


def test_do_bench_torch() -> None:
    torch = require_gpu("torch")
    x = torch.randn(1 << 20, device="cuda")
    y = torch.empty_like(x)
    ms = testing.do_bench(lambda: torch.mul(x, 2, out=y), warmup=5, rep=20)
    assert isinstance(ms, float) and 0 < ms < 100
    times = testing.do_bench(lambda: torch.mul(x, 2, out=y), return_mode="all")
    assert isinstance(times, list) and all(t > 0 for t in times)
    testing.assert_close(y.bfloat16(), (x * 2).float().cpu(), atol=0.1, rtol=1e-2)


def test_do_bench_cudagraph_torch() -> None:
    torch = require_gpu("torch")
    x = torch.randn(1 << 20, device="cuda")
    y = torch.empty_like(x)
    ms = testing.do_bench_cudagraph(lambda: torch.mul(x, 2, out=y), rep=5)
    assert isinstance(ms, float) and 0 < ms < 100
    qs = testing.do_bench_cudagraph(lambda: torch.mul(x, 2, out=y), rep=5, quantiles=[0.5, 0.9])
    assert isinstance(qs, list) and 0 < qs[0] <= qs[1]
    testing.assert_close(y, x * 2, atol=0)


# ---------------------------------------------------------------- benchmarks/plots.py


def test_plots_script_cpu_fallback(tmp_path: Path) -> None:
    """Without a GPU the script times mytriton's interpreter on tiny sizes and saves its tables."""
    if gpu_missing("cupy") is None:
        pytest.skip("a GPU is present: the script would run the real benchmark")
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "plots.py"
    done = subprocess.run(
        [sys.executable, str(script), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "MYTRITON_BACKEND": ""},
    )
    assert done.returncode == 0, done.stderr
    assert "mytriton-interpreter" in done.stdout
    for name, unit in (
        ("vector-add-float32", "GB/s"),
        ("softmax-float32", "GB/s"),
        ("layer-norm-float32", "GB/s"),
        ("matmul-float32", "TFLOP/s"),
    ):
        rows = _read_csv(tmp_path / f"{name}.csv")
        assert len(rows) == 2
        assert all(float(r[f"mytriton-interpreter ({unit})"]) > 0 for r in rows)
        assert f"{name}.png" in (tmp_path / "results.html").read_text()


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_do_bench_mytriton_kernel(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mytriton launch timed by events and captured into a CUDA graph (torch's stream)."""
    torch = require_gpu("torch")
    from tests.kernels import add_kernel

    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    n = 1 << 16
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)

    def launch() -> None:
        add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)

    assert 0 < testing.do_bench(launch, warmup=5, rep=20) < 100
    out.zero_()
    assert 0 < testing.do_bench_cudagraph(launch, rep=5) < 100
    testing.assert_close(out, x + y, atol=0)
