"""An autotuner's configs compiled at once, in worker processes, before any is timed.

Why processes: on the cuda backend a tutorial-matmul config spends about half of its compile
in the Python passes, lowerings and printer (GIL-bound) and the rest in NVRTC and ptxas
(docs/backends.md, "Autotuning", gives the measurement), so threads would overlap the toolchain
only; processes overlap all of it. Triton compiles a config in a fraction of our time, so one
after the other is what made autotuning several times slower than Triton's.

How (``autotuner.py`` drives it):

* collecting: with a ``Batch`` open, the autotuner makes each config's warmup launch. A compile
  that misses the caches runs the frontend here (it needs the user's function), then ``serve``
  hands the `tt` text to a worker and stops that launch (``Deferred``). This process then
  compiles too: from the last config back, those no worker started (``compiled_at_once``).
* consuming: the benchmark loop launches each config as before. Its compile runs the frontend
  again (cheap), and ``serve`` takes the worker's result for the same `tt` text, options,
  environment and device instead of running the stages. Everything around the stages (the
  in-memory and disk caches, the listener, error handling) runs as for a serial compile.
* a worker's result is the kernel's stages, metadata and launch ABI
  (``disk_cache.kernel_body``) with the warnings it issued (issued again here), or the error
  the stages raised (raised here, where the serial compile raises it). Where a worker cannot
  give exactly what the serial compile would (an error that does not pickle as itself, a
  cubin only the CUDA driver makes, a worker that died), the compile runs here, serially.
* workers: ``python -c`` processes that import only mytriton (never the user's script:
  multiprocessing's 'spawn' would import it again, re-running its unguarded code), speaking
  length-prefixed pickles over their stdin and stdout, compiling as their parent's device
  (``cuda_driver.assume_device``: no CUDA context in a worker) with its environment. A thread
  per worker feeds it. Started on first use, kept for later autotunes, stopped at exit
  (``shutdown``); a worker whose parent dies reads the end of its stdin and exits.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import IO, Any

from mytriton import knobs
from mytriton.backends import Backend, LaunchOptions
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.nvidia.cuda_driver import AssumedDevice
from mytriton.runtime.compile_listener import CompileClock

#: the backends whose compiles go to workers: the GPU ones (the host backends' kernels are the
#: modules themselves, which a worker could only send back as text to parse again)
PARALLEL_BACKENDS = ("cuda", "mlir")


class Deferred(BaseException):
    """Stops a config's warmup launch once its compile is handed to a worker."""


def compile_jobs(configs: int) -> int:
    """How many of ``configs`` compile at once, this process being one of the compilers:
    ``MYTRITON_AUTOTUNE_COMPILE_JOBS``, else one per config up to the CPU cores this process
    may use."""
    jobs = knobs.mytriton.autotune_compile_jobs
    if jobs is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cores = os.cpu_count() or 1
        jobs = cores
    return max(1, min(int(jobs), configs))


# ---- what crosses the pipe ----


@dataclass(frozen=True)
class Job:
    """One config's compile from its `tt` text, as this process would make it."""

    tt: str
    backend: str
    options: LaunchOptions
    name: str
    hash: str
    env: tuple[tuple[str, str], ...]
    device: AssumedDevice


@dataclass
class Done:
    """The compiled kernel (``kernel_body``), the warnings its stages issued and their times."""

    body: dict[str, Any]
    warnings: list[tuple[Warning | str, type[Warning], str, int]]
    stages: list[tuple[str, int]]


@dataclass
class Failed:
    """The error the stages raised, pickled (it unpickles as itself: a new one each time it
    is raised here, as each serial compile raises its own)."""

    error: bytes


@dataclass
class Redo:
    """The worker cannot give what a serial compile would: compile here."""

    why: str


Result = Done | Failed | Redo


def _send(stream: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _receive(stream: IO[bytes]) -> Any:
    """The next object on ``stream`` (``EOFError`` at its end)."""
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError
    (size,) = struct.unpack("<Q", head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError
    return pickle.loads(data)


# ---- the parent's side ----


@dataclass
class Batch:
    """The compiles of one autotuning: collected, handed to the workers (this process
    compiling too), then consumed."""

    fn: Callable[..., Any]  # the autotuned kernel's function: other kernels compile as ever
    jobs: int  # compiles at once, this process's included
    collecting: bool = True
    #: per warmup launch, the compile it handed over (None: none, it was cached or it failed)
    collected: list[Job | None] = field(default_factory=list)
    results: dict[Job, Future[Result]] = field(default_factory=dict)

    def submit(self, job: Job) -> None:
        """Hand ``job`` over (a first one waits for a second: a lone compile stays here)."""
        self.collected[-1] = job
        waiting = [j for j in dict.fromkeys(self.collected) if j is not None]
        if len(waiting) < 2:
            return
        for j in waiting:
            if j not in self.results:
                workers = min(self.jobs - 1, len(self.results) + 1)
                self.results[j] = _pool().submit(j, workers)

    def take_back(self, job: Job) -> bool:
        """Whether ``job`` is this process's to compile: never sent, or no worker started it
        (it is then withdrawn)."""
        future = self.results.get(job)
        return future is None or future.cancel()

    def wait(self) -> None:
        """Wait for the workers' compiles."""
        for future in self.results.values():
            if not future.cancelled():
                future.exception()

    def result(self, job: Job) -> Result | None:
        future = self.results.get(job)
        return None if future is None or future.cancelled() else future.result()


_local = threading.local()


@contextlib.contextmanager
def batch(fn: Callable[..., Any], jobs: int) -> Iterator[Batch]:
    """Hand the compiles of ``fn`` that the block's warmup launches make to ``jobs - 1``
    workers; their results are used in the block only."""
    opened, outer = Batch(fn, jobs), getattr(_local, "batch", None)
    _local.batch = opened
    try:
        yield opened
    finally:
        _local.batch = outer  # an autotuning inside another's (a hook's) ends first
        for future in opened.results.values():
            future.cancel()  # those not started yet (an error ended the autotuning)


@contextlib.contextmanager
def compiled_at_once(
    fn: Callable[..., Any], jobs: int, warmups: Sequence[Callable[[], Any]]
) -> Iterator[None]:
    """Compile each config's kernel (its warmup launch, ``warmups``; ``fn`` is the kernel's
    function) at once: ``jobs - 1`` workers take the compiles from the first config on while
    this process takes them from the last one back, until it reaches one a worker started;
    then run the block, whose launches take the compiled kernels. A warmup that fails is
    left to the block's launch of that config, which fails as it would have."""
    with batch(fn, jobs) as opened:
        for warmup in warmups:
            opened.collected.append(None)
            _quietly(warmup)
        opened.collecting = False
        for warmup, job in reversed(list(zip(warmups, opened.collected, strict=True))):
            if job is not None:
                if not opened.take_back(job):
                    break
                _quietly(warmup)  # compiled here, and kept as any compile is
        opened.wait()
        yield


def _quietly(warmup: Callable[[], Any]) -> None:
    try:
        warmup()
    except Deferred:
        pass
    except Exception:  # raised again by the config's timed launch
        pass


def serve(
    fn: Callable[..., Any],
    kernel: CompiledKernel,
    backend: Backend,
    options: LaunchOptions,
    module: Any,
    clock: Any,
) -> bool:
    """Called by ``compile_stages`` (compiling ``fn``) in place of running the stages on
    ``module`` (the frontend's): while collecting, send the compile to a worker and raise
    ``Deferred``; while consuming, fill ``kernel`` with the worker's result, or raise its
    error. False where no batch holds this compile (the caller runs the stages)."""
    opened: Batch | None = getattr(_local, "batch", None)
    if opened is None or fn is not opened.fn or not _parallel(backend):
        return False
    from mytriton.backends.stages import print_module

    try:
        device = _device_facts()
    except Exception:  # the driver cannot say: the stages here ask it themselves
        return False
    env = tuple(sorted(os.environ.items()))
    job = Job(print_module(module), backend.name, options, kernel.name, kernel.hash, env, device)
    if opened.collecting:
        opened.submit(job)
        raise Deferred
    result = opened.result(job)
    if result is None or isinstance(result, Redo):
        return False
    if isinstance(result, Failed):
        raise pickle.loads(result.error)
    _install(kernel, result, clock)
    return True


def _parallel(backend: Backend) -> bool:
    """Whether a worker compiles as this process does: a GPU backend of mytriton's own,
    mytriton's own passes (a plugin's are not in the worker), and no stage dumped, replaced
    or printed (those write files and print, in order, from this process)."""
    from mytriton.runtime.disk_cache import builtin_pipeline

    return (
        backend.name in PARALLEL_BACKENDS
        and type(backend).__module__.startswith("mytriton.backends.")
        and not knobs.env_flag(
            "MYTRITON_KERNEL_DUMP",
            "TRITON_KERNEL_DUMP",
            "MYTRITON_KERNEL_OVERRIDE",
            "TRITON_KERNEL_OVERRIDE",
            "MYTRITON_DUMP",
        )
        and builtin_pipeline()
    )


def _device_facts() -> AssumedDevice:
    """What the stages would read of this process's current device."""
    from mytriton.backends.mlir.toolkit import device_chip
    from mytriton.backends.nvidia.cuda_driver import current_device, device_arch

    device = current_device()
    arch = None if device is None else device_arch(device)
    return AssumedDevice(device, arch, device_chip())


def _install(kernel: CompiledKernel, done: Done, clock: CompileClock) -> None:
    """Give ``kernel`` what the worker compiled, issue its warnings, record its stage times."""
    from mytriton.runtime.disk_cache import fill_kernel

    fill_kernel(kernel, done.body)
    for message, category, filename, lineno in done.warnings:
        # as the compiler's own warnings at a kernel's line are issued (``errors.warn_at``);
        # one issued by ``warnings.warn`` is matched by filters on its file, not its module
        warnings.warn_explicit(message, category, filename, lineno)
    clock.stages.extend(done.stages)


# ---- the pool ----


_BOOT = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from mytriton.runtime.parallel_compile import serve_forever; serve_forever()"
)


class _Worker:
    """One worker process, restarted where it died, and the thread that feeds it jobs from
    the pool's queue."""

    def __init__(self, jobs: queue.Queue[tuple[Job, Future[Result]] | None]) -> None:
        self.jobs = jobs
        self.closed = False
        self.process: subprocess.Popen[bytes] | None = None
        self.thread = threading.Thread(target=self._feed, daemon=True, name="mytriton-compile")
        self.thread.start()

    def _feed(self) -> None:
        while (task := self.jobs.get()) is not None:
            job, future = task
            if future.set_running_or_notify_cancel():
                try:
                    result = self._compile(job)
                except BaseException as e:  # the future must resolve, whatever happened
                    result = Redo(f"the compile worker failed ({type(e).__name__}: {e})")
                future.set_result(result)

    def _compile(self, job: Job) -> Result:
        """The worker's answer to ``job``; a worker that fails is replaced and asked once
        more, then the parent compiles it (``Redo``)."""
        why = ""
        for _ in range(2):
            try:
                process = self._started()
                assert process.stdin is not None and process.stdout is not None
                _send(process.stdin, job)
                result: Result = _receive(process.stdout)
                return result
            except Exception as e:  # it died, or a job or answer did not cross the pipe
                why = f"{type(e).__name__}: {e}"
                self.stop()
        return Redo(f"the compile worker failed ({why})")

    def _started(self) -> subprocess.Popen[bytes]:
        if self.closed:
            raise OSError("the pool is shut down")
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _BOOT, json.dumps([str(p) for p in sys.path])],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )
        return self.process

    def stop(self) -> None:
        """Close its stdin (the worker exits), wait a moment, then kill it."""
        process, self.process = self.process, None
        if process is None:
            return
        with contextlib.suppress(OSError):
            assert process.stdin is not None
            process.stdin.close()
        try:
            process.wait(timeout=1)
        except subprocess.TimeoutExpired:  # still compiling: its answer is not wanted
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


class _Pool:
    """Worker processes sharing one queue of jobs."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[tuple[Job, Future[Result]] | None] = queue.Queue()
        self.workers: list[_Worker] = []
        self.lock = threading.Lock()

    def submit(self, job: Job, workers: int) -> Future[Result]:
        """Queue ``job``, with at least ``workers`` workers to take it."""
        future: Future[Result] = Future()
        with self.lock:
            while len(self.workers) < workers:
                self.workers.append(_Worker(self.jobs))
        self.jobs.put((job, future))
        return future

    def shutdown(self) -> None:
        with self.lock:
            workers, self.workers = self.workers, []
        for w in workers:
            w.closed = True
            self.jobs.put(None)
        for w in workers:
            w.stop()


_POOL: _Pool | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> _Pool:
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            if not _POOL_EVER:
                atexit.register(shutdown)
                os.register_at_fork(after_in_child=_forget_pool)
                _POOL_EVER.append(True)
            _POOL = _Pool()
        return _POOL


_POOL_EVER: list[bool] = []  # the exit and fork hooks are registered once


def _forget_pool() -> None:
    """In a forked child: the workers and their feeding threads are the parent's (the
    threads do not run here), so a later autotuning starts its own."""
    global _POOL, _POOL_LOCK
    _POOL, _POOL_LOCK = None, threading.Lock()


def shutdown() -> None:
    """Stop the workers (at exit; a later autotuning starts new ones)."""
    global _POOL
    with _POOL_LOCK:
        pool, _POOL = _POOL, None
    if pool is not None:
        pool.shutdown()


def worker_processes() -> list[subprocess.Popen[bytes]]:
    """The live worker processes (for tests)."""
    pool = _POOL
    if pool is None:
        return []
    return [w.process for w in pool.workers if w.process is not None and w.process.poll() is None]


# ---- the worker's side ----


def serve_forever() -> None:
    """A worker's loop: compile each job read from stdin, answer on stdout, until stdin ends.

    Whatever the stages print goes to stderr (stdout carries the answers only); Ctrl-C in the
    terminal is the parent's to handle (it closes the worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    while True:
        try:
            job = _receive(requests)
        except EOFError:
            return
        result = compile_job(job)
        try:
            data = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # metadata or a warning that does not pickle
            data = pickle.dumps(Redo(f"the result does not pickle ({e})"))
        answers.write(struct.pack("<Q", len(data)) + data)
        answers.flush()


def compile_job(job: Job) -> Result:
    """Run the stages after ``tt`` as the parent would (its environment and device)."""
    from mytriton.backends import get_backend
    from mytriton.backends.nvidia.cuda_driver import DriverNeeded, assume_device
    from mytriton.backends.stages import parse_module
    from mytriton.runtime.compiler import run_stages
    from mytriton.runtime.disk_cache import kernel_body

    os.environ.clear()
    os.environ.update(job.env)
    assume_device(job.device)
    kernel = CompiledKernel(name=job.name, backend=job.backend, hash=job.hash)
    clock = CompileClock()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # the parent's filters decide (``_install``)
        try:
            module = parse_module(job.tt)
            run_stages(kernel, get_backend(job.backend), job.options, "tt", module, clock)
        except DriverNeeded:
            return Redo("the CUDA driver makes this cubin")
        except Exception as e:
            return _failed(e)
    body = kernel_body(kernel)
    if body is None:
        return Redo("the kernel's binary cannot be sent")
    found = [(w.message, w.category, w.filename, w.lineno) for w in caught]
    return Done(body, found, clock.stages)


def _failed(error: Exception) -> Result:
    """``Failed`` where the error crosses the pipe as itself: same type, arguments, text and
    attributes, and no cause to lose (else the parent compiles it, for the real chain);
    ``MYTRITON_DEBUG`` keeps the compiler's stack, so the parent compiles it then too."""
    if knobs.mytriton.debug or error.__cause__ is not None:
        return Redo("the error's traceback or cause is kept")
    try:
        data = pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL)
        copy = pickle.loads(data)
    except Exception:
        return Redo("the error does not pickle")
    same = (
        type(copy) is type(error)
        and copy.args == error.args
        and str(copy) == str(error)
        and vars(copy) == vars(error)
    )
    return Failed(data) if same else Redo("the error does not pickle as itself")
