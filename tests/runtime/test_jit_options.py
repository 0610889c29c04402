"""``@jit`` options (``repr``, ``do_not_specialize``...) and launch options (``num_warps``,
``num_ctas``, ``maxnreg``, ``enable_fp_fusion``...), as Triton 3.6 takes them."""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest

import mytriton as triton
import mytriton.language as tl
from mytriton.backends.nvidia.ptx_directives import add_maxnreg
from mytriton.errors import LaunchOptionError
from mytriton.runtime.specialization import SpecializationProxy
from tests.gpu_required import require_gpu


@pytest.fixture(autouse=True)
def interpret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_INTERPRET", "1")


def _name_of(spec: SpecializationProxy) -> str:
    ty = spec.signature["value1"]
    ones = "_".join(k for k, v in spec.constants.items() if isinstance(k, str) and v == 1)
    return f"kernel_{ty}_{ones}"


@triton.jit(repr=_name_of)
def _named(value1, is_one, X):
    tl.store(X, value1.to(tl.float32))


@pytest.mark.parametrize(
    "value, type_name",
    [(-1, "i32"), (2**31 - 1, "i32"), (2**31, "i64"), (-(2**63), "i64"), (2**63, "u64")],
)
def test_repr_names_the_kernel(value: int, type_name: str) -> None:
    x = np.zeros(1, np.float32)
    kernel = _named.warmup(value, 1, x, grid=(1,))
    assert kernel.name == f"kernel_{type_name}_is_one"
    assert f"@kernel_{type_name}_is_one" in kernel.asm["tt"]
    _named[(1,)](value, 1, x)  # runs under its new name
    assert x[0] == np.float32(value)


def test_repr_signature_and_constants() -> None:
    seen: list[SpecializationProxy] = []

    def record(spec: SpecializationProxy) -> str:
        seen.append(spec)
        return "my kernel!"

    @triton.jit(repr=record)
    def k(X, n, one, B: tl.constexpr):
        pass

    compiled = k.warmup(np.zeros(4, np.float32), 5, 1, 8, grid=(1,))
    assert compiled.name == "my_kernel_"  # made a C identifier
    spec = seen[0]
    assert spec.signature == {"X": "*fp32", "n": "i32", "one": "constexpr", "B": "constexpr"}
    assert spec.constants == {"one": 1, "B": 8}


def test_value_overflow_is_an_overflow_error() -> None:
    x = np.zeros(1, np.float32)
    _named[(1,)](2**64 - 1, 1, x)
    with pytest.raises(OverflowError, match="does not fit"):
        _named[(1,)](2**64, 1, x)  # same fast key as 2**64 - 1 before the fix
    _named[(1,)](-(2**63), 1, x)
    with pytest.raises(OverflowError):
        _named[(1,)](-(2**63) - 1, 1, x)


@triton.jit(do_not_specialize=["n"], do_not_specialize_on_alignment=[2])
def _sum(X, n, m):
    tl.store(X + tl.arange(0, 4), tl.full((4,), n + m, tl.float32))


def test_do_not_specialize() -> None:
    x = np.zeros(4, np.float32)
    ir = _sum.warmup(x, 1, 32, grid=(1,)).asm["tt"]
    args = ir.split("func.func", 1)[1].split("{\n", 1)[0]
    assert re.search(r"%n: i32 loc\(unknown\)[,)]", args)  # not compiled in as 1
    assert re.search(r"%m: i32 loc\(unknown\)[,)]", args)  # not marked divisible by 16
    assert "%X: !tt.ptr<f32> {tt.divisibility = 16" in args
    _sum[(1,)](x, 1, 32)
    np.testing.assert_array_equal(x, np.full(4, 33, np.float32))
    assert len(_sum.runtime_arguments(x, 1, 32)) == 3


def test_do_not_specialize_names_checked() -> None:
    with pytest.raises(LaunchOptionError, match="not a parameter"):

        @triton.jit(do_not_specialize=["nope"])
        def k(X):
            pass

    with pytest.raises(LaunchOptionError, match="not a parameter"):

        @triton.jit(do_not_specialize_on_alignment=[3])
        def k2(X):
            pass


def test_launch_metadata_is_accepted() -> None:
    def meta(grid: Any, kernel: Any, args: Any) -> dict[str, Any]:
        return {"name": "k"}

    @triton.jit(launch_metadata=meta)
    def k(X):
        tl.store(X, 1.0)

    assert k.launch_metadata is meta
    x = np.zeros(1, np.float32)
    k[(1,)](x)
    assert x[0] == 1.0


@pytest.mark.parametrize("num_warps", [3, 0, -2, 6])
def test_num_warps_power_of_two(num_warps: int) -> None:
    x = np.zeros(1, np.float32)
    with pytest.raises(AssertionError, match="must be a power of 2"):
        _sum.warmup(x, 1, 2, grid=(1,), num_warps=num_warps)
    for ok in (1, 2, 4):
        _sum.warmup(x, 1, 2, grid=(1,), num_warps=ok)


def test_num_ctas() -> None:
    x = np.zeros(1, np.float32)
    with pytest.raises(ValueError, match=r"num_ctas > 1 requires NVIDIA SM90\+ \(Hopper\)"):
        _sum.warmup(x, 1, 2, grid=(1,), num_ctas=2, arch="sm80")
    for bad in (3, 0, 32, True, 2.0):
        with pytest.raises(LaunchOptionError, match="num_ctas must be a power of 2 from 1 to 16"):
            _sum.warmup(x, 1, 2, grid=(1,), num_ctas=bad)
    _sum.warmup(x, 1, 2, grid=(1,), num_ctas=1)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
@pytest.mark.parametrize("num_ctas", [1, 2, 4, 16])
def test_num_ctas_computes_what_one_cta_does(
    monkeypatch: pytest.MonkeyPatch, backend: str, num_ctas: int
) -> None:
    """A program's result does not depend on how many CTAs share its work; the option is a
    compiled option (a new specialization) recorded with the kernel."""
    monkeypatch.delenv("MYTRITON_INTERPRET", raising=False)
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    out = np.zeros(3 * 8, np.int32)
    kernel = _fill_programs[(3,)](out, BLOCK=8, num_ctas=num_ctas)
    np.testing.assert_array_equal(out, np.repeat([1, 2, 3], 8))
    assert kernel.metadata["num_ctas"] == num_ctas


def test_pdl() -> None:
    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchOptionError, match="launch_pdl=True is not supported"):
        _sum[(1,)](x, 1, 2, launch_pdl=True)
    _sum[(1,)](x, 1, 2, launch_pdl=False)
    np.testing.assert_array_equal(x, np.full(4, 3, np.float32))


@triton.jit
def _fill_programs(out, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.program_id(0) + 1)


@pytest.mark.parametrize("backend", ["interpreter", "gpusim"])
@pytest.mark.parametrize("cooperative", [True, False])
def test_cooperative_grid_on_the_cpu_backends(
    monkeypatch: pytest.MonkeyPatch, backend: str, cooperative: bool
) -> None:
    """Every program of the grid runs, as in any launch there (Triton's interpreter too)."""
    monkeypatch.delenv("MYTRITON_INTERPRET")
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    out = np.zeros(3 * 8, np.int32)
    _fill_programs[(3,)](out, BLOCK=8, num_ctas=1, launch_cooperative_grid=cooperative)
    np.testing.assert_array_equal(out, np.repeat([1, 2, 3], 8))


@pytest.mark.parametrize("backend", ["cuda", "mlir"])
def test_cooperative_grid_compiles_for_gpu_backends(
    monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """The GPU backends launch it with cuLaunchCooperativeKernel (tests/cuda/
    test_device_launcher.py); it is part of the specialization."""
    monkeypatch.delenv("MYTRITON_INTERPRET")
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    out = np.zeros(8, np.int32)
    a = _fill_programs.warmup(out, BLOCK=8, grid=(1,), launch_cooperative_grid=True)
    b = _fill_programs.warmup(out, BLOCK=8, grid=(1,))
    assert a is not b


def test_maxnreg_option_is_checked_and_keyed() -> None:
    x = np.zeros(4, np.float32)
    with pytest.raises(LaunchOptionError, match="maxnreg"):
        _sum.warmup(x, 1, 2, grid=(1,), maxnreg=0)
    a = _sum.warmup(x, 1, 2, grid=(1,), maxnreg=42)
    b = _sum.warmup(x, 1, 2, grid=(1,), maxnreg=64)
    assert a is not b


PTX = """.version 8.0
.target sm_90
.visible .func helper(.param .b32 x)
{
\tret;
}
.visible .entry kern(
\t.param .u64 kern_param_0
)
.maxntid 128, 1, 1
{
\tret;
}
"""


def test_maxnreg_directive_on_the_entry_only() -> None:
    ptx = add_maxnreg(PTX, 42)
    assert re.search(r"\.visible \.entry [^{;]*\.maxnreg 42", ptx)
    assert not re.search(r"\.visible \.func [^{;]*\.maxnreg", ptx)
    assert add_maxnreg(ptx, 40).count(".maxnreg") == 1


@triton.jit
def _mul_add(X):
    p = X + tl.arange(0, 128)
    tl.store(p, tl.load(p) * 1.5 + 1.0)


@pytest.mark.parametrize("fusion", [False, True])
def test_enable_fp_fusion_on_mlir(fusion: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mlir backend fuses multiply-adds as Triton does by default: its float ops carry
    the ``contract`` flag, and LLVM emits an FMA (without fusion: ``mul.rn`` and ``add.rn``,
    rounded separately)."""
    monkeypatch.delenv("MYTRITON_INTERPRET")
    monkeypatch.setenv("MYTRITON_BACKEND", "mlir")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = _mul_add.warmup(np.zeros(128, np.float32), grid=(1,), enable_fp_fusion=fusion)
    assert ("fastmath<contract>" in h.asm["mlir"]) == fusion
    ptx = h.asm.get("ptx")
    if isinstance(ptx, str):  # where an MLIR provider is installed
        assert (re.search(r"fma\.rn\.f32", ptx) is not None) == fusion
        assert (re.search(r"mul\.rn\.f32", ptx) is not None) == (not fusion)


@pytest.mark.parametrize("fusion", [False, True])
def test_enable_fp_fusion_ptx(fusion: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Triton's test_enable_fp_fusion and test_maxnreg, on the cuda backend's PTX."""
    torch = require_gpu("torch")
    monkeypatch.delenv("MYTRITON_INTERPRET")
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    data = torch.randn(128, device="cuda")
    h = _mul_add.warmup(data, grid=(1,), enable_fp_fusion=fusion)
    found = re.search(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32", h.asm["ptx"]) is not None
    assert found == fusion
    k = _mul_add[(1,)](data, maxnreg=42)
    assert re.search(r"\.visible \.entry [^{;]*\.maxnreg 42", k.asm["ptx"])


@triton.jit
def _exp2(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.math.exp2(tl.load(ptrs)))


@pytest.mark.parametrize("ftz", [False, True])
@pytest.mark.parametrize(("backend", "stage"), [("cuda", "cuda"), ("mlir", "ptx")])
def test_enable_reflect_ftz_selects_the_ex2_instruction(
    ftz: bool, backend: str, stage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Triton's test_enable_reflect_ftz: ``tl.exp2`` of f32 is ``ex2.approx.ftz.f32`` by
    default (Triton links libdevice with ``__CUDA_FTZ``), ``ex2.approx.f32`` with
    ``enable_reflect_ftz=False``; the lowering reads the choice from the `ttg` module."""
    monkeypatch.delenv("MYTRITON_INTERPRET")
    monkeypatch.setenv("MYTRITON_BACKEND", backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        h = _exp2.warmup(np.zeros(128, np.float32), grid=(1,), enable_reflect_ftz=ftz)
    assert ('"mytriton.enable-reflect-ftz" = false' in h.asm["ttg"]) == (not ftz)
    text = h.asm.get(stage)
    if not isinstance(text, str):  # the mlir backend without an MLIR provider here
        text = h.asm["gpu"]
        assert ("llvm.nvvm.ex2.approx.ftz.f" in text) == ftz
        return
    assert (re.search(r"ex2\.approx\.ftz\.f32", text) is not None) == ftz
    assert (re.search(r"ex2\.approx\.f32", text) is not None) == (not ftz)


def test_enable_reflect_ftz_is_part_of_the_specialization(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MYTRITON_BACKEND", "gpusim")
    monkeypatch.delenv("MYTRITON_INTERPRET")
    data = np.zeros(128, np.float32)
    default = _exp2.warmup(data, grid=(1,))
    assert _exp2.warmup(data, grid=(1,), enable_reflect_ftz=True) is default
    assert _exp2.warmup(data, grid=(1,), enable_reflect_ftz=False) is not default


def test_compile_only_launch_with_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """The options reach the cuda backend's stages without a GPU (compile-only mode)."""
    monkeypatch.delenv("MYTRITON_INTERPRET")
    monkeypatch.setenv("MYTRITON_BACKEND", "cuda")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        k = _mul_add.warmup(np.zeros(128, np.float32), grid=(1,), maxnreg=42)
    assert "cuda" in k.asm


@triton.jit
def _noop(x):
    pass


def test_extern_libs_keys_the_compile(tmp_path: Any) -> None:
    """Triton's ``extern_libs`` launch option: a libdevice file keys a compile of its own (and
    the compile hook sees it); mytriton links the toolkit's libdevice and says so once."""
    from mytriton import knobs
    from mytriton.runtime import launch_options

    lib = tmp_path / "libdevice.10.bc"
    lib.write_bytes(b"BC")
    seen: list[Any] = []
    _noop.clear_cache()
    knobs.runtime.jit_post_compile_hook = lambda **kw: seen.append(kw["compile"]["extern_libs"])
    try:
        _noop[(1,)](6)
        _noop[(1,)](6, extern_libs={})  # Triton's default: the same compile
        with pytest.warns(UserWarning, match="not .*libdevice.10.bc"):
            _noop[(1,)](6, extern_libs={"libdevice": str(lib)})
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # said once per file
            _noop[(1,)](6, extern_libs={"libdevice": lib})
    finally:
        knobs.runtime.jit_post_compile_hook = None
        launch_options._warned_libdevice.discard(str(lib))
    assert seen == [(), (("libdevice", str(lib)),)]
    for bad, words in [
        ({"ocml": str(lib)}, "no library 'ocml'"),
        ({"libdevice": str(tmp_path / "missing.bc")}, "not found"),
        ([("libdevice", str(lib))], "must map library names"),
    ]:
        with pytest.raises(LaunchOptionError, match=words):
            _noop[(1,)](6, extern_libs=bad)
