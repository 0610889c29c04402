"""Triton's host compiler API over mytriton (TorchInductor's way in): ``ASTSource`` ->
``compile(target=GPUTarget("cpu", ...), options=...)`` -> ``CompiledKernel.run(...)``, on both
CPU backends (``MYTRITON_CPU_BACKEND``: interpreter, gpusim), pickled, and its errors."""

from __future__ import annotations

import inspect
import pickle
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mytriton
import mytriton.language as tl
from mytriton.backends import backends as registry_via_backends
from mytriton.compat.compiler import KernelArgumentCountError
from mytriton.compat.drivers import CPUDriver
from mytriton.compat.signature import SignatureError
from mytriton.compiler import ASTSource, CompiledKernel, make_backend
from mytriton.compiler import compile as triton_compile
from mytriton.compiler.errors import CompilationError, CompileTimeAssertionFailure
from mytriton.errors import LaunchOptionError
from mytriton.runtime import driver
from mytriton.runtime.driver import CudaDriver, GPUTarget
from tests.child_env import child_pythonpath
from tests.compat import kernels

CPU = GPUTarget("cpu", "x86_64", 1)
ADD_SIGNATURE = {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32", "BLOCK": "constexpr"}
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["interpreter", "gpusim"])
def cpu_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setenv("MYTRITON_CPU_BACKEND", request.param)
    yield request.param


def compile_add(block: int = 64, **options: Any) -> CompiledKernel:
    src = ASTSource(
        kernels.add_kernel, ADD_SIGNATURE, {"BLOCK": block}, {(0,): [["tt.divisibility", 16]]}
    )
    return triton_compile(src, target=CPU, options={"num_warps": 2, **options})


def launch(kernel: CompiledKernel, grid: int, *args: Any, **hooks: Any) -> None:
    kernel.run(
        grid,
        1,
        1,
        0,
        kernel.function,
        kernel.packed_metadata,
        hooks.get("launch_metadata"),
        hooks.get("enter"),
        hooks.get("exit"),
        *args,
    )


def add_arrays(n: int = 100) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    x = np.arange(n, dtype=np.float32)
    return x, np.full(n, 0.5, np.float32), np.zeros(n, np.float32)


def test_compile_and_run(cpu_backend: str) -> None:
    kernel = compile_add(debug=True, sanitize_overflow=False, launch_pdl=False)
    assert kernel.metadata.backend_name == cpu_backend
    kernel._init_handles()
    x, y, out = add_arrays()
    launch(kernel, 2, x, y, out, 100, 64)  # the constexpr is passed and skipped, as in Triton
    np.testing.assert_array_equal(out, x + y)
    assert (kernel.n_regs, kernel.n_spills) == (0, 0)


def test_constexprs_by_name_and_path_and_scalars(cpu_backend: str) -> None:
    signature = {
        "x": "*fp32",
        "out": "*fp32",
        "alpha": "fp32",
        "n": "i64",
        "BLOCK": "constexpr",
        "SQUARE": "constexpr",
    }
    src = ASTSource(kernels.scale_kernel, signature, {"BLOCK": 32, (5,): True})
    kernel = triton_compile(src, target=CPU)
    x = np.linspace(-3, 3, 70, dtype=np.float32)
    out = np.zeros_like(x)
    launch(kernel, 3, x, out, 1.5, 70, 32, True)
    np.testing.assert_allclose(out, x * x * 1.5, rtol=1e-6)


def test_metadata_has_tritons_fields() -> None:
    kernel = compile_add(num_stages=2)
    meta = kernel.metadata
    assert type(meta).__name__ == "KernelMetadata"
    assert list(meta._fields) == sorted(meta._fields)
    assert (meta.name, meta.num_warps, meta.num_stages, meta.num_ctas) == ("add_kernel", 2, 2, 1)
    assert (meta.shared, meta.cluster_dims, meta.global_scratch_size) == (0, (1, 1, 1), 0)
    assert meta.target == CPU and meta.hash == kernel.hash and meta.triton_version == "3.6.0"
    assert kernel.packed_metadata == (2, 1, 0)
    assert kernel.name == "add_kernel" and {"tt", "tt-opt"} <= set(kernel.asm)
    assert "tt.func" in kernel.asm["tt"] or "func.func" in kernel.asm["tt"]


def test_hash_follows_specialization_and_options() -> None:
    first, same = compile_add(), compile_add()
    assert first.hash == same.hash and len(first.hash) == 64
    assert compile_add(block=32).hash != first.hash
    assert compile_add(num_warps=4).hash != first.hash


def test_launch_hooks_and_grid_item(cpu_backend: str) -> None:
    kernel = compile_add()
    calls: list[tuple[str, Any]] = []
    x, y, out = add_arrays()
    launch(
        kernel,
        2,
        x,
        y,
        out,
        100,
        64,
        launch_metadata="meta",
        enter=lambda m: calls.append(("enter", m)),
        exit=lambda m: calls.append(("exit", m)),
    )
    assert calls == [("enter", "meta"), ("exit", "meta")]
    out[:] = 0
    kernel[(2,)](x, y, out, 100, 64)
    np.testing.assert_array_equal(out, x + y)


def test_pickled_kernel_runs(cpu_backend: str) -> None:
    kernel = compile_add()
    kernel._init_handles()
    copy = pickle.loads(pickle.dumps(kernel))
    assert copy.metadata == kernel.metadata and copy.hash == kernel.hash
    assert copy.src.fn is kernels.add_kernel  # found again by name
    x, y, out = add_arrays()
    launch(copy, 2, x, y, out, 100, 64)
    np.testing.assert_array_equal(out, x + y)


def test_pickled_kernel_runs_in_another_process(tmp_path: Path) -> None:
    blob = tmp_path / "kernel.pkl"
    blob.write_bytes(pickle.dumps(compile_add()))
    code = f"""
import pickle, numpy as np
kernel = pickle.loads(open({str(blob)!r}, "rb").read())
x = np.arange(100, dtype=np.float32); y = np.ones(100, np.float32); out = np.zeros(100, np.float32)
kernel.run(2, 1, 1, 0, None, kernel.packed_metadata, None, None, None, x, y, out, 100, 64)
print(bool(np.array_equal(out, x + y)), kernel.metadata.name)
"""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": child_pythonpath(), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "add_kernel"]


def test_kernel_without_its_source_rebuilds_from_tt_opt(cpu_backend: str) -> None:
    """A kernel whose ``ASTSource`` lost its function (TorchInductor drops it before
    pickling) still launches, from its ``tt-opt`` stage."""
    state = compile_add().__getstate__()
    state["src"] = None
    kernel = CompiledKernel.__new__(CompiledKernel)
    kernel.__setstate__(state)
    x, y, out = add_arrays()
    launch(kernel, 2, x, y, out, 100, 64)
    np.testing.assert_array_equal(out, x + y)


def test_inductor_style_state_round_trip(cpu_backend: str) -> None:
    """TorchInductor pickles ``{**kernel.__dict__, metadata as a dict, run/function: None}``
    and rebuilds with ``CompiledKernel.__new__`` plus a namedtuple of the metadata; the
    ``ASTSource`` travels with its own ``JITFunction`` (here: kept by the test)."""
    kernel = compile_add()
    kernel._init_handles()  # the loaded state must not travel
    src = kernel.src
    state = {
        **kernel.__dict__,
        "src": None,
        "metadata": kernel.metadata._asdict(),
        "module": None,
        "function": None,
        "run": None,
    }
    state = pickle.loads(pickle.dumps(state))
    state["src"] = src
    from collections import namedtuple

    meta = state["metadata"]
    copy = CompiledKernel.__new__(CompiledKernel)
    copy.__dict__.update({**state, "metadata": namedtuple("KernelMetadata", sorted(meta))(**meta)})
    copy._init_handles()
    x, y, out = add_arrays()
    launch(copy, 2, x, y, out, 100, 64)
    np.testing.assert_array_equal(out, x + y)


def test_backends_registry_and_drivers() -> None:
    backends = mytriton.backends.backends
    assert backends is registry_via_backends
    assert set(backends) == {"nvidia", "cpu"}
    for entry in backends.values():  # Triton's drivers answer is_active on the class
        assert isinstance(inspect.getattr_static(entry.driver, "is_active"), staticmethod)
    assert backends["cpu"].driver.is_active() is True
    assert backends["nvidia"].driver is CudaDriver
    cpu = make_backend(CPU)
    assert type(cpu) is backends["cpu"].compiler
    assert cpu.hash() == make_backend(CPU).hash() and "interpreter" in cpu.hash()
    assert type(make_backend(GPUTarget("cuda", 90, 32))) is backends["nvidia"].compiler
    options = cpu.parse_options({"num_warps": 8, "unknown_option": 1})
    assert options.num_warps == 8 and "num_warps" in options.__dict__
    with pytest.raises(RuntimeError, match="0 compatible backends"):
        make_backend(GPUTarget("hip", "gfx942", 64))


def test_driver_config_set_active(monkeypatch: pytest.MonkeyPatch) -> None:
    from mytriton.runtime.driver import driver as config

    assert config is driver
    cpu = CPUDriver()
    config.set_active(cpu)
    try:
        assert driver.active is cpu
        assert cpu.get_current_target() == GPUTarget("cpu", cpu.get_current_target().arch, 1)
        kernel = triton_compile(ASTSource(kernels.add_kernel, ADD_SIGNATURE, {"BLOCK": 64}))
        assert kernel.metadata.target.backend == "cpu"  # the active driver's target
    finally:
        config.reset_active()
    assert driver.active is driver.default


def test_cache_and_key_helpers() -> None:
    from mytriton.runtime.cache import _base32, _base64, triton_key

    assert _base64("00ff00ff") == "AP8A_w"
    assert _base32("00ff00ff") == "AD7QB7Y"
    assert triton_key().startswith("mytriton-") and "3.6.0" in triton_key()


def test_jit_params_and_interfaces() -> None:
    params = kernels.scale_kernel.params
    assert [p.num for p in params] == list(range(6))
    assert [p.name for p in params if p.is_constexpr] == ["BLOCK", "SQUARE"]
    from mytriton.runtime.autotuner import OutOfResources
    from mytriton.runtime.jit import KernelInterface

    assert issubclass(mytriton.runtime.autotuner.Autotuner, KernelInterface)
    assert OutOfResources(10, 5, "shared memory").message.startswith("out of resource: shared")
    assert isinstance(pickle.loads(pickle.dumps(OutOfResources(1, 2, "x"))), OutOfResources)
    assert "_semantic" not in inspect.signature(tl.core.view).parameters


def test_interpreted_function_while_interpreting(monkeypatch: pytest.MonkeyPatch) -> None:
    from mytriton.runtime.interpreter import InterpretedFunction

    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    assert not isinstance(kernels.add_kernel, InterpretedFunction)
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert isinstance(kernels.add_kernel, InterpretedFunction)
    assert not isinstance(object(), InterpretedFunction)


# ---- errors ----


def test_compile_error_is_tritons_class() -> None:
    src = ASTSource(kernels.bad_kernel, {"x": "*fp32"})
    with pytest.raises(CompilationError) as info:
        triton_compile(src, target=CPU)
    assert "kernels.py" in str(info.value) and "undefined_name" in str(info.value)


def test_static_assert_is_compile_time_assertion_failure() -> None:
    src = ASTSource(kernels.static_assert_kernel, {"N": "constexpr"}, {"N": 2})
    with pytest.raises(CompileTimeAssertionFailure, match="N must exceed 4"):
        triton_compile(src, target=CPU)
    triton_compile(
        ASTSource(kernels.static_assert_kernel, {"N": "constexpr"}, {"N": 8}), target=CPU
    )


@pytest.mark.parametrize(
    ("signature", "constants", "message"),
    [
        (
            {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"},
            {},
            "no type for parameter `BLOCK`",
        ),
        (ADD_SIGNATURE, {}, "constexpr parameter `BLOCK` has no value"),
        ({**ADD_SIGNATURE, "n": "nvTmaDesc"}, {"BLOCK": 4}, "type 'nvTmaDesc'"),
        ({**ADD_SIGNATURE, "n": ("i32", "i32")}, {"BLOCK": 4}, "tuple type"),
        ({**ADD_SIGNATURE, "zz": "i32"}, {"BLOCK": 4}, "names 'zz', not parameters"),
    ],
)
def test_signature_errors_name_the_kernel(
    signature: dict[str, Any], constants: dict[str, Any], message: str
) -> None:
    with pytest.raises(SignatureError, match=message) as info:
        triton_compile(ASTSource(kernels.add_kernel, signature, constants), target=CPU)
    assert isinstance(info.value, CompilationError)
    assert "kernel `add_kernel` (" in str(info.value) and "kernels.py:" in str(info.value)


def test_ast_source_argument_errors() -> None:
    with pytest.raises(TypeError, match="Signature keys must be string"):
        ASTSource(kernels.add_kernel, {0: "*fp32"})
    with pytest.raises(TypeError, match="not a parameter of add_kernel"):
        ASTSource(kernels.add_kernel, ADD_SIGNATURE, {"BLOK": 4})
    with pytest.raises(TypeError, match="GPUTarget"):
        triton_compile(
            ASTSource(kernels.add_kernel, ADD_SIGNATURE, {"BLOCK": 4}), target=("cpu", 0)
        )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"num_warps": 3}, "num_warps must be a power of 2"),
        ({"num_ctas": 3}, "num_ctas must be a power of 2"),  # 2, 4... compile (clusters)
        ({"launch_pdl": True}, "launch_pdl=True is not supported"),
    ],
)
def test_option_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(LaunchOptionError, match=message):
        compile_add(**options)


def test_wrong_argument_count_is_a_type_error() -> None:
    kernel = compile_add()
    x, y, out = add_arrays()
    with pytest.raises(KernelArgumentCountError, match="takes the kernel's 5 arguments") as info:
        launch(kernel, 1, x, y, out, 100)
    assert isinstance(info.value, TypeError)


def test_bad_cpu_backend_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_CPU_BACKEND", "cuda")
    with pytest.raises(ValueError, match="MYTRITON_CPU_BACKEND must be one of interpreter"):
        compile_add()


def test_ir_text_still_compiles_through_mytriton_compile() -> None:
    """``compile`` of a stage's IR is mytriton's own API (``runtime/compile_ir``)."""
    text = compile_add().asm["tt-opt"]
    kernel = mytriton.compile(text, stage="tt-opt", backend="interpreter")
    assert kernel.name == "add_kernel" and "tt-opt" in kernel.asm


@pytest.mark.parametrize("gpu_backend", ["cuda", "mlir"])
def test_cuda_target_compiles_with_the_selected_gpu_backend(
    gpu_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``"cuda"`` target compiles with ``MYTRITON_BACKEND`` (cuda or mlir) for its arch;
    the IR stages run on any machine."""
    monkeypatch.setenv("MYTRITON_BACKEND", gpu_backend)
    src = ASTSource(kernels.add_kernel, ADD_SIGNATURE, {"BLOCK": 64})
    kernel = triton_compile(src, target=GPUTarget("cuda", 80, 32), options={"num_warps": 4})
    assert kernel.metadata.backend_name == gpu_backend
    assert {"tt", "tt-opt", "ttg", "gpu"} <= set(kernel.asm)
    assert make_backend(GPUTarget("cuda", 80, 32)).hash().endswith("-80")


def test_cpu_benchmarker() -> None:
    from mytriton.compat.drivers import cpu_bench

    calls: list[int] = []
    bench = CPUDriver().get_benchmarker()
    assert bench is cpu_bench
    assert isinstance(bench(lambda: calls.append(1), warmup=2, rep=3), float)
    assert len(calls) == 5
    low, high = bench(lambda: None, quantiles=[0.0, 1.0], rep=4)
    assert 0 <= low <= high
    assert len(bench(lambda: None, rep=3, return_mode="all")) == 3


def test_compiler_package_is_an_attribute_of_a_fresh_import() -> None:
    """``triton.compiler.errors.CompilationError`` without importing ``triton.compiler``
    first, as Triton's tests write it (its ``__init__`` imports the subpackage)."""
    code = (
        "import mytriton as triton\n"
        "from mytriton.errors import CompilationError, StaticAssertionError\n"
        "print(triton.compiler.errors.CompilationError is CompilationError,\n"
        "      triton.compiler.errors.CompileTimeAssertionFailure is StaticAssertionError,\n"
        "      triton.compiler.ASTSource.__name__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONPATH": child_pythonpath(), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "ASTSource"]


@pytest.mark.parametrize(("stage", "suffix"), [("tt", ".tt.mlir"), ("ttg", ".ttg.mlir")])
def test_ir_source_compiles_a_stage_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stage: str, suffix: str
) -> None:
    """``triton.compile(IRSource(path, context, backend))``: a stage file (as the dump writes
    it) compiled from that stage on, giving the same later stages."""
    from mytriton.compiler.compiler import IRSource

    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    x = np.zeros(64, np.float32)

    @mytriton.jit
    def copy_kernel(x, out, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)

    warm = copy_kernel.warmup(x, x, 64, BLOCK=64, grid=(1,))
    path = tmp_path / f"copy_kernel{suffix}"
    path.write_text(warm.asm[stage])
    src = IRSource(path, None, None)
    assert (src.ext, src.name, src.src) == ("mlir", "@copy_kernel", warm.asm[stage])
    assert src.hash() == IRSource(str(path)).hash()
    compiled = mytriton.compile(src)
    assert compiled.asm["gpu"] == warm.asm["gpu"]
