"""``tl.extra.cuda``'s special registers and launch constants (Triton's ``test_globaltimer``,
``test_smid``, ``test_num_threads``): ``globaltimer()`` grows across a loop and each call is one
read (PTX ``%globaltimer`` twice for two calls, on both GPU backends), ``smid()`` names a
multiprocessor (0 on the CPU backends), ``num_threads()``/``num_warps()`` are compile-time
constants of the launch."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import ConstexprError, KernelTypeError

pytestmark = pytest.mark.execution


@triton.jit
def timed_kernel(out, times, func: tl.constexpr):
    start = func()
    offs = tl.arange(0, 128)
    for _ in range(200):
        tl.store(out + offs, tl.load(out + offs) + 1)
    end = func()
    tl.static_assert(start.dtype == tl.int64)
    tl.store(times, start)
    tl.store(times + 1, end)


def test_globaltimer_grows_across_a_loop(run: Any) -> None:
    out = np.zeros(128, np.int64)
    times = np.zeros(2, np.int64)
    run(timed_kernel, (1,), out, times, tl.extra.cuda.globaltimer)
    assert times[0] > 0 and times[1] > times[0]
    np.testing.assert_array_equal(out, 200)


@triton.jit
def smid_kernel(out):
    sm = tl.extra.cuda.smid()
    tl.static_assert(sm.dtype == tl.int32)
    tl.store(out + tl.program_id(0), sm)


def test_smid_names_a_multiprocessor(run: Any) -> None:
    out = np.full(64, -1, np.int32)
    run(smid_kernel, (64,), out)
    assert (out >= 0).all() and (out < 1024).all()
    if run.backend in ("interpreter", "gpusim"):
        np.testing.assert_array_equal(out, 0)


@triton.jit
def threads_kernel(out, warps):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    offs = tl.arange(0, num_threads)
    tl.store(out + offs, 1)
    tl.store(warps, tl.extra.cuda.num_warps())


@pytest.mark.parametrize("num_warps", [1, 4, 8])
def test_num_threads_and_num_warps_are_the_launch_constants(run: Any, num_warps: int) -> None:
    out = np.zeros(256, np.int32)
    warps = np.zeros(1, np.int32)
    run(threads_kernel, (1,), out, warps, num_warps=num_warps)
    assert out.sum() == 32 * num_warps and out[: 32 * num_warps].all()
    assert warps[0] == num_warps


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_each_call_is_one_register_read(monkeypatch: pytest.MonkeyPatch, backend: str) -> None:
    """Compile-only: the timer is read twice (never merged), smid once per call, in the
    printed C++ (cuda) or the IR the MLIR backend hands upstream (mlir; PTX where made)."""
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # compile-only launches
        timed = timed_kernel.warmup(
            np.zeros(128, np.int64), np.zeros(2, np.int64), tl.extra.cuda.globaltimer, grid=(1,)
        )
        sm = smid_kernel.warmup(np.zeros(4, np.int32), grid=(4,))
    if backend == "cuda":
        stage, timer, smid = "cuda", "%%globaltimer", "%%smid"
    else:
        stage, timer, smid = "mlir", "nvvm.read.ptx.sreg.globaltimer", "nvvm.read.ptx.sreg.smid"
    assert timed.asm[stage].count(timer) == 2
    assert sm.asm[stage].count(smid) == 1
    for kernel, register, count in ((timed, "%globaltimer", 2), (sm, "%smid", 1)):
        if "ptx" in kernel.asm:  # where the machine makes PTX (NVRTC and a GPU; MLIR's tools)
            assert kernel.asm["ptx"].count(register) == count


@triton.jit
def misuse_kernel(out, CASE: tl.constexpr):
    if CASE == "assigned_threads":
        n = tl.extra.cuda.num_threads()  # a plain assignment makes it a runtime int32 (Triton)
        tl.store(out + tl.arange(0, n), 1)
    elif CASE == "smid_argument":
        tl.store(out, tl.extra.cuda.smid(1))
    elif CASE == "timer_argument":
        tl.store(out, tl.extra.cuda.globaltimer(0).to(tl.int32))
    else:
        n: tl.constexpr = tl.extra.cuda.smid()
        tl.store(out, n)


ERRORS = {
    "assigned_threads": (ConstexprError, "arange end must be a compile-time constant", "n)"),
    "smid_argument": (KernelTypeError, "too many positional arguments", "smid(1)"),
    "timer_argument": (KernelTypeError, "too many positional arguments", "globaltimer(0)"),
    "smid_constexpr": (ConstexprError, "its value is only known at run time", "smid()"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_misuses_are_typed_errors_at_the_line(run: Any, case: str) -> None:
    error, words, code = ERRORS[case]
    with pytest.raises(error, match=words) as info:
        run(misuse_kernel, (1,), np.zeros(128, np.int32), CASE=case)
    assert info.value.loc is not None and info.value.loc.file == __file__
    assert code in str(info.value)
