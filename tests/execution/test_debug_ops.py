"""Debugging ops, hints, inline assembly and load/store options on every backend:
``tl.device_print``/``print`` (Triton's ``pid (x, y, z) idx (i) prefix: value`` lines),
``tl.device_assert``/``assert`` (debug mode only; a typed ``DeviceAssertionError``),
``tl.debug_barrier``, ``tl.multiple_of``/``max_contiguous``/``max_constancy``/``assume``,
``tl.inline_asm_elementwise`` (GPU only: a typed error on the CPU backends) and ``tl.load``/
``tl.store``'s ``cache_modifier``/``eviction_policy``/``volatile``.

The GPU's printf output and a trapped kernel are checked in a subprocess (a trapped CUDA
context is dead; printf reaches the process's stdout at synchronisation)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.errors import BackendError, DeviceAssertionError
from tests.gpu_required import require_gpu

pytestmark = pytest.mark.execution

ROOT = Path(__file__).resolve().parents[2]


@triton.jit
def print_kernel(X, Y, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + pid * BLOCK + offs)
    tl.device_print("x", x)
    print("pid", pid)
    tl.device_print("bits", offs, hex=True)
    tl.device_print("two ", x, offs)
    tl.device_print("hello")
    tl.store(Y + pid * BLOCK + offs, x)


def expected_print_lines(x: np.ndarray, programs: int, block: int) -> list[str]:
    """Triton's line format, built independently of the implementation."""
    width = len(str(block - 1))  # ceil(log10(block)) digits for block a power of ten or two
    out = []
    for p in range(programs):
        pid = f"pid ({p}, 0, 0)"
        vals = x[p * block : (p + 1) * block]
        out += [f"{pid} idx ({i:>{width}}) x: {v:f}" for i, v in enumerate(vals)]
        out.append(f"{pid} idx () pid: {p}")
        out += [f"{pid} idx ({i:>{width}}) bits: 0x{i:08x}" for i in range(block)]
        out += [f"{pid} idx ({i:>{width}}) two: (operand 0) {v:f}" for i, v in enumerate(vals)]
        out += [f"{pid} idx ({i:>{width}}) two: (operand 1) {i}" for i in range(block)]
        out.append(f"{pid} hello")
    return out


def _synchronize(run: Any) -> None:
    """Wait for the GPU, whose printf output the driver writes through C's stdout buffer,
    and flush that buffer so that ``capfd`` sees it."""
    if run.framework == "numpy":
        return
    if run.framework == "cupy":
        import cupy

        cupy.cuda.runtime.deviceSynchronize()
    else:
        import torch

        torch.cuda.synchronize()
    ctypes.CDLL(None).fflush(None)


def test_device_print_lines(run: Any, capfd: pytest.CaptureFixture[str]) -> None:
    x = (np.arange(16, dtype=np.float32) - 4.5) * 1.25
    y = np.zeros_like(x)
    capfd.readouterr()
    run(print_kernel, (2,), x, y, BLOCK=8)
    _synchronize(run)
    printed = capfd.readouterr().out.splitlines()
    np.testing.assert_array_equal(y, x)
    assert sorted(printed) == sorted(expected_print_lines(x, 2, 8))


@triton.jit
def print_types_kernel(I8, U32, I64, F16, B):
    print("i8", tl.load(I8))
    print("u32", tl.load(U32))
    print("i64", tl.load(I64))
    print("f16", tl.load(F16))
    tl.device_print("f16h", tl.load(F16), hex=True)
    print("i1", tl.load(B) > 0)


def test_device_print_dtypes(run: Any, capfd: pytest.CaptureFixture[str]) -> None:
    i8 = np.array([-5], np.int8)
    u32 = np.array([4000000000], np.uint32)
    i64 = np.array([-(2**40)], np.int64)
    f16 = np.array([1.5], np.float16)
    b = np.array([3], np.int32)
    capfd.readouterr()
    run(print_types_kernel, (1,), i8, u32, i64, f16, b)
    _synchronize(run)
    printed = capfd.readouterr().out.splitlines()
    bits = int(f16.view(np.uint16)[0])
    assert printed == [
        "pid (0, 0, 0) idx () i8: -5",
        "pid (0, 0, 0) idx () u32: 4000000000",
        f"pid (0, 0, 0) idx () i64: {-(2**40)}",
        "pid (0, 0, 0) idx () f16: 1.500000",
        f"pid (0, 0, 0) idx () f16h: 0x{bits:04x}",
        "pid (0, 0, 0) idx () i1: 1",
    ]


# ---- assertions ---------------------------------------------------------------------------


@triton.jit
def assert_kernel(X, Y, n, limit, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0)
    tl.device_assert(x < limit, "x too big", mask=offs < n)
    assert x >= 0, "x is negative"
    tl.store(Y + offs, x * 2, mask=offs < n)


def test_device_assert_holds(run: Any) -> None:
    x = np.arange(16, dtype=np.int32)
    x[12:] = 1000  # beyond n: masked off, not checked
    y = np.zeros_like(x)
    run(assert_kernel, (1,), x, y, 12, 100, BLOCK=16, debug=True)
    np.testing.assert_array_equal(y[:12], x[:12] * 2)


CPU_BACKENDS = ["interpreter", "gpusim"]


@pytest.mark.parametrize("backend", CPU_BACKENDS)
@pytest.mark.parametrize(
    ("values", "message"), [((5, 200), "x too big"), ((-1, 3), "x is negative")]
)
def test_device_assert_fails(
    backend: str,
    values: tuple[int, int],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    x = np.zeros(16, np.int32)
    x[values[0] if values[0] >= 0 else 3] = values[1] if values[0] >= 0 else -1
    y = np.zeros_like(x)
    with pytest.raises(DeviceAssertionError) as info:
        assert_kernel[(1,)](x, y, 16, 100, BLOCK=16, debug=True)
    text = str(info.value)
    assert "device assertion failed" in text
    assert "test_debug_ops.py:" in text and "program (0, 0, 0)" in text
    if backend == "interpreter":
        assert message in text
    else:  # the trapping thread printed the message first, as on the GPU
        assert f"Assertion `{message}` failed." in capfd.readouterr().out


@pytest.mark.parametrize("backend", CPU_BACKENDS)
def test_device_assert_compiled_out_without_debug(
    backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    monkeypatch.delenv("MYTRITON_DEBUG", raising=False)
    monkeypatch.delenv("TRITON_DEBUG", raising=False)
    x = np.full(16, 500, np.int32)
    y = np.zeros_like(x)
    compiled = assert_kernel[(1,)](x, y, 16, 100, BLOCK=16)
    assert "tt.assert" not in compiled.asm["tt"]
    np.testing.assert_array_equal(y, x * 2)


def test_triton_debug_environment_turns_assertions_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    monkeypatch.setenv("TRITON_DEBUG", "1")
    x = np.full(16, 500, np.int32)
    with pytest.raises(DeviceAssertionError, match="x too big"):
        assert_kernel[(1,)](x, np.zeros_like(x), 16, 100, BLOCK=16)


@triton.jit
def assert_in_batch_kernel(X, Y, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    tl.device_print("x", x)
    tl.device_assert(x != 7, "seven")
    tl.store(Y + offs, x)


def test_interpreter_assert_names_the_failing_program_and_prints_once(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """Programs run as a batch are rolled back and rerun one by one on an error: lines are
    printed once, up to the failing program, and the error names it."""
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    x = np.arange(16, dtype=np.int32)
    with pytest.raises(DeviceAssertionError, match=r"seven in program \(1, 0, 0\)"):
        assert_in_batch_kernel[(4,)](x, np.zeros_like(x), BLOCK=4, debug=True)
    printed = capfd.readouterr().out.splitlines()
    assert len(printed) == 8 and len(set(printed)) == 8  # programs 0 and 1, once each


# ---- barrier, hints, assume ---------------------------------------------------------------


@triton.jit
def hints_kernel(X, Y, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    tl.assume(stride > 0)
    base = tl.multiple_of(pid * stride, 4)
    offs = tl.max_contiguous(tl.multiple_of(base + tl.arange(0, BLOCK), 4), BLOCK)
    same = tl.max_constancy(offs // BLOCK, BLOCK)
    x = tl.load(X + offs)
    tl.debug_barrier()
    tl.store(Y + offs, x + same.to(tl.float32))


def test_hints_barrier_and_assume(run: Any) -> None:
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    compiled = run(hints_kernel, (4,), x, y, 16, BLOCK=16)
    np.testing.assert_array_equal(y, x + np.arange(64) // 16)
    tt = compiled.asm["tt"]
    for attr in ("tt.divisibility = array<i32: 4>", "tt.contiguity", "tt.constancy", "tt.assume"):
        assert attr in tt
    assert "gpu.barrier" in tt


@triton.jit
def hinted_copy_kernel(X, Y, stride, BLOCK: tl.constexpr, HINT: tl.constexpr):
    offs = tl.program_id(0) * stride + tl.arange(0, BLOCK)
    if HINT:
        offs = tl.max_contiguous(tl.multiple_of(offs, 4), BLOCK)
    tl.store(Y + offs, tl.load(X + offs))


def test_multiple_of_enables_vector_accesses(monkeypatch: pytest.MonkeyPatch) -> None:
    """A runtime stride (500: not specialized as a multiple of 16) hides the alignment;
    ``tl.multiple_of`` restores 16-byte accesses."""
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.arange(1024, dtype=np.float32)
    for hint in (False, True):
        y = np.zeros_like(x)
        compiled = hinted_copy_kernel[(2,)](x, y, 500, BLOCK=512, HINT=hint)
        np.testing.assert_array_equal(y[:1012], x[:1012])
        assert ("vector<4xf32>" in compiled.asm["gpu"]) == hint


@pytest.mark.parametrize("backend", CPU_BACKENDS)
def test_false_assumption_is_reported(backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    x = np.arange(64, dtype=np.float32)
    with pytest.raises(DeviceAssertionError, match=r"tl\.assume"):
        hints_kernel[(1,)](x, np.zeros_like(x), -16, BLOCK=16)


# ---- load/store options -------------------------------------------------------------------


@triton.jit
def cache_kernel(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(X + offs, mask=m, cache_modifier=".ca")
    b = tl.load(X + offs, mask=m, cache_modifier=".cg", eviction_policy="evict_last")
    c = tl.load(X + offs, mask=m, volatile=True)
    d = tl.load(X + offs, mask=m, eviction_policy="evict_first")
    e = tl.load(X + offs, mask=m, cache_modifier=".cv")
    f = tl.load(X + offs, mask=m, eviction_policy="evict_last")
    tl.store(Y + offs, (a + e) * 0.5, mask=m, cache_modifier=".wb")
    tl.store(Y + n + offs, b, mask=m, cache_modifier=".cg", eviction_policy="evict_first")
    tl.store(Y + 2 * n + offs, c, mask=m, cache_modifier=".cs")
    tl.store(Y + 3 * n + offs, d, mask=m, eviction_policy="evict_first")
    tl.store(Y + 4 * n + offs, f, mask=m, cache_modifier=".wt")
    tl.store(Y + 5 * n + offs, f, mask=m, eviction_policy="evict_last")


@triton.jit
def evict_dtypes_kernel(I8, F16, F64, I64, BLOCK: tl.constexpr):
    """Eviction policies on 1-, 2-, 8-byte elements, as vectors and one by one."""
    offs = tl.arange(0, BLOCK)
    a = tl.load(I8 + offs, eviction_policy="evict_last")
    b = tl.load(F16 + offs, eviction_policy="evict_first")
    c = tl.load(F64 + offs, eviction_policy="evict_last")
    d = tl.load(I64 + offs, eviction_policy="evict_first")
    tl.store(I8 + BLOCK + offs, a + 1, eviction_policy="evict_first")
    tl.store(F16 + BLOCK + offs, b * 2, eviction_policy="evict_last")
    tl.store(F64 + BLOCK + offs, c - 1, eviction_policy="evict_first")
    tl.store(I64 + BLOCK + offs, d * 3, eviction_policy="evict_last")


def test_load_store_options(run: Any) -> None:
    n = 100
    x = np.linspace(-3, 3, n).astype(np.float32)
    y = np.zeros(6 * n, np.float32)
    compiled = run(cache_kernel, (4,), x, y, n, BLOCK=32)
    np.testing.assert_array_equal(y, np.tile(x, 6))
    tt = compiled.asm["tt"]
    assert 'cache = "cg", evict = "evict_last"' in tt and "isVolatile" in tt


def test_eviction_policies_on_every_width(run: Any) -> None:
    block = 64
    i8 = np.zeros(2 * block, np.int8)
    i8[:block] = np.arange(-32, 32)
    f16 = np.zeros(2 * block, np.float16)
    f16[:block] = np.linspace(-2, 2, block)
    f64 = np.zeros(2 * block, np.float64)
    f64[:block] = np.linspace(-5, 5, block)
    i64 = np.zeros(2 * block, np.int64)
    i64[:block] = np.arange(block) * (1 << 33)
    run(evict_dtypes_kernel, (1,), i8, f16, f64, i64, BLOCK=block)
    np.testing.assert_array_equal(i8[block:], i8[:block] + 1)
    np.testing.assert_array_equal(f16[block:], f16[:block] * 2)
    np.testing.assert_array_equal(f64[block:], f64[:block] - 1)
    np.testing.assert_array_equal(i64[block:], i64[:block] * 3)


def test_cuda_source_uses_cache_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cuda backend prints CUDA's cache-hinted intrinsics, Triton's eviction qualifiers in
    inline PTX, and volatile loads (which stay scalar)."""
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    x = np.zeros(128, np.float32)
    compiled = cache_kernel.warmup(x, np.zeros(768, np.float32), 128, BLOCK=128, grid=(1,))
    source = compiled.asm["cuda"]
    for call in ("__ldca(", "__ldcg(", "__ldcv(", "__stwb(", "__stcg(", "__stcs(", "__stwt("):
        assert call in source, call
    for qualifier in ("ld.global.L1::evict_first", "ld.global.L1::evict_last"):
        assert qualifier in source, qualifier
    for qualifier in ("st.global.L1::evict_first", "st.global.L1::evict_last"):
        assert qualifier in source, qualifier
    assert "*(volatile float*)" in source


# ---- inline assembly ----------------------------------------------------------------------


@triton.jit
def shift_asm_kernel(X, Y, Z, n: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    s = tl.full([BLOCK], n, tl.int32)
    z = tl.inline_asm_elementwise(
        "shf.l.wrap.b32 $0, $1, $2, $3;",
        "=r,r, r, r",
        [x, y, s],
        dtype=tl.int32,
        is_pure=True,
        pack=1,
    )
    tl.store(Z + tl.arange(0, BLOCK), z)


@triton.jit
def packed_asm_kernel(X, Y, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise(
        "and.b32 $0, $1, 0x1F1F1F1F;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4
    )
    tl.store(Y + tl.arange(0, BLOCK), y)


@triton.jit
def two_outputs_asm_kernel(X, Y, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    (a, b) = tl.inline_asm_elementwise(
        "mov.b32 $0, $2; add.f32 $1, $3, $3;",
        "=r,=f,r,f",
        [x, x.to(tl.float32)],
        dtype=(tl.int32, tl.float32),
        is_pure=False,
        pack=1,
    )
    tl.store(Y + tl.arange(0, BLOCK), a)
    tl.store(Z + tl.arange(0, BLOCK), b)


@triton.jit
def pointer_asm_kernel(X, Y, BLOCK: tl.constexpr):
    """A pointer operand ("l"): the asm loads through it."""
    offs = tl.arange(0, BLOCK)
    v = tl.inline_asm_elementwise(
        "ld.global.b32 $0, [$1];", "=r,l", [X + offs], dtype=tl.int32, is_pure=False, pack=1
    )
    tl.store(Y + offs, v)


@triton.jit
def half_bits_asm_kernel(X, Y, BLOCK: tl.constexpr):
    """pack=2 on float16: both halves arrive in one register; two int32 outputs per pack."""
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    bits = tl.inline_asm_elementwise(
        "{ .reg .b16 lo, hi; mov.b32 {lo, hi}, $2; cvt.u32.u16 $0, lo; cvt.u32.u16 $1, hi; }",
        "=r,=r,r",
        [x],
        dtype=tl.int32,
        is_pure=True,
        pack=2,
    )
    tl.store(Y + offs, bits)


def test_inline_asm(run: Any) -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(0, 2**31, 128, dtype=np.int64).astype(np.uint32).view(np.int32)
    y = rng.integers(0, 2**31, 128, dtype=np.int64).astype(np.uint32).view(np.int32)
    z = np.zeros_like(x)
    if run.backend in CPU_BACKENDS:
        with pytest.raises(BackendError, match=r"inline_asm|PTX") as info:
            run(shift_asm_kernel, (1,), x, y, z, 3, BLOCK=128)
        assert "test_debug_ops.py:" in str(info.value)  # the kernel line
        return
    run(shift_asm_kernel, (1,), x, y, z, 3, BLOCK=128)
    xu, yu = x.view(np.uint32).astype(np.uint64), y.view(np.uint32).astype(np.uint64)
    expected = ((((yu << 32) | xu) << np.uint64(3)) >> np.uint64(32)).astype(np.uint32)
    np.testing.assert_array_equal(z.view(np.uint32), expected)
    b = rng.integers(-128, 128, 128, dtype=np.int64).astype(np.int8)
    out = np.zeros_like(b)
    run(packed_asm_kernel, (1,), b, out, BLOCK=128)
    np.testing.assert_array_equal(out, b & 0x1F)
    ia, fb = np.zeros(128, np.int32), np.zeros(128, np.float32)
    small = np.arange(128, dtype=np.int32)
    run(two_outputs_asm_kernel, (1,), small, ia, fb, BLOCK=128)
    np.testing.assert_array_equal(ia, small)
    np.testing.assert_array_equal(fb, 2 * small.astype(np.float32))
    loaded = np.zeros(128, np.int32)
    run(pointer_asm_kernel, (1,), x, loaded, BLOCK=128)
    np.testing.assert_array_equal(loaded, x)
    halves = np.linspace(-4, 4, 512).astype(np.float16)
    bits = np.zeros(512, np.int32)
    run(half_bits_asm_kernel, (1,), halves, bits, BLOCK=512)
    np.testing.assert_array_equal(bits, halves.view(np.uint16).astype(np.int32))


def debug_warmups() -> list[Any]:
    """The kernels above compiled once each (compile-only: tests/cuda and tests/mlir check the
    C++ and the PTX)."""
    f32, i32, i8 = np.zeros(256, np.float32), np.zeros(128, np.int32), np.zeros(128, np.int8)
    return [
        print_kernel.warmup(f32, f32, BLOCK=8, grid=(2,)),
        print_types_kernel.warmup(
            i8,
            i32.view(np.uint32),
            np.zeros(1, np.int64),
            np.zeros(1, np.float16),
            i32,
            grid=(1,),
        ),
        assert_kernel.warmup(i32, i32, 16, 100, BLOCK=16, debug=True, grid=(1,)),
        hints_kernel.warmup(f32, f32, 16, BLOCK=16, grid=(4,)),
        cache_kernel.warmup(f32, f32, 64, BLOCK=32, grid=(2,)),
        cache_kernel.warmup(f32, np.zeros(768, np.float32), 128, BLOCK=128, grid=(1,)),
        cache_kernel.warmup(  # 4 elements per thread: vector accesses
            np.zeros(512, np.float32), np.zeros(3072, np.float32), 512, BLOCK=512, grid=(1,)
        ),
        evict_dtypes_kernel.warmup(
            i8,
            np.zeros(128, np.float16),
            np.zeros(128, np.float64),
            np.zeros(128, np.int64),
            BLOCK=64,
            grid=(1,),
        ),
        shift_asm_kernel.warmup(i32, i32, i32, 3, BLOCK=128, grid=(1,)),
        packed_asm_kernel.warmup(i8, i8, BLOCK=128, grid=(1,)),
        two_outputs_asm_kernel.warmup(i32, i32, f32, BLOCK=128, grid=(1,)),
        pointer_asm_kernel.warmup(i32, i32, BLOCK=128, grid=(1,)),
        half_bits_asm_kernel.warmup(
            np.zeros(512, np.float16), np.zeros(512, np.int32), BLOCK=512, grid=(1,)
        ),
    ]


# ---- on the GPU, in a subprocess ----------------------------------------------------------

_GPU_SCRIPT = """
import sys
import cupy
import numpy as np
from tests.execution.test_debug_ops import assert_kernel, print_kernel
x = (np.arange(16, dtype=np.float32) - 4.5) * 1.25
if sys.argv[1] == "print":
    print_kernel[(2,)](cupy.asarray(x), cupy.zeros(16, cupy.float32), BLOCK=8)
    cupy.cuda.runtime.deviceSynchronize()
else:
    xi = cupy.asarray(np.where(np.arange(16) == 5, 500, 1).astype(np.int32))
    try:
        assert_kernel[(1,)](xi, cupy.zeros(16, cupy.int32), 16, 100, BLOCK=16, debug=True)
    except Exception as e:
        print("RAISED", type(e).__name__, str(e).splitlines()[0], flush=True)
"""


def _gpu_subprocess(backend: str, what: str) -> subprocess.CompletedProcess[str]:
    # keep the caller's path (the GPU machine finds xdsl through PYTHONPATH)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "MYTRITON_BACKEND": backend, "PYTHONPATH": path}
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_GPU_SCRIPT), what],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=300,
    )


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_gpu_printf_output(backend: str) -> None:
    require_gpu("cupy")
    result = _gpu_subprocess(backend, "print")
    assert result.returncode == 0, result.stderr
    x = (np.arange(16, dtype=np.float32) - 4.5) * 1.25
    assert sorted(result.stdout.splitlines()) == sorted(expected_print_lines(x, 2, 8))


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_gpu_device_assert_fails(backend: str) -> None:
    require_gpu("cupy")
    result = _gpu_subprocess(backend, "assert")
    assert "RAISED DeviceAssertionError" in result.stdout, result.stdout + result.stderr
    assert "device assertion failed" in result.stdout
    assert "Assertion `x too big` failed." in result.stdout + result.stderr
