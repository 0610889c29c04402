"""An autotuner's configs compiled at once in worker processes (``parallel_compile.py``): the
same kernels, byte for byte, as compiling each on its first launch; failing configs handled
alike; the ``MYTRITON_AUTOTUNE_COMPILE_JOBS`` knob; the host backends kept serial; workers that
never re-run the user's script and do not outlive it. Compile-only (NumPy arrays, sm_90): the
cuda backend to CUDA C++, the mlir backend to PTX and cubin where this machine has MLIR."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton import knobs
from mytriton.backends import LaunchOptions
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.mlir.toolkit import select_chip
from mytriton.backends.nvidia import cuda_driver
from mytriton.errors import (
    BackendError,
    LaunchOptionError,
    MyTritonError,
    OutOfResources,
    StaticAssertionError,
)
from mytriton.runtime import disk_cache, parallel_compile
from mytriton.runtime.autotuner import Autotuner, Config

pytestmark = pytest.mark.filterwarnings("ignore::mytriton.errors.CompileOnlyWarning")

ROOT = Path(__file__).resolve().parents[2]


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    tl.static_assert(BLOCK_N <= 128, "BLOCK_N too large")
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _config(m: int, n: int, k: int, warps: int = 4, stages: int = 3) -> Config:
    return Config({"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k}, num_warps=warps, num_stages=stages)


CONFIGS = [_config(64, 64, 32), _config(32, 64, 32, stages=2), _config(64, 32, 32, warps=2)]
#: its dot operands need 256 KiB of shared memory: the gpu lowering refuses it (a BackendError)
TOO_MUCH_SHARED = _config(128, 128, 512, stages=1)
#: fails in the frontend (static_assert), here before anything is sent to a worker
STATIC_ASSERT = _config(32, 256, 32)
#: 4096 threads: OutOfResources from the launch options, before compiling
TOO_MANY_WARPS = _config(32, 32, 32, warps=128)


def _bench(fn: Callable[[], Any], quantiles: Any = None) -> list[float]:
    fn()
    return [1.0] * 3


@pytest.fixture(autouse=True)
def cuda(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The cuda backend, compile-only, each compile made anew (not from the disk cache)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    monkeypatch.setenv("MYTRITON_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", raising=False)
    monkeypatch.delenv("MYTRITON_DEBUG", raising=False)


@pytest.fixture(scope="module", autouse=True)
def _stop_workers() -> Iterator[None]:
    """The workers the tests started end with the module (and none outlives ``shutdown``)."""
    yield
    processes = parallel_compile.worker_processes()
    parallel_compile.shutdown()
    assert all(p.poll() is not None for p in processes)


@pytest.fixture
def workers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process compiles none of the configs it handed over (it takes back those no worker
    started, otherwise): the workers compile them all."""
    monkeypatch.setattr(parallel_compile.Batch, "take_back", lambda self, job: False)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the kernels filled from a worker's compile."""
    names: list[str] = []
    install = parallel_compile._install

    def spy(kernel: CompiledKernel, done: Any, clock: Any) -> None:
        install(kernel, done, clock)
        names.append(kernel.hash)

    monkeypatch.setattr(parallel_compile, "_install", spy)
    return names


def _tune(
    monkeypatch: pytest.MonkeyPatch, jobs: int, configs: list[Config]
) -> tuple[Autotuner, list[CompiledKernel], list[BaseException]]:
    """Autotune ``matmul_kernel`` over ``configs`` with ``jobs`` compile jobs: the tuner, the
    kernels compiled (by hash) and the errors its post-hook saw."""
    monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", str(jobs))
    matmul_kernel.clear_cache()
    errors: list[BaseException] = []

    def post(kwargs: dict[str, Any], exception: BaseException | None) -> None:
        if exception is not None:
            errors.append(exception)

    tuner = triton.autotune(configs, key=["M"], do_bench=_bench, post_hook=post)(matmul_kernel)
    a = np.zeros((64, 64), np.float16)
    tuner[(1, 1)](a, a, a, 64, 64, 64, 64, 1, 64, 1, 64, 1)
    kernels = sorted(matmul_kernel.cache.values(), key=lambda k: k.hash)
    return tuner, kernels, errors


def _described(kernel: CompiledKernel) -> tuple[Any, ...]:
    """Everything a compiled kernel is made of, for comparing two compiles of it."""
    binary = kernel.binary
    signature = None if binary is None else (binary.signature, binary.has_assertions)
    return kernel.name, kernel.hash, kernel.asm, dict(kernel.metadata), signature


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
@pytest.mark.usefixtures("workers_only")
def test_parallel_compiles_are_the_serial_ones(
    monkeypatch: pytest.MonkeyPatch, installed: list[str], backend: str
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    serial, serial_kernels, _ = _tune(monkeypatch, 1, CONFIGS)
    assert installed == []
    parallel, parallel_kernels, _ = _tune(monkeypatch, 2, CONFIGS)
    assert sorted(installed) == [k.hash for k in parallel_kernels]  # all from the workers
    assert len(parallel_kernels) == len(CONFIGS)
    assert [_described(k) for k in parallel_kernels] == [_described(k) for k in serial_kernels]
    assert parallel.configs_timings == serial.configs_timings
    stages = set(parallel_kernels[0].asm)
    assert {"tt", "tt-opt", "ttg", "gpu", "cuda" if backend == "cuda" else "mlir"} <= stages


@pytest.mark.usefixtures("workers_only")
def test_workers_compile_with_this_process_environment(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    """A variable set after the workers started (the pass pipeline) holds for their compiles."""
    _, default_kernels, _ = _tune(monkeypatch, 2, CONFIGS)  # the workers are running
    monkeypatch.setenv("MYTRITON_PIPELINE", "cse")
    _, serial_kernels, _ = _tune(monkeypatch, 1, CONFIGS)
    del installed[:]
    _, parallel_kernels, _ = _tune(monkeypatch, 2, CONFIGS)
    assert len(installed) == len(CONFIGS)
    assert [_described(k) for k in parallel_kernels] == [_described(k) for k in serial_kernels]
    assert [k.asm["tt-opt"] for k in parallel_kernels] != [k.asm["tt-opt"] for k in default_kernels]


@pytest.mark.usefixtures("workers_only")
def test_failing_configs_are_handled_as_serially(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    configs = [TOO_MANY_WARPS, CONFIGS[0], TOO_MUCH_SHARED, STATIC_ASSERT, CONFIGS[1]]
    sent: list[Future[parallel_compile.Result]] = []
    submit = parallel_compile._Pool.submit

    def spy(self: Any, job: parallel_compile.Job, workers: int) -> Future[Any]:
        sent.append(submit(self, job, workers))
        return sent[-1]

    monkeypatch.setattr(parallel_compile._Pool, "submit", spy)
    serial, serial_kernels, serial_errors = _tune(monkeypatch, 1, configs)
    parallel, parallel_kernels, parallel_errors = _tune(monkeypatch, 4, configs)
    # the warps and the static_assert fail before a worker is asked: three compiles are sent,
    # and the shared memory's refusal comes back from its worker as the serial compile's error
    assert len(sent) == 3 and len(installed) == 2
    results = [type(future.result()).__name__ for future in sent]
    assert results == ["Done", "Failed", "Done"]
    assert [_described(k) for k in parallel_kernels] == [_described(k) for k in serial_kernels]
    assert [(type(e), str(e)) for e in parallel_errors] == [
        (type(e), str(e)) for e in serial_errors
    ]
    assert [type(e) for e in parallel_errors] == [
        OutOfResources,
        BackendError,
        StaticAssertionError,
    ]
    assert "shared memory" in str(parallel_errors[1])
    assert "BLOCK_N too large" in str(parallel_errors[2])
    assert parallel.configs_timings == serial.configs_timings
    assert [parallel.configs_timings[configs[i]] for i in (0, 2, 3)] == [[math.inf] * 3] * 3
    assert parallel.best_config is CONFIGS[0]


def test_this_process_compiles_what_no_worker_started(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    """Handed-over compiles still queued when the collecting ends are taken back, from the
    last config on, and compiled here; one a worker started is waited for."""
    _, serial_kernels, _ = _tune(monkeypatch, 1, CONFIGS)
    futures: list[Future[parallel_compile.Result]] = []

    def submit(self: Any, job: parallel_compile.Job, workers: int) -> Future[Any]:
        futures.append(Future())
        if len(futures) == 1:  # a worker took the first one, and could not compile it
            futures[0].set_running_or_notify_cancel()
            futures[0].set_result(parallel_compile.Redo("test"))
        return futures[-1]

    monkeypatch.setattr(parallel_compile._Pool, "submit", submit)
    _, kernels, _ = _tune(monkeypatch, 3, CONFIGS)
    assert len(futures) == 3 and [f.cancelled() for f in futures] == [False, True, True]
    assert installed == []
    assert [_described(k) for k in kernels] == [_described(k) for k in serial_kernels]


@triton.jit
def e4b15_dot_kernel(out, SIZE: tl.constexpr):
    a = tl.full((SIZE, SIZE), 0.0, tl.float8e4b15)
    acc = tl.dot(a, a)  # Triton's deprecation warning on Hopper, issued at this line
    offs = tl.arange(0, SIZE)
    tl.store(out + offs[:, None] * SIZE + offs[None, :], acc)


@pytest.mark.usefixtures("workers_only")
def test_a_workers_warnings_are_issued_here(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    configs = [Config({"SIZE": 32}), Config({"SIZE": 64})]
    caught: dict[int, list[tuple[Any, ...]]] = {}
    for jobs in (1, 2):
        monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", str(jobs))
        e4b15_dot_kernel.clear_cache()
        tuner = triton.autotune(configs, key=[], do_bench=_bench)(e4b15_dot_kernel)
        with warnings.catch_warnings(record=True) as found:
            warnings.simplefilter("always")
            tuner[(1,)](np.zeros(64 * 64, np.float32))
        caught[jobs] = [
            (str(w.message), w.category, w.filename, w.lineno)
            for w in found
            if "fp8e4b15" in str(w.message)
        ]
    assert len(installed) == 2
    assert len(caught[1]) == 2 and caught[2] == caught[1]
    assert caught[2][0][3] == e4b15_dot_kernel.fn.__code__.co_firstlineno + 3  # the dot's


def test_parallel_compiles_are_stored_on_disk(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    monkeypatch.delenv("MYTRITON_ALWAYS_COMPILE")
    stores = disk_cache.stats.stores
    _, compiled, _ = _tune(monkeypatch, 2, CONFIGS)  # compiled by a worker and here
    assert installed  # a worker compiled some
    assert disk_cache.stats.stores == stores + len(CONFIGS)
    hits = disk_cache.stats.hits
    _, loaded, _ = _tune(monkeypatch, 2, CONFIGS)  # a new tuning reads them back
    assert disk_cache.stats.hits == hits + len(CONFIGS)
    assert [k.asm for k in loaded] == [k.asm for k in compiled]


@pytest.mark.usefixtures("workers_only")
def test_an_autotuners_warmup_compiles_its_configs_at_once(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    a = np.zeros((64, 64), np.float16)
    args = (a, a, a, 64, 64, 64, 64, 1, 64, 1, 64, 1)
    compiled = {}
    for jobs in (1, 2):
        monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", str(jobs))
        matmul_kernel.clear_cache()
        tuner = triton.autotune(CONFIGS, key=["M"], do_bench=_bench)(matmul_kernel)
        compiled[jobs] = tuner.warmup(*args, grid=(1, 1))
    assert len(installed) == len(CONFIGS)  # the second warmup's, from the workers
    assert [_described(k) for k in compiled[2]] == [_described(k) for k in compiled[1]]


def test_one_job_is_the_serial_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> Any:
        raise AssertionError("compiled in parallel")

    monkeypatch.setattr(parallel_compile, "compiled_at_once", refuse)
    _, kernels, _ = _tune(monkeypatch, 1, CONFIGS)
    assert len(kernels) == len(CONFIGS)


def test_configs_with_pre_hooks_compile_serially(monkeypatch: pytest.MonkeyPatch) -> None:
    """A config's pre_hook may set what its compile specializes on, and runs where the serial
    path runs it: such an autotuner never compiles at once."""

    def refuse(*args: Any) -> Any:
        raise AssertionError("compiled in parallel")

    monkeypatch.setattr(parallel_compile, "compiled_at_once", refuse)
    monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", "2")
    hooked = []
    configs = [
        Config(c.kwargs, num_warps=c.num_warps, num_stages=c.num_stages, pre_hook=hooked.append)
        for c in CONFIGS[:2]
    ]
    matmul_kernel.clear_cache()
    tuner = triton.autotune(configs, key=["M"], do_bench=_bench)(matmul_kernel)
    a = np.zeros((64, 64), np.float16)
    tuner.warmup(a, a, a, 64, 64, 64, 64, 1, 64, 1, 64, 1, grid=(1, 1))
    assert len(matmul_kernel.cache) == 2


def test_a_lone_compile_stays_in_this_process(
    monkeypatch: pytest.MonkeyPatch, installed: list[str]
) -> None:
    """Two configs, one compiled already: the other is not sent to a worker."""
    _tune(monkeypatch, 1, CONFIGS[:1])  # a single config compiles without tuning
    monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", "2")
    tuner = triton.autotune(CONFIGS[:2], key=["M"], do_bench=_bench)(matmul_kernel)
    a = np.zeros((64, 64), np.float16)
    tuner[(1, 1)](a, a, a, 64, 64, 64, 64, 1, 64, 1, 64, 1)
    assert len(matmul_kernel.cache) == 2 and installed == []


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
def test_host_backends_compile_serially(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    @triton.jit
    def add_one(x, out, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n) + 1, mask=offs < n)

    def refuse(*args: Any) -> Any:
        raise AssertionError("compiled in parallel")

    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", "4")
    monkeypatch.setattr(parallel_compile, "compiled_at_once", refuse)
    configs = [Config({"BLOCK": b}, num_warps=1) for b in (8, 16, 32)]
    tuner = triton.autotune(configs, key=["n"], do_bench=_bench)(add_one)  # timed
    x, out = np.arange(40, dtype=np.float32), np.zeros(40, np.float32)
    tuner[lambda meta: (triton.cdiv(40, meta["BLOCK"]),)](x, out, 40)
    np.testing.assert_array_equal(out, x + 1)
    assert len(tuner.configs_timings) == 3


def test_compile_jobs_knob(monkeypatch: pytest.MonkeyPatch) -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert knobs.mytriton.autotune_compile_jobs is None
    assert parallel_compile.compile_jobs(64) == min(64, cores or 1)
    assert parallel_compile.compile_jobs(1) == 1
    monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", "3")
    assert knobs.mytriton.autotune_compile_jobs == 3
    assert parallel_compile.compile_jobs(16) == 3
    assert parallel_compile.compile_jobs(2) == 2
    knobs.mytriton.autotune_compile_jobs = 5  # a knob writes its variable
    assert os.environ["MYTRITON_AUTOTUNE_COMPILE_JOBS"] == "5"


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_compile_jobs_knob_rejects_what_is_not_a_count(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("MYTRITON_AUTOTUNE_COMPILE_JOBS", value)
    with pytest.raises(LaunchOptionError, match="MYTRITON_AUTOTUNE_COMPILE_JOBS must be a"):
        parallel_compile.compile_jobs(4)
    tuner = triton.autotune(CONFIGS, key=["M"], do_bench=_bench)(matmul_kernel)
    a = np.zeros((64, 64), np.float16)
    with pytest.raises(LaunchOptionError, match="positive integer"):
        tuner[(1, 1)](a, a, a, 64, 64, 64, 64, 1, 64, 1, 64, 1)


class _TwoArguments(MyTritonError):
    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


def test_errors_cross_the_pipe_only_as_themselves(monkeypatch: pytest.MonkeyPatch) -> None:
    resources = parallel_compile._failed(OutOfResources(300000, 232448, "shared"))
    assert isinstance(resources, parallel_compile.Failed)
    assert isinstance(parallel_compile._failed(BackendError("no")), parallel_compile.Failed)
    caused = BackendError("wrapped")
    caused.__cause__ = ValueError("inner")
    assert isinstance(parallel_compile._failed(caused), parallel_compile.Redo)
    # unpickling calls _TwoArguments(message): not itself, so the parent compiles it
    assert isinstance(parallel_compile._failed(_TwoArguments("a", "b")), parallel_compile.Redo)
    monkeypatch.setenv("MYTRITON_DEBUG", "1")  # the compiler's stack is wanted
    assert isinstance(parallel_compile._failed(BackendError("no")), parallel_compile.Redo)


def test_a_worker_that_dies_leaves_the_compile_to_this_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(parallel_compile, "_BOOT", "import sys; sys.exit(3)")
    pool = parallel_compile._Pool()
    job = parallel_compile.Job(
        "", "cuda", LaunchOptions(), "k", "h", (), cuda_driver.AssumedDevice(None, None, None)
    )
    try:
        result = pool.submit(job, workers=1).result(timeout=60)
    finally:
        pool.shutdown()
    assert isinstance(result, parallel_compile.Redo)
    assert "the compile worker failed" in result.why


def test_a_worker_compiles_as_its_parents_device() -> None:
    cuda_driver.assume_device(cuda_driver.AssumedDevice(1, 86, "sm_86"))
    try:
        assert cuda_driver.current_device() == 1
        assert cuda_driver.device_arch(1) == 86
        assert select_chip() == ("sm_86", "CUDA device")
        with pytest.raises(cuda_driver.DriverNeeded):
            cuda_driver.link_cubin(".version 8.0", 1, "k")
    finally:
        cuda_driver.assume_device(None)
    assert cuda_driver.assumed_device() is None


_SCRIPT = """
import sys

with open(sys.argv[1], "a") as f:  # unguarded: a worker importing this script would run it
    f.write("ran\\n")

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.runtime import parallel_compile

parallel_compile.Batch.take_back = lambda self, job: False  # the workers compile every config

@triton.jit
def fill(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.full((BLOCK,), 1.0, tl.float32))


def bench(fn, quantiles=None):
    fn()
    return [1.0] * 3


configs = [triton.Config({"BLOCK": b}) for b in (16, 32, 64)]
tuner = triton.autotune(configs, key=[], do_bench=bench)(fill)
tuner[(1,)](np.zeros(64, np.float32))
print(" ".join(str(p.pid) for p in parallel_compile.worker_processes()))
"""


def test_workers_never_run_the_script_and_end_with_it(tmp_path: Path) -> None:
    script, runs = tmp_path / "user_script.py", tmp_path / "runs.txt"
    script.write_text(textwrap.dedent(_SCRIPT))
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        MYTRITON_AUTOTUNE_COMPILE_JOBS="3",
        PYTHONWARNINGS="ignore",
    )
    proc = subprocess.run(
        [sys.executable, str(script), str(runs)], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 0, proc.stderr
    pids = [int(p) for p in proc.stdout.split()]
    assert len(pids) == 2  # three jobs: two workers (and this process, here idle)
    assert runs.read_text() == "ran\n"
    for pid in pids:  # stopped at exit, not left behind as orphans
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


_FORK_SCRIPT = """
import os
import sys

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mytriton.runtime import parallel_compile


@triton.jit
def fill(x, BLOCK: tl.constexpr):
    tl.store(x + tl.arange(0, BLOCK), tl.full((BLOCK,), 1.0, tl.float32))


def bench(fn, quantiles=None):
    fn()
    return [1.0] * 3


def tune():
    fill.clear_cache()
    configs = [triton.Config({"BLOCK": b}) for b in (16, 32, 64)]
    triton.autotune(configs, key=[], do_bench=bench)(fill)[(1,)](np.zeros(64, np.float32))
    return len(fill.cache)


assert tune() == 3 and parallel_compile.worker_processes()  # the parent's workers
pid = os.fork()
if pid == 0:  # their feeding threads do not run in the child: it starts workers of its own
    ok = tune() == 3 and parallel_compile.worker_processes()
    sys.exit(0 if ok else 1)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_autotunes_with_workers_of_its_own(tmp_path: Path) -> None:
    script = tmp_path / "forking.py"
    script.write_text(textwrap.dedent(_FORK_SCRIPT))
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        MYTRITON_AUTOTUNE_COMPILE_JOBS="3",
        PYTHONWARNINGS="ignore",
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0"]
