"""Launching: grids, warmup, the compiled-kernel object, and argument errors."""

from __future__ import annotations

import os
import traceback
import warnings
from pathlib import Path

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.stages import print_module
from mytriton.errors import (
    BackendUnavailableError,
    CompilationError,
    CompileOnlyWarning,
    LaunchError,
    LaunchOptionError,
    MyTritonError,
    OutOfResources,
)
from mytriton.runtime import launch as launch_module
from tests.frontend.util import X, Y, without_locations


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


ARGS = (X, X, Y, 64)


@pytest.fixture(autouse=True)
def fresh_cache():
    add_kernel.clear_cache()
    yield
    add_kernel.clear_cache()


# ------------------------------------------------------------------ grids and launches


def test_grid_forms(recording):
    add_kernel[(4,)](*ARGS, BLOCK=16)
    add_kernel[3](*ARGS, BLOCK=16)
    add_kernel[(2, 3)](*ARGS, BLOCK=16)
    add_kernel[(2, 3, 4)](*ARGS, BLOCK=16)
    add_kernel[[5]](*ARGS, BLOCK=16)
    grids = [launch[1] for launch in recording.launches]
    assert grids == [(4, 1, 1), (3, 1, 1), (2, 3, 1), (2, 3, 4), (5, 1, 1)]


def test_grid_lambda_gets_arguments_and_constexprs(recording):
    seen = []

    def grid(meta):
        seen.append(dict(meta))
        return (triton.cdiv(meta["n"], meta["BLOCK"]),)

    add_kernel[grid](X, X, Y, 100, BLOCK=16)
    assert recording.launches[0][1] == (7, 1, 1)
    assert seen[0]["BLOCK"] == 16 and seen[0]["n"] == 100 and seen[0]["x"] is X
    assert set(seen[0]) == {"x", "y", "out", "n", "BLOCK"}


def test_launch_passes_runtime_arguments_only(recording):
    add_kernel[(1,)](*ARGS, BLOCK=16)
    name, _, args, options = recording.launches[0]
    assert name == "add_kernel"
    assert args[0] is X and args[2] is Y and args[3] == 64 and len(args) == 4
    assert options.num_warps == 4


def test_empty_grid_compiles_but_does_not_launch(recording):
    k = add_kernel[(0,)](*ARGS, BLOCK=16)
    assert isinstance(k, CompiledKernel)
    assert recording.launches == [] and recording.compiled == ["add_kernel"]


def test_warmup_compiles_without_launching(recording):
    def grid(meta):
        raise AssertionError("warmup must not evaluate the grid")

    k = add_kernel.warmup(*ARGS, grid=grid, BLOCK=16)
    assert recording.launches == []
    assert recording.compiled == ["add_kernel"]
    assert "recording" in k.asm
    assert add_kernel[(1,)](*ARGS, BLOCK=16) is k  # the warmed-up entry is reused
    assert len(recording.launches) == 1 and recording.compiled == ["add_kernel"]


@pytest.mark.parametrize(
    "grid",
    [
        (),
        (-1,),
        (2.7,),
        ("4",),
        (np.float32(2.0),),
        (True,),
        None,
        "4",
        lambda meta: None,
        lambda meta: (1.5, 2),
        (2**31,),
        (1, 65536),
        (1, 1, 65536),
    ],
    ids=[
        "no-dims",
        "negative",
        "float",
        "string-dim",
        "numpy-float",
        "bool",
        "none",
        "string",
        "lambda-none",
        "lambda-float",
        "x-limit",
        "y-limit",
        "z-limit",
    ],
)
def test_bad_grid(recording, grid):
    with pytest.raises(LaunchError, match="grid"):
        add_kernel[grid](*ARGS, BLOCK=16)
    assert recording.launches == []


def test_grid_of_more_than_three_entries_launches_the_first_three(recording):
    """Triton's launcher reads grid[0], grid[1], grid[2] and ignores the rest."""
    add_kernel[(2, 3, 4, 5)](*ARGS, BLOCK=16)
    add_kernel[lambda meta: (6, 1, 2, "ignored", None)](*ARGS, BLOCK=16)
    add_kernel[[7, 1, 1, 9]](*ARGS, BLOCK=16)
    assert [launch[1] for launch in recording.launches] == [(2, 3, 4), (6, 1, 2), (7, 1, 1)]


def test_grid_of_numpy_integers_and_at_the_limits(recording):
    add_kernel[(np.int64(3), np.int32(2))](*ARGS, BLOCK=16)
    add_kernel[lambda meta: [2**31 - 1, 65535, 65535]](*ARGS, BLOCK=16)
    assert [launch[1] for launch in recording.launches] == [(3, 2, 1), (2**31 - 1, 65535, 65535)]
    assert all(type(d) is int for launch in recording.launches for d in launch[1])


def test_numpy_arrays_compile_only_under_gpu_backend(monkeypatch):
    """The default backend is cuda: NumPy arrays compile, nothing runs, and a warning (once
    per process) says so and how to run on the CPU."""
    monkeypatch.setattr(launch_module, "_warned_compile_only", False)
    out = np.full(4, 7.0, np.float32)
    with pytest.warns(CompileOnlyWarning, match="MYTRITON_INTERPRET=1"):
        add_kernel[(1,)](X, X, out, 4, BLOCK=16)
    assert (out == 7.0).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        add_kernel[(1,)](X, X, out, 4, BLOCK=16)  # once per process


def test_runtime_parameter_left_to_its_default(recording):
    @triton.jit
    def k(x, out, n=7, scale=2.5, BLOCK: tl.constexpr = 16):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n) * scale, mask=offs < n)

    k[(1,)](X, Y)
    k[(1,)](X, Y, scale=0.5)
    k[(1,)](X, Y, 3)
    args = [launch[2][2:] for launch in recording.launches]
    assert args == [[7, 2.5], [7, 0.5], [3, 2.5]]


def _kernel_with_type_error():
    @triton.jit
    def bad(x, BLOCK: tl.constexpr):
        tl.store(x + tl.arange(0, BLOCK), tl.arange(0, BLOCK) + x)  # pointer + pointer block

    return bad


def test_compile_error_shows_the_kernel_not_the_compiler(monkeypatch):
    monkeypatch.delenv("MYTRITON_DEBUG", raising=False)
    with pytest.raises(CompilationError) as info:
        _kernel_with_type_error()[(1,)](X, BLOCK=16)
    frames = traceback.extract_tb(info.value.__traceback__)
    package = str(Path(triton.__file__).parent) + os.sep  # not the checkout's folder name
    internal = [f for f in frames if f.filename.startswith(package)]
    assert len(internal) <= 2, [f"{f.filename}:{f.lineno}" for f in internal]
    assert not any("/frontend/" in f.filename for f in internal)
    assert "test_launch.py" in str(info.value)  # the message names the kernel's line


def test_compile_error_keeps_the_stack_under_debug(monkeypatch):
    monkeypatch.setenv("MYTRITON_DEBUG", "1")
    with pytest.raises(CompilationError) as info:
        _kernel_with_type_error()[(1,)](X, BLOCK=16)
    frames = traceback.extract_tb(info.value.__traceback__)
    assert any("/frontend/" in f.filename for f in frames)


def test_unknown_backend(monkeypatch):
    monkeypatch.setenv("MYTRITON_BACKEND", "vulkan")
    with pytest.raises(BackendUnavailableError, match="vulkan"):
        add_kernel.warmup(*ARGS, grid=(1,), BLOCK=16)


def test_dump_env_prints_stages(monkeypatch, capsys):
    add_kernel.clear_cache()
    monkeypatch.setenv("MYTRITON_DUMP", "1")
    add_kernel.warmup(*ARGS, grid=(1,), BLOCK=16)
    err = capsys.readouterr().err
    assert "// ----- add_kernel: tt -----" in err and "// ----- add_kernel: tt-opt -----" in err


# ------------------------------------------------------------------ the compiled kernel


def test_compiled_kernel_stages_and_unpacking():
    k = add_kernel[(1,)](*ARGS, BLOCK=16)
    assert {"tt", "tt-opt"} <= set(k.asm)
    assert k.asm["tt"].startswith("builtin.module {")
    assert "func.func @add_kernel" in k.asm["tt-opt"]
    before, after, src = k
    assert (before, after) == (k.asm["tt"], k.asm["tt-opt"])
    assert src == k.asm["cuda"] and 'extern "C" __global__' in src  # the CUDA C++ source
    assert k.name == "add_kernel" and k.backend == "cuda"
    assert "stages=[tt, tt-opt, ttg, gpu, cuda" in repr(k)  # then ptx, cubin with a GPU


def test_compiled_kernel_module_is_the_optimised_ir():
    k = add_kernel.warmup(*ARGS, grid=(1,), BLOCK=16)
    assert print_module(k.module) == k.asm["tt-opt"]


def test_source_prefers_cuda_then_mlir():
    k = CompiledKernel("k", "x", asm={"tt": "a", "tt-opt": "b", "mlir": "m"})
    assert list(k) == ["a", "b", "m"]
    k.asm["cuda"] = "c"
    assert k.source == "c"


# ------------------------------------------------------------------ argument errors


def test_wrong_argument_count():
    with pytest.raises(LaunchError, match="add_kernel: missing a required argument: 'n'"):
        add_kernel[(1,)](X, X, Y, BLOCK=16)
    with pytest.raises(LaunchError, match="too many positional arguments"):
        add_kernel[(1,)](X, X, Y, 4, 16, 5)
    with pytest.raises(LaunchError, match="unexpected keyword argument 'BLOK'"):
        add_kernel[(1,)](*ARGS, BLOCK=16, BLOK=16)


def test_misspelled_keyword_is_named_with_the_close_name():
    """Not "missing a required argument: 'BLOCK'": the keyword given, and what it is close to."""
    with pytest.raises(
        LaunchError, match=r"unexpected keyword argument 'BLOK' .*did you mean 'BLOCK'\?"
    ):
        add_kernel[(1,)](*ARGS, BLOK=16)
    with pytest.raises(LaunchError, match=r"'num_warp' .*did you mean 'num_warps'\?"):
        add_kernel[(1,)](*ARGS, BLOCK=16, num_warp=8)
    with pytest.raises(LaunchError, match=r"unexpected keyword argument 'zzz' \(not a param"):
        add_kernel[(1,)](*ARGS, BLOCK=16, zzz=8)


def test_missing_constexpr():
    with pytest.raises(LaunchError, match="'BLOCK'"):
        add_kernel[(1,)](*ARGS)


def test_non_contiguous_arrays_specialize_like_contiguous_ones(recording):
    """Strides are the kernel's business (Triton passes only the pointer): a view launches, on
    the kernel of a contiguous array of the same dtype and first-element alignment."""
    k = add_kernel[(1,)](X, X, Y, 64, BLOCK=16)
    strided = np.zeros(128, np.float32)[::2]
    fortran = np.zeros((4, 4), np.float32, order="F")
    assert add_kernel[(1,)](strided, X, Y, 64, BLOCK=16) is k
    assert add_kernel[(1,)](X, X, fortran, 16, BLOCK=16) is k
    assert add_kernel[(1,)](X, X, fortran.T[::-1], 16, BLOCK=16) is k  # from its first element
    assert len(recording.compiled) == 1
    assert recording.launches[1][2][0] is strided  # the view itself goes to the backend


@pytest.mark.parametrize(
    ("dtype", "element"),
    [
        (np.float64, "f64"),
        (np.int64, "i64"),
        (np.float16, "f16"),
        (np.int8, "i8"),
        (np.int16, "i16"),
    ],
)
def test_array_dtypes_become_pointer_parameters(dtype, element):
    kernel = add_kernel.warmup(X, np.zeros(4, dtype), Y, 4, grid=(1,), BLOCK=16)
    assert f"%y: !tt.ptr<{element}>" in without_locations(kernel.asm["tt"])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_unsigned_arrays_are_unsigned_pointers(dtype):
    kernel = add_kernel.warmup(X, np.zeros(4, dtype), Y, 4, grid=(1,), BLOCK=16)
    assert f"%y: !tt.ptr<ui{np.dtype(dtype).itemsize * 8}>" in without_locations(kernel.asm["tt"])


def test_array_dtype_no_kernel_takes():
    with pytest.raises(LaunchError, match="argument `x` has dtype complex64"):
        add_kernel[(1,)](np.zeros(4, np.complex64), X, Y, 4, BLOCK=16)


@pytest.mark.parametrize("value", [2**31, -(2**31) - 1, np.int64(2**40), 2**63 - 1])
def test_int_argument_beyond_int32_is_int64(value):
    """Triton's rule: an integer that does not fit in int32 is an int64 argument."""
    k = add_kernel.warmup(X, X, Y, value, grid=(1,), BLOCK=16)
    assert "%n: i64" in k.asm["tt"]


def test_int_argument_beyond_int64_is_uint64():
    k = add_kernel.warmup(X, X, Y, 2**63, grid=(1,), BLOCK=16)
    assert "%n: ui64" in k.asm["tt"]


def test_int64_and_uint64_arguments_get_their_own_launch_plans():
    """The launch-plan cache tells an int64 integer from a uint64 one (both beyond int32)."""
    assert "%n: i64" in add_kernel.warmup(X, X, Y, 2**40, grid=(1,), BLOCK=16).asm["tt"]
    assert "%n: ui64" in add_kernel.warmup(X, X, Y, 2**63, grid=(1,), BLOCK=16).asm["tt"]
    assert "%n: i64" in add_kernel.warmup(X, X, Y, -(2**40), grid=(1,), BLOCK=16).asm["tt"]


@pytest.mark.parametrize("value", [2**64, -(2**63) - 1])
def test_int_argument_beyond_uint64(value):
    with pytest.raises(LaunchError, match=r"argument `n`.*does not fit in int64 or uint64"):
        add_kernel[(1,)](X, X, Y, value, BLOCK=16)


def test_int32_limits_accepted():
    for v in (2**31 - 1, -(2**31), np.int64(5), np.int16(3)):
        k = add_kernel.warmup(X, X, Y, v, grid=(1,), BLOCK=16)
        assert "%n: i32" in k.asm["tt"]


def test_unsupported_scalar_argument_type():
    with pytest.raises(LaunchError, match="argument `n` has type str"):
        add_kernel[(1,)](X, X, Y, "4", BLOCK=16)
    with pytest.raises(LaunchError, match="argument `n` has type complex"):
        add_kernel[(1,)](X, X, Y, 1j, BLOCK=16)


def test_unsupported_array_type():
    class FakeDeviceArray:
        __cuda_array_interface__ = {}
        dtype = np.dtype(np.float32)

    with pytest.raises(LaunchError, match="argument `x`: unsupported array type"):
        add_kernel[(1,)](FakeDeviceArray(), X, Y, 4, BLOCK=16)


def test_unhashable_constexpr():
    with pytest.raises(LaunchError, match="constexpr argument `BLOCK` must be hashable"):
        add_kernel[(1,)](*ARGS, BLOCK={"a": 1})


def test_list_constexpr_becomes_tuple():
    @triton.jit
    def k(x, out, SHAPE: tl.constexpr):
        tl.store(out + tl.arange(0, SHAPE[0]), tl.sum(tl.zeros(SHAPE, tl.float32), axis=1))

    a = k.warmup(X, Y, grid=(1,), SHAPE=[4, 8])
    b = k.warmup(X, Y, grid=(1,), SHAPE=(4, 8))
    assert a is b and "tensor<4x8xf32>" in a.asm["tt"]


def test_constexpr_wrapper_and_dtype_arguments_are_compile_time():
    @triton.jit
    def k(x, out, N, DTYPE):
        tl.store(out + tl.arange(0, N), tl.zeros((N,), DTYPE).to(tl.float32))

    ir = without_locations(k.warmup(X, Y, tl.constexpr(8), tl.int32, grid=(1,)).asm["tt"])
    assert (
        "func.func @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32})"
        in ir
    )
    assert "tt.zeros : tensor<8xi32>" in ir


def test_default_parameter_values():
    @triton.jit
    def k(x, out, n, BLOCK: tl.constexpr = 32):
        tl.store(out + tl.arange(0, BLOCK), 0.0, mask=tl.arange(0, BLOCK) < n)

    assert "end = 32 : i32" in k.warmup(X, Y, 4, grid=(1,)).asm["tt"]


@pytest.mark.parametrize("num_warps", [0, 3, 48, -4, 2.0, True])
def test_bad_num_warps(num_warps):
    with pytest.raises(LaunchOptionError, match=r"num_warps must be a power of 2 from 1 to 32"):
        add_kernel[(1,)](*ARGS, BLOCK=16, num_warps=num_warps)


@pytest.mark.parametrize("num_warps", [64, 128])
def test_too_many_warps_are_out_of_resources(num_warps):
    """A power of 2 past 32 warps is more threads than a block holds: Triton's
    ``OutOfResources`` (which autotuners skip), with its words."""
    with pytest.raises(OutOfResources) as info:
        add_kernel[(1,)](*ARGS, BLOCK=16, num_warps=num_warps)
    assert str(info.value).startswith(
        f"out of resource: threads, Required: {num_warps * 32}, Hardware limit: 1024."
    )


def test_num_warps_of_a_numpy_integer(recording):
    add_kernel[(1,)](*ARGS, BLOCK=16, num_warps=np.int64(8))
    assert recording.launches[0][3].num_warps == 8


def test_num_ctas_not_a_power_of_two():
    with pytest.raises(LaunchError, match="num_ctas must be a power of 2"):
        add_kernel[(1,)](*ARGS, BLOCK=16, num_ctas=3)


def test_launch_options_are_not_kernel_arguments(recording):
    add_kernel[(1,)](*ARGS, BLOCK=16, num_warps=8, num_stages=2)
    options = recording.launches[0][3]
    assert (options.num_warps, options.num_stages) == (8, 2)


def test_star_args_kernel_rejected_at_launch():
    @triton.jit
    def k(x, *rest):
        pass

    with pytest.raises(CompilationError, match=r"\*args/\*\*kwargs parameters"):
        k[(1,)](X)


# ------------------------------------------------------------------ calling outside a kernel


def test_calling_a_jit_function_directly_raises():
    with pytest.raises(RuntimeError, match=r"cannot be called directly.*add_kernel\[grid\]"):
        add_kernel(*ARGS, BLOCK=16)


def test_calling_a_tl_builtin_outside_a_kernel_raises():
    with pytest.raises(RuntimeError, match=r"tl\.arange can only be called inside"):
        tl.arange(0, 16)


def test_jit_decorator_forms():
    def f(x):
        pass

    plain = triton.jit(f)
    configured = triton.jit(debug=True, do_not_specialize=["x"])(f)
    assert isinstance(plain, triton.JITFunction) and isinstance(configured, triton.JITFunction)
    assert configured.debug is True and plain.__name__ == "f"
    assert "JITFunction(" in repr(plain)


def test_errors_share_a_base_class():
    assert issubclass(LaunchError, MyTritonError) and issubclass(CompilationError, MyTritonError)


# ------------------------------------------------------------------ torch (optional)


def test_cpu_torch_tensors_compile_only():
    torch = pytest.importorskip("torch")
    x = torch.ones(64, dtype=torch.float32)
    out = torch.zeros(64, dtype=torch.float32)
    k = add_kernel[(1,)](x, x, out, 64, BLOCK=16)
    assert "%x: !tt.ptr<f32>" in k.asm["tt"]
    assert float(out.sum()) == 0.0  # compile-only under the cuda backend
    # framework independent: a NumPy launch of the same kinds hits the same entry
    assert add_kernel[(1,)](X, X, Y, 64, BLOCK=16) is k
    assert add_kernel[(1,)](torch.ones(8, 8).t(), x, out, 64, BLOCK=16) is k  # any strides
    ki = add_kernel.warmup(torch.ones(4, dtype=torch.int32), x, out, 4, grid=(1,), BLOCK=16)
    assert "%x: !tt.ptr<i32>" in ki.asm["tt"]
    k64 = add_kernel.warmup(torch.ones(4, dtype=torch.float64), x, out, 4, grid=(1,), BLOCK=16)
    assert "%x: !tt.ptr<f64>" in k64.asm["tt"]
    k8 = add_kernel.warmup(torch.ones(4, dtype=torch.uint8), x, out, 4, grid=(1,), BLOCK=16)
    assert "%x: !tt.ptr<ui8>" in k8.asm["tt"]
    with pytest.raises(LaunchError, match="complex64"):
        add_kernel[(1,)](torch.ones(4, dtype=torch.complex64), x, out, 4, BLOCK=16)


def test_triton_error_is_the_base_of_every_mytriton_error():
    """``triton.TritonError`` (Triton's base class) catches compile and launch errors alike."""
    assert issubclass(triton.CompilationError, triton.TritonError)
    assert issubclass(triton.LaunchError, triton.TritonError)
    with pytest.raises(triton.TritonError):
        add_kernel[(1.5,)](*ARGS, BLOCK=16)
