"""The on-disk compile cache: a new process reuses an entry, damaged entries are rebuilt,
concurrent writers both succeed, and the key follows helpers' sources and globals."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends import LaunchOptions, get_backend
from mytriton.backends.compiled import CompiledKernel
from mytriton.backends.stages import print_module
from mytriton.errors import CacheEntryWarning
from mytriton.runtime import compiler, disk_cache
from mytriton.runtime.dependencies import Unstable, fingerprint, stable_text
from tests.mlir.conftest import any_provider

REPO = Path(__file__).resolve().parents[2]
X = np.ones(64, np.float32)

OFFSET = tl.constexpr(1.0)


@triton.jit
def plus_offset(v):
    return v + OFFSET


@triton.jit
def offset_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, plus_offset(tl.load(x + offs, mask=offs < n)), mask=offs < n)


_SWITCHES = (
    "MYTRITON_ALWAYS_COMPILE",
    "TRITON_ALWAYS_COMPILE",
    "MYTRITON_KERNEL_DUMP",
    "TRITON_KERNEL_DUMP",
    "MYTRITON_KERNEL_OVERRIDE",
    "TRITON_KERNEL_OVERRIDE",
    "MYTRITON_DUMP",
    "MYTRITON_INTERPRET",
    "TRITON_INTERPRET",
    "MYTRITON_PIPELINE",
)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder, the cuda backend (compile-only here), no bypass switch."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(folder))
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    for var in _SWITCHES:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(disk_cache, "stats", disk_cache.CacheStats())
    monkeypatch.setattr(disk_cache, "_reported", set())
    offset_kernel.clear_cache()
    yield folder
    offset_kernel.clear_cache()


def compile_offset(block: int = 64) -> CompiledKernel:
    with _quiet():
        return offset_kernel.warmup(X, X, 64, BLOCK=block, grid=(1,))


class _quiet:  # noqa: N801 (a context manager used like a function)
    """Compile-only warnings of the cuda backend without a GPU are not what these tests check."""

    def __enter__(self) -> None:
        import warnings

        self._ctx = warnings.catch_warnings()
        self._ctx.__enter__()
        warnings.simplefilter("ignore", UserWarning)
        warnings.simplefilter("error", CacheEntryWarning)

    def __exit__(self, *exc: object) -> None:
        self._ctx.__exit__(*exc)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.rglob(f"*{disk_cache.SUFFIX}"))


def no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled although the disk cache holds the kernel")

    monkeypatch.setattr(compiler, "compile_kernel", fail)


def test_hit_after_the_in_memory_cache_is_cleared(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = compile_offset()
    assert disk_cache.stats.stores == 1 and len(entries(cache)) == 1
    offset_kernel.clear_cache()
    no_compiling(monkeypatch)
    again = compile_offset()
    assert disk_cache.stats.hits == 1
    assert again is not first and again.asm == first.asm and again.hash == first.hash
    assert dict(again.metadata) == dict(first.metadata)
    # the tt module is parsed back from its text on first use
    assert print_module(again.module) == first.asm["tt-opt"]


def test_specializations_have_their_own_entries(cache: Path) -> None:
    compile_offset(64)
    compile_offset(128)
    assert len(entries(cache)) == 2


def test_damaged_entry_is_reported_once_and_rebuilt(cache: Path) -> None:
    first = compile_offset()
    (path,) = entries(cache)
    path.write_bytes(path.read_bytes()[:-100])  # truncated
    offset_kernel.clear_cache()
    with pytest.warns(CacheEntryWarning, match="compiling again"):
        rebuilt = offset_kernel.warmup(X, X, 64, BLOCK=64, grid=(1,))
    assert rebuilt.asm == first.asm
    assert disk_cache.stats.rejected == 1 and disk_cache.stats.stores == 2
    offset_kernel.clear_cache()
    compile_offset()  # the rebuilt entry checks out: a hit, no warning (an error in there)
    assert disk_cache.stats.hits == 1


def test_entry_edited_in_place_is_rejected(cache: Path) -> None:
    compile_offset()
    (path,) = entries(cache)
    data = bytearray(path.read_bytes())
    data[-10] ^= 1
    path.write_bytes(bytes(data))
    offset_kernel.clear_cache()
    with pytest.warns(CacheEntryWarning):
        offset_kernel.warmup(X, X, 64, BLOCK=64, grid=(1,))
    assert disk_cache.stats.rejected == 1


def test_changing_a_read_global_misses(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = compile_offset()
    monkeypatch.setitem(globals(), "OFFSET", tl.constexpr(2.5))
    offset_kernel.clear_cache()
    changed = compile_offset()
    assert disk_cache.stats.hits == 0 and len(entries(cache)) == 2
    assert changed.asm["tt"] != first.asm["tt"]


@pytest.mark.parametrize("var", ["MYTRITON_ALWAYS_COMPILE", "TRITON_ALWAYS_COMPILE"])
def test_always_compile_bypasses(cache: Path, monkeypatch: pytest.MonkeyPatch, var: str) -> None:
    compile_offset()
    monkeypatch.setenv(var, "1")
    offset_kernel.clear_cache()
    calls: list[int] = []
    real = compiler.compile_kernel

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(compiler, "compile_kernel", counting)
    compile_offset()
    assert calls == [1] and disk_cache.stats.hits == 0 and disk_cache.stats.stores == 1


def test_interpreter_is_not_cached_on_disk(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "interpreter")
    out = np.zeros(64, np.float32)
    offset_kernel[(1,)](X, out, 64, BLOCK=64)
    np.testing.assert_allclose(out, X + OFFSET.value)
    assert entries(cache) == [] and disk_cache.stats.stores == 0


def test_source_identity_follows_the_sources_and_is_remembered(cache: Path, tmp_path: Path) -> None:
    """The identity hashes the sources' contents; it is kept under their names, sizes and
    modification times, so that a warm process reads no source file."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n")
    (root / "sub" / "b.c").write_text("int b;\n")
    (root / "notes.txt").write_text("not a source")
    first = disk_cache.source_identity(root, "pkg 1")
    assert first.startswith("pkg 1 ") and disk_cache.source_identity(root, "pkg 1") == first
    (memo,) = (cache / "identity").iterdir()
    memo.write_text("pkg 1 remembered")  # a second call reads the memo, not the files
    assert disk_cache.source_identity(root, "pkg 1") == "pkg 1 remembered"
    (root / "notes.txt").write_text("still not a source")
    assert disk_cache.source_identity(root, "pkg 1") == "pkg 1 remembered"
    (root / "sub" / "b.c").write_text("int c;\n")  # same size, another modification time
    os.utime(root / "sub" / "b.c", ns=(1, 1))
    changed = disk_cache.source_identity(root, "pkg 1")
    assert changed.startswith("pkg 1 ") and changed != first
    assert disk_cache.source_identity(root, "pkg 2").startswith("pkg 2 ")


def test_default_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in ("MYTRITON_CACHE_DIR", "TRITON_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert disk_cache.cache_dir() == tmp_path / "home" / ".cache" / "mytriton"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert disk_cache.cache_dir() == tmp_path / "xdg" / "mytriton"
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))
    assert disk_cache.cache_dir() == tmp_path / "triton"
    monkeypatch.setenv("MYTRITON_CACHE_DIR", str(tmp_path / "ours"))
    assert disk_cache.cache_dir() == tmp_path / "ours"


def test_the_test_session_never_writes_to_the_home_cache() -> None:
    folder = Path(os.environ["MYTRITON_CACHE_DIR"])
    assert Path.home() / ".cache" not in folder.parents


# ---- what the key follows ----

HELPERS_V1 = """
import mytriton as triton
import mytriton.language as tl

FACTOR = tl.constexpr(2.0)


@triton.jit
def scale(v):
    return v * FACTOR


@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, scale(tl.load(x + offs, mask=offs < n)), mask=offs < n)
"""


def load_module(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_changing_a_called_helper_misses(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    source = tmp_path / "helper_kernels.py"
    source.write_text(HELPERS_V1)
    v1 = load_module(source, "helper_kernels_v1")
    with _quiet():
        a = v1.kernel.warmup(X, X, 64, BLOCK=64, grid=(1,))
    source.write_text(HELPERS_V1.replace("return v * FACTOR", "return v * FACTOR + 1.0"))
    v2 = load_module(source, "helper_kernels_v2")
    with _quiet():
        b = v2.kernel.warmup(X, X, 64, BLOCK=64, grid=(1,))
    assert disk_cache.stats.hits == 0 and len(entries(cache)) == 2
    assert a.asm["tt"] != b.asm["tt"]
    source.write_text(HELPERS_V1)  # back to the first version: its entry is used
    v3 = load_module(source, "helper_kernels_v3")
    with _quiet():
        c = v3.kernel.warmup(X, X, 64, BLOCK=64, grid=(1,))
    assert disk_cache.stats.hits == 1 and c.asm == a.asm


def test_fingerprint_follows_helpers_and_globals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    source = tmp_path / "fp_kernels.py"
    source.write_text(HELPERS_V1)
    module = load_module(source, "fp_kernels")
    before = fingerprint(module.kernel.fn)
    module.FACTOR = tl.constexpr(3.0)  # read by the helper, not by the kernel itself
    assert fingerprint(module.kernel.fn) != before
    module.FACTOR = tl.constexpr(2.0)
    assert fingerprint(module.kernel.fn) == before


CONSTEXPR_FUNCTIONS = """
import mytriton as triton
import mytriton.language as tl


@triton.constexpr_function
def factor(n):
    return n * 2


@tl.constexpr
def offset(n):
    return n + 1


@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs) * factor(BLOCK) + offset(BLOCK))
"""


@pytest.mark.parametrize("edit", [("n * 2", "n * 3"), ("n + 1", "n + 2")])
def test_fingerprint_follows_constexpr_functions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: tuple[str, str]
) -> None:
    """A constexpr function runs while compiling: its source is part of the key."""
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    source = tmp_path / "cf_kernels.py"
    source.write_text(CONSTEXPR_FUNCTIONS)
    before = fingerprint(load_module(source, "cf_kernels").kernel.fn)
    source.write_text(CONSTEXPR_FUNCTIONS.replace(*edit))
    assert fingerprint(load_module(source, "cf_kernels").kernel.fn) != before
    source.write_text(CONSTEXPR_FUNCTIONS)
    assert fingerprint(load_module(source, "cf_kernels").kernel.fn) == before


def test_stable_text() -> None:
    assert stable_text((1, 2.0, "a", None, tl.float16)) == stable_text(
        (1, 2.0, "a", None, tl.float16)
    )
    assert stable_text(1) != stable_text(1.0) != stable_text(True)
    assert "constexpr" in stable_text(tl.constexpr(4))
    with pytest.raises(Unstable):
        stable_text(object())


# ---- several processes ----

CHILD = """
import json, sys, warnings
warnings.simplefilter("ignore")
import numpy as np
from mytriton.runtime import compiler, disk_cache
import helper_kernels

if sys.argv[1] == "no-compile":
    def fail(*args, **kwargs):
        raise AssertionError("compiled although the disk cache holds the kernel")
    compiler.compile_kernel = fail
x = np.ones(64, np.float32)
k = helper_kernels.kernel.warmup(x, x, 64, BLOCK=64, grid=(1,))
print(json.dumps({"hits": disk_cache.stats.hits, "stores": disk_cache.stats.stores,
                  "stages": sorted(k.asm), "tt": k.asm["tt"]}))
"""


def child(tmp_path: Path, cache: Path, mode: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(tmp_path), str(REPO), *filter(None, [env.get("PYTHONPATH")])]
    )
    env["MYTRITON_CACHE_DIR"] = str(cache)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.Popen(
        [sys.executable, str(tmp_path / "child.py"), mode],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def result(proc: subprocess.Popen[str]) -> dict[str, object]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture
def child_files(tmp_path: Path) -> Path:
    (tmp_path / "helper_kernels.py").write_text(HELPERS_V1)
    (tmp_path / "child.py").write_text(CHILD)
    return tmp_path


def test_a_new_process_reuses_the_entry(child_files: Path, cache: Path) -> None:
    first = result(child(child_files, cache, "compile"))
    assert first["stores"] == 1 and first["hits"] == 0
    second = result(child(child_files, cache, "no-compile"))
    assert second["hits"] == 1 and second["stores"] == 0
    assert second["stages"] == first["stages"] and second["tt"] == first["tt"]


def test_two_processes_compiling_at_once_both_succeed(child_files: Path, cache: Path) -> None:
    procs = [child(child_files, cache, "compile") for _ in range(2)]
    outs = [result(p) for p in procs]
    assert outs[0]["tt"] == outs[1]["tt"]
    assert len(entries(cache)) == 1
    assert not list(cache.rglob("*.tmp"))
    third = result(child(child_files, cache, "no-compile"))
    assert third["hits"] == 1


@pytest.mark.skipif(not any_provider(), reason="no MLIR provider here to make PTX")
def test_a_hit_is_launchable_without_its_ir(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mlir backend's PTX/cubin and ABI come back from the entry, no module is parsed."""
    from mytriton.backends.nvidia.cuda_driver import DeviceKernel

    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    first = compile_offset()
    assert "ptx" in first.asm and isinstance(first.binary, DeviceKernel)
    offset_kernel.clear_cache()
    no_compiling(monkeypatch)
    again = compile_offset()
    assert disk_cache.stats.hits == 1 and again.asm == first.asm
    assert isinstance(again.binary, DeviceKernel)
    assert again.binary.signature == first.binary.signature
    assert again.binary.image == first.binary.image and again.binary.ptx == first.binary.ptx
    assert again.binary.has_assertions == first.binary.has_assertions
    assert again._module is None  # nothing was parsed


def test_pipelines_of_builtin_passes_only_are_cached(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MYTRITON_PIPELINE", "cse,dce")
    compile_offset()
    assert len(entries(cache)) == 1
    monkeypatch.setenv("MYTRITON_PIPELINE", "cse,some-plugin-pass")  # plugin code: not keyed
    backend = get_backend("cuda")
    key = ("k",)
    assert disk_cache.entry_for(offset_kernel.fn, backend, LaunchOptions(), key) is None
    monkeypatch.setenv("MYTRITON_PIPELINE", "cse")
    assert disk_cache.entry_for(offset_kernel.fn, backend, LaunchOptions(), key) is not None


MODULE_USER = """
import mytriton as triton
import mytriton.language as tl
import fp_config


@triton.jit
def kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n)
    tl.store(out + offs, fp_config.helpers.twice(v) * fp_config.SCALE, mask=offs < n)
"""


def test_fingerprint_follows_module_attributes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    (tmp_path / "fp_config.py").write_text("import fp_helpers as helpers\nSCALE = 2.0\n")
    (tmp_path / "fp_helpers.py").write_text(
        "import mytriton as triton\n\n\n@triton.jit\ndef twice(v):\n    return v + v\n"
    )
    (tmp_path / "fp_user.py").write_text(MODULE_USER)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("fp_config", "fp_helpers", "fp_user"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import fp_config  # type: ignore[import-not-found]
    import fp_user  # type: ignore[import-not-found]

    before = fingerprint(fp_user.kernel.fn)
    monkeypatch.setattr(fp_config, "SCALE", 3.0)
    scaled = fingerprint(fp_user.kernel.fn)
    assert scaled != before
    helper = fp_config.helpers.twice
    helper._unsafe_update_src("def twice(v):\n    return v * 2\n")
    assert fingerprint(fp_user.kernel.fn) != scaled


@pytest.mark.gpu
@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_a_kernel_from_disk_runs_on_the_gpu(
    cache: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    from tests.gpu_required import require_gpu

    cp = require_gpu("cupy")
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    x = cp.arange(100, dtype=cp.float32)
    out = cp.zeros(100, dtype=cp.float32)
    offset_kernel[(1,)](x, out, 100, BLOCK=128)
    offset_kernel.clear_cache()
    no_compiling(monkeypatch)
    out2 = cp.zeros(100, dtype=cp.float32)
    offset_kernel[(1,)](x, out2, 100, BLOCK=128)
    assert disk_cache.stats.hits == 1
    expected = np.arange(100, dtype=np.float32) + OFFSET.value
    np.testing.assert_allclose(cp.asnumpy(out), expected)
    np.testing.assert_allclose(cp.asnumpy(out2), expected)


@triton.jit
def big_dot_kernel(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """An ieee f32 dot whose staging takes 66560 bytes: dynamic shared memory."""
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    x = tl.load(a + rm[:, None] * K + rk[None, :])
    y = tl.load(b + rk[:, None] * N + rn[None, :])
    tl.store(c + rm[:, None] * N + rn[None, :], tl.dot(x, y, input_precision="ieee"))


@pytest.mark.skipif(not any_provider(), reason="no MLIR provider here to make PTX")
def test_a_hit_keeps_the_dynamic_shared_memory(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kernel past 48 KiB of shared memory launches with its bytes: they come back from the
    entry with the rest of its ABI."""
    from mytriton.backends.nvidia.cuda_driver import DeviceKernel

    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    a, b = np.ones((128, 64), np.float32), np.ones((64, 128), np.float32)
    c = np.zeros((128, 128), np.float32)

    def compile_big() -> CompiledKernel:
        with _quiet():
            return big_dot_kernel.warmup(a, b, c, M=128, N=128, K=64, grid=(1,))

    big_dot_kernel.clear_cache()
    first = compile_big()
    assert isinstance(first.binary, DeviceKernel)
    assert first.binary.signature.shared == 66560
    big_dot_kernel.clear_cache()
    no_compiling(monkeypatch)
    again = compile_big()
    assert disk_cache.stats.hits == 1
    assert isinstance(again.binary, DeviceKernel) and again.binary.signature.shared == 66560
    big_dot_kernel.clear_cache()


def test_compilation_listener_hears_compiles_and_hits(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``knobs.compilation.listener`` (Triton's): the source, the metadata (hash, target), the
    cache file, the times of each phase, and whether the disk cache had the kernel."""
    from mytriton import knobs
    from mytriton.compat.compiler import ASTSource, GPUTarget

    heard: list[dict[str, Any]] = []
    monkeypatch.setattr(knobs.compilation, "listener", lambda **kw: heard.append(kw))
    first = compile_offset()
    offset_kernel.clear_cache()
    second = compile_offset()
    assert [h["cache_hit"] for h in heard] == [False, True]
    for h, kernel in zip(heard, (first, second), strict=True):
        assert isinstance(h["src"], ASTSource) and h["src"].name == "offset_kernel"
        assert h["src"].signature == {
            "x": "*fp32",
            "out": "*fp32",
            "n": "i32",
            "BLOCK": "constexpr",
        }
        assert h["metadata"]["hash"] == kernel.hash and len(kernel.hash) > 0
        assert h["metadata"]["target"] == GPUTarget("cuda", 90, 32)
        assert list(h["metadata_group"].values()) == [str(entries(cache)[0])]
    compiled, hit = heard[0]["times"], heard[1]["times"]
    assert isinstance(compiled, knobs.CompileTimes)
    stages = [s for s, _ in compiled.lowering_stages]
    # compile-only (no GPU) ends with the CUDA C++; on a GPU NVRTC and ptxas follow
    assert stages[:4] == ["tt-opt", "ttg", "gpu", "cuda"] and stages[4:] in ([], ["ptx", "cubin"])
    assert compiled.ir_initialization > 0 and compiled.total_lowering > 0
    assert compiled.store_results > 0
    assert compiled.total == (
        compiled.ir_initialization + compiled.total_lowering + compiled.store_results
    )
    assert hit.ir_initialization > 0 and hit.lowering_stages == [] and hit.store_results == 0


def test_compilation_listener_unset_by_default() -> None:
    from mytriton import knobs

    assert knobs.compilation.listener is None
